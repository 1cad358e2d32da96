"use client";

import { useState, type FormEvent } from "react";
import type { TProjectDetail } from "@/lib/query/lead";
import { useAssign, useBuildPool, useChunkings } from "@/lib/query/lead";
import type { TPoolResult } from "@/lib/pooling/build";
import type { TAssignResult } from "@/lib/assignment/assign";
import { Button, ErrorBox, Field, InputField, Section, inputClass, perItemInput, poolDepthInput } from "./ui";
import { DoneBox, PreviewBox, assignSentences, poolSentences } from "./PoolAssignPreview";

type TPoolRequest = { depth: number; runs?: string[]; chunking?: string };
type TAssignRequest = {
  perItem: number;
  annotators?: string[];
  sample?: number;
  includeLabelled?: boolean;
  answers?: boolean;
};

const list = (v: FormDataEntryValue | null) =>
  String(v ?? "")
    .split(/[,\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);

export function PoolPanel({ project }: { project: TProjectDetail }) {
  const pool = useBuildPool(project.id);
  const chunkings = useChunkings(project.id).data ?? [];
  const [allRuns, setAllRuns] = useState(true);
  // Preview first (a dry run), then the same request confirmed.
  const [preview, setPreview] = useState<{ request: TPoolRequest; result: TPoolResult } | null>(null);
  const [done, setDone] = useState<TPoolResult | null>(null);

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const runs = f.getAll("runs").map(String);
    const chunking = String(f.get("chunking") ?? "");
    const request: TPoolRequest = {
      depth: Number(f.get("depth")),
      ...(allRuns ? {} : { runs }),
      ...(chunking ? { chunking } : {}),
    };
    setDone(null);
    pool.mutate({ ...request, dryRun: true }, { onSuccess: (result) => setPreview({ request, result }) });
  }
  const confirm = () =>
    preview && pool.mutate(preview.request, { onSuccess: (result) => (setPreview(null), setDone(result)) });

  return (
    <Section
      title="Build pool"
      id="pool"
      description="Per query, the union of every chosen run's top K chunks in evaluated order. Building again adds only new pairs."
    >
      <form onSubmit={onSubmit} className="space-y-3">
        <div className="w-40">
          <InputField label="Depth" id="pool-depth" name="depth" {...poolDepthInput(project)} />
        </div>
        {chunkings.length > 1 ? (
          <div className="w-60">
            <Field
              label="Chunking"
              htmlFor="pool-chunking"
              hint="One chunking: only the pairs label transfer left unjudged"
            >
              <select id="pool-chunking" name="chunking" className={inputClass} defaultValue="">
                <option value="">All chunkings</option>
                {chunkings.map((c) => (
                  <option key={c.id} value={c.name}>
                    {c.name}
                  </option>
                ))}
              </select>
            </Field>
          </div>
        ) : null}
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">Runs</legend>
          <label className="mt-1 flex items-center gap-2 text-sm">
            <input type="checkbox" checked={allRuns} onChange={(e) => setAllRuns(e.target.checked)} /> All runs
          </label>
          {!allRuns ? (
            <div className="mt-1 flex flex-wrap gap-3">
              {project.runs.map((r) => (
                <label key={r.id} className="flex items-center gap-1 text-sm">
                  <input type="checkbox" name="runs" value={r.system} defaultChecked /> {r.system}
                </label>
              ))}
            </div>
          ) : null}
          {project.runs.length === 0 ? <p className="text-xs text-slate-500">No run imported yet.</p> : null}
        </fieldset>
        <Button type="submit" disabled={pool.isPending}>
          {pool.isPending && !preview ? "Working it out…" : "Preview the pool"}
        </Button>
      </form>
      <ErrorBox error={pool.error} />
      {preview ? (
        <PreviewBox
          title="Build the pool?"
          sentences={poolSentences(preview.result, false)}
          confirmLabel="Build the pool"
          busy={pool.isPending}
          onConfirm={confirm}
          onCancel={() => setPreview(null)}
        />
      ) : null}
      {done ? (
        <DoneBox
          sentences={["Pool built.", ...poolSentences(done, true)]}
          next={{ href: "#assign-title", text: "assign the new items to annotators" }}
        />
      ) : null}
    </Section>
  );
}

export function AssignPanel({ project }: { project: TProjectDetail }) {
  const assign = useAssign(project.id);
  const [preview, setPreview] = useState<{ request: TAssignRequest; result: TAssignResult } | null>(null);
  const [done, setDone] = useState<TAssignResult | null>(null);

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const annotators = list(f.get("annotators"));
    const sample = String(f.get("sample") ?? "").trim();
    const answers = f.get("what") === "answers";
    const request: TAssignRequest = answers
      ? { perItem: Number(f.get("perItem")), ...(annotators.length ? { annotators } : {}), answers }
      : {
          perItem: Number(f.get("perItem")),
          ...(annotators.length ? { annotators } : {}),
          ...(sample ? { sample: Number(sample) } : {}),
          includeLabelled: f.get("includeLabelled") === "on",
        };
    setDone(null);
    assign.mutate({ ...request, dryRun: true }, { onSuccess: (result) => setPreview({ request, result }) });
  }
  // The preview's seed: the confirmed call makes exactly the assignments previewed.
  const [doneNoun, setDoneNoun] = useState("pool item");
  const confirm = () =>
    preview &&
    assign.mutate(
      { ...preview.request, seed: preview.result.seed },
      {
        onSuccess: (result) => (
          setDoneNoun(preview.request.answers ? "answer" : "pool item"),
          setPreview(null),
          setDone(result)
        ),
      },
    );

  return (
    <Section title="Assign" id="assign" description="Balanced load; never the same person twice on an item.">
      <form onSubmit={onSubmit} className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <Field
          label="What to assign"
          htmlFor="assign-what"
          hint="Generated answers: the answer task (sample and re-grade do not apply)"
        >
          <select id="assign-what" name="what" className={inputClass} defaultValue="items">
            <option value="items">Pool items</option>
            <option value="answers">Generated answers</option>
          </select>
        </Field>
        <InputField label="Annotators per item" id="assign-per-item" name="perItem" {...perItemInput(project)} />
        <Field
          label="Annotators (emails)"
          htmlFor="assign-annotators"
          hint="Comma-separated; empty for every active annotator"
        >
          <input id="assign-annotators" name="annotators" className={inputClass} />
        </Field>
        <Field label="Sample size" htmlFor="assign-sample" hint="Optional calibration subset of N items">
          <input id="assign-sample" name="sample" type="number" min={1} className={inputClass} />
        </Field>
        <label className="flex items-center gap-2 text-sm sm:col-span-3">
          <input type="checkbox" name="includeLabelled" /> Re-grade items that already have an imported label
          (calibration of the old labels)
        </label>
        <div className="sm:col-span-3">
          <Button type="submit" disabled={assign.isPending}>
            {assign.isPending && !preview ? "Working it out…" : "Preview the assignment"}
          </Button>
        </div>
      </form>
      <ErrorBox error={assign.error} />
      {preview ? (
        <PreviewBox
          title="Assign these items?"
          sentences={assignSentences(preview.result, false, preview.request.answers ? "answer" : "pool item")}
          confirmLabel="Assign"
          busy={assign.isPending}
          onConfirm={confirm}
          onCancel={() => setPreview(null)}
        />
      ) : null}
      {done ? (
        <DoneBox
          sentences={assignSentences(done, true, doneNoun)}
          next={{
            href: "#judge-title",
            text: "annotators can start at /annotate; meanwhile run the LLM judge on the pool",
          }}
        />
      ) : null}
    </Section>
  );
}
