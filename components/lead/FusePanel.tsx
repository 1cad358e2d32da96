"use client";

import { useState, type FormEvent } from "react";
import type { TProjectDetail } from "@/lib/query/lead";
import { useFuseRuns } from "@/lib/query/lead";
import { METHODS, NORMS, RRF_K, type Method, type Norm } from "@/lib/fusion/index";
import type { TFuse } from "@/lib/runs/fuse";
import { ErrorBox, Field, InputField, Section, SelectField, SubmitCell, Success, inputClass } from "./ui";

const METHOD_LABELS: Record<Method, string> = {
  rrf: "rrf: reciprocal rank fusion",
  wsum: "wsum: weighted sum of normalised scores",
  combsum: "combsum: sum of normalised scores",
  combmnz: "combmnz: combsum × number of runs retrieving",
};

/** "0.7, 0.3" → [0.7, 0.3]; undefined when empty; a message when a part is not a number. */
function parseWeights(raw: string): number[] | undefined | string {
  if (!raw.trim()) return undefined;
  const parts = raw.split(",").map((x) => x.trim());
  const w = parts.map((x) => (x === "" ? NaN : Number(x)));
  return w.some((x) => !Number.isFinite(x))
    ? `Weights must be numbers separated by commas (e.g. 0.7, 0.3), got "${raw}".`
    : w;
}

const optionalInt = (v: FormDataEntryValue | null) => (String(v ?? "").trim() ? Number(v) : undefined);

/**
 * Fuses chosen runs into a new run, as `assessor fuse` followed by `assessor import run` (the
 * server does both: lib/runs/fuse.ts); the new run is then offered by the pool panel.
 */
export function FusePanel({ project }: { project: TProjectDetail }) {
  const fuse = useFuseRuns(project.id);
  const [method, setMethod] = useState<Method>("rrf");
  const [formError, setFormError] = useState<string | null>(null);

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const weights = method === "wsum" ? parseWeights(String(f.get("weights") ?? "")) : undefined;
    if (typeof weights === "string") {
      setFormError(weights);
      return;
    }
    setFormError(null);
    const description = String(f.get("description") ?? "").trim();
    const input: TFuse = {
      system: String(f.get("system") ?? ""),
      runs: f.getAll("runs").map(String),
      method,
      ...(method === "rrf" ? { k: optionalInt(f.get("k")) } : { norm: String(f.get("norm")) as Norm }),
      ...(weights ? { weights } : {}),
      depth: optionalInt(f.get("depth")),
      ...(description ? { description } : {}),
    };
    fuse.mutate(input);
  }

  return (
    <Section
      title="Fuse runs"
      id="fuse"
      description="A new run from two or more of this project's runs (as assessor fuse, then assessor import run); it is pooled like any system."
    >
      <form onSubmit={onSubmit} aria-label="Fuse runs" className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <InputField label="New system name" id="fuse-system" name="system" required maxLength={200} />
        <Field label="Method" htmlFor="fuse-method">
          <select
            id="fuse-method"
            name="method"
            value={method}
            onChange={(e) => setMethod(e.target.value as Method)}
            className={inputClass}
          >
            {METHODS.map((m) => (
              <option key={m} value={m}>
                {METHOD_LABELS[m]}
              </option>
            ))}
          </select>
        </Field>
        {method === "rrf" ? (
          <InputField
            label="k"
            id="fuse-k"
            name="k"
            type="number"
            min={1}
            defaultValue={RRF_K}
            hint="rrf: the constant in 1 / (k + rank)"
          />
        ) : (
          <SelectField
            label="Normalisation"
            id="fuse-norm"
            name="norm"
            defaultValue="min-max"
            hint="Of each query's scores, before they are combined"
            options={NORMS.map((n) => ({ value: n, label: n }))}
          />
        )}
        <fieldset className="sm:col-span-3">
          <legend className="text-sm font-medium text-slate-700">Runs to fuse</legend>
          <div className="mt-1 flex flex-wrap gap-3">
            {project.runs.map((r) => (
              <label key={r.id} className="flex items-center gap-1 text-sm">
                <input type="checkbox" name="runs" value={r.system} /> {r.system}
              </label>
            ))}
          </div>
          {project.runs.length < 2 ? (
            <p className="text-xs text-slate-500">Fusion needs at least two imported runs.</p>
          ) : null}
        </fieldset>
        {method === "wsum" ? (
          <InputField
            label="Weights"
            id="fuse-weights"
            name="weights"
            placeholder="0.7, 0.3"
            hint="One per chosen run, in the order listed, comma-separated; empty for all 1"
          />
        ) : null}
        <InputField
          label="Depth"
          id="fuse-depth"
          name="depth"
          type="number"
          min={1}
          hint="Optional: keep the top N of each query"
        />
        <InputField
          label="Description"
          id="fuse-description"
          name="description"
          maxLength={1000}
          hint="Optional; the method and its parameters are added"
        />
        <SubmitCell className="sm:col-span-3" pending={fuse.isPending}>
          {fuse.isPending ? "Fusing…" : "Fuse runs"}
        </SubmitCell>
      </form>
      <ErrorBox error={formError ?? fuse.error} />
      {fuse.isSuccess && !formError ? (
        <Success>
          Fused run “{fuse.data.system}”: {fuse.data.queries} queries, {fuse.data.lines} lines ({fuse.data.description}
          ).
        </Success>
      ) : null}
    </Section>
  );
}
