"use client";

import { useRef, useState, type FormEvent } from "react";
import { ApiError, parseApiResponse } from "@/lib/query/fetcher";
import { useInvalidateProject } from "@/lib/query/lead";
import { IMPORT_KINDS, IMPORT_LABELS, type TImportKind } from "@/lib/lead/import-kinds";
import { Button, ErrorBox, Field, InputField, Section, Success } from "./ui";

/** POSTs the file as the raw body with XHR, which (unlike fetch) reports upload progress. */
function upload(url: string, file: File, onProgress: (fraction: number) => void): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => parseApiResponse<unknown>(xhr.status, xhr.responseText).then(resolve, reject);
    xhr.onerror = () => reject(new ApiError(0, "network", "the upload failed: could not reach the server"));
    xhr.send(file);
  });
}

function OptionInputs({ kind }: { kind: TImportKind }) {
  const id = (n: string) => `import-${kind}-${n}`;
  const chunking = (hint: string) => (
    <InputField label="Chunking" id={id("chunking")} name="chunking" hint={hint} maxLength={64} />
  );
  switch (kind) {
    case "chunks":
      return chunking("Name of the chunking these chunks belong to (default: default)");
    case "transcript":
      return (
        <>
          {chunking("e.g. c20o5; created with these sizes when new (default: default)")}
          <InputField label="Video id" id={id("video")} name="video" required />
          <InputField
            label="Chunk seconds"
            id={id("chunkSeconds")}
            name="chunkSeconds"
            hint="e.g. 60; or chunk by words"
            type="number"
            min={1}
            step="any"
          />
          <InputField
            label="Overlap seconds"
            id={id("overlapSeconds")}
            name="overlapSeconds"
            type="number"
            min={0}
            step="any"
          />
          <InputField label="Chunk words" id={id("chunkWords")} name="chunkWords" type="number" min={1} />
          <InputField label="Overlap words" id={id("overlapWords")} name="overlapWords" type="number" min={0} />
        </>
      );
    case "run":
      return (
        <>
          <InputField label="System name" id={id("system")} name="system" required />
          <InputField label="Description" id={id("description")} name="description" />
          {chunking("Only when the run's chunk ids exist in several chunkings (default: recognised)")}
        </>
      );
    case "labels":
      return (
        <InputField label="Source" id={id("source")} name="source" hint="Where these human labels come from" required />
      );
    case "judge":
      return <InputField label="Judge name" id={id("judge")} name="judge" required />;
    case "answers":
      return (
        <>
          <InputField
            label="System name"
            id={id("system")}
            name="system"
            hint="The generator configuration that wrote these answers"
            required
          />
          {chunking("Only when the chunk ids exist in several chunkings (default: recognised)")}
          <label className="flex items-center gap-2 text-sm sm:col-span-2">
            <input type="checkbox" name="replace" value="on" /> Replace changed answers (their claims start a new
            version)
          </label>
          <label className="flex items-center gap-2 text-sm sm:col-span-2">
            <input type="checkbox" name="force" value="on" /> Also replace answers that have human labels (removes those
            labels)
          </label>
        </>
      );
    default:
      return null;
  }
}

type TImportSummary = {
  file: string;
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  released?: number;
  chunkIds?: string[];
  warnings?: { line?: number; field?: string; message: string }[];
};

function summarize(result: unknown): string {
  const r = result as Partial<TImportSummary> | null;
  if (!r || typeof r.rows !== "number") return "Imported.";
  const chunks = r.chunkIds
    ? ` Chunk ids: ${r.chunkIds.length > 6 ? `${r.chunkIds.slice(0, 3).join(", ")} … ${r.chunkIds.slice(-2).join(", ")}` : r.chunkIds.join(", ")}.`
    : "";
  const w = r.warnings ?? [];
  const warned = w.length
    ? ` Warning${w.length === 1 ? "" : "s"}: ${w.map((x) => `${x.line !== undefined ? `line ${x.line}` : ""}${x.field ? ` (${x.field})` : ""}: ${x.message}`).join("; ")}.`
    : "";
  return `Imported ${r.file}: ${r.rows} rows (${r.created ?? 0} new, ${r.updated ?? 0} updated, ${r.unchanged ?? 0} unchanged).${r.released ? ` ${r.released} pooled item(s) left the annotation queue (assignments released).` : ""}${chunks}${warned}`;
}

function ImportForm({ projectId, kind, onDone }: { projectId: number; kind: TImportKind; onDone: () => void }) {
  const fileRef = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [result, setResult] = useState<string | null>(null);
  const label = IMPORT_LABELS[kind];

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const file = fileRef.current?.files?.[0];
    // Said in the form (an upload without a file said nothing).
    if (!file) {
      setResult(null);
      setError(
        new Error(`Choose a ${label.title.toLowerCase()} file first: no file is chosen, so nothing was uploaded.`),
      );
      fileRef.current?.focus();
      return;
    }
    const params = new URLSearchParams({ name: file.name });
    for (const [k, v] of new FormData(e.currentTarget).entries())
      if (k !== "file" && typeof v === "string" && v.trim() !== "") params.set(k, v.trim());
    setError(null);
    setResult(null);
    setProgress(0);
    try {
      const r = await upload(`/api/lead/projects/${projectId}/imports/${kind}?${params}`, file, setProgress);
      setResult(summarize(r));
      onDone();
    } catch (err) {
      setError(err);
    } finally {
      setProgress(null);
    }
  }

  return (
    <form
      onSubmit={onSubmit}
      aria-label={`Import ${label.title.toLowerCase()}`}
      className="rounded-md border border-slate-200 p-4"
    >
      <h3 className="font-medium">{label.title}</h3>
      <p className="text-xs text-slate-500">{label.help}</p>
      <div className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2">
        <Field label={`${label.title} file`} htmlFor={`import-${kind}-file`}>
          <input
            ref={fileRef}
            id={`import-${kind}-file`}
            name="file"
            type="file"
            aria-required="true"
            className="block w-full text-sm"
          />
        </Field>
        <OptionInputs kind={kind} />
      </div>
      <div className="mt-3 flex items-center gap-3">
        <Button type="submit" disabled={progress !== null}>
          Upload {label.title.toLowerCase()}
        </Button>
        {progress !== null ? (
          <div className="flex flex-1 items-center gap-2">
            <progress
              aria-label={`Uploading ${label.title.toLowerCase()}`}
              max={1}
              value={progress}
              className="h-2 flex-1"
            />
            <span className="text-xs text-slate-600">
              {progress < 1 ? `${Math.round(progress * 100)}%` : "validating…"}
            </span>
          </div>
        ) : null}
      </div>
      <ErrorBox error={error} />
      {result ? <Success>{result}</Success> : null}
    </form>
  );
}

export function ImportPanel({ projectId }: { projectId: number }) {
  const invalidate = useInvalidateProject(projectId);
  return (
    <Section
      title="Imports"
      id="imports"
      description="The same validators as the CLI: a file with any error is rejected whole, and every error names its line."
    >
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        {IMPORT_KINDS.map((kind) => (
          <ImportForm key={kind} projectId={projectId} kind={kind} onDone={() => void invalidate()} />
        ))}
      </div>
    </Section>
  );
}
