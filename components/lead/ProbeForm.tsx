"use client";

import { type FormEvent } from "react";
import type { TRunSummary } from "@/lib/query/judge";
import { useStartProbes } from "@/lib/query/probes";
import { Button, ErrorBox, InputField, Success, inputClass } from "./ui";

/**
 * The Judge section's robustness probes (lib/judge/probe): re-ask a finished chunk run's model and
 * template on a stratified sample of human-labelled pairs, one probe run per perturbation, worked
 * by this server; the figures are on the dashboard's Judge robustness card.
 */
export function ProbeForm({ projectId, runs }: { projectId: number; runs: readonly TRunSummary[] }) {
  const start = useStartProbes(projectId);
  const sources = runs.filter(
    (r) =>
      r.target === "chunks" && !r.judge.includes("~probe:") && (r.status === "completed" || r.status === "stopped"),
  );
  if (sources.length === 0) return null;
  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const seed = String(f.get("seed") ?? "").trim();
    start.mutate({
      run: String(f.get("run")),
      sample: Number(f.get("sample")),
      ...(seed ? { seed: Number(seed) } : {}),
    });
  }
  return (
    <form onSubmit={onSubmit} className="mt-5 grid grid-cols-1 gap-3 sm:grid-cols-4" aria-label="Robustness probes">
      <h3 className="text-sm font-medium sm:col-span-4">Robustness probes</h3>
      <p className="text-xs text-slate-600 sm:col-span-4">
        Re-asks a run on human-labelled pairs with an instruction to the assessor injected, the question&apos;s words
        appended, irrelevant transcript appended, the chunk cut in half, before/after swapped and the template
        paraphrased. Results: the dashboard&apos;s Judge robustness card.
      </p>
      <div>
        <label htmlFor="probe-run" className="block text-sm font-medium text-slate-700">
          Run
        </label>
        <select id="probe-run" name="run" className={`mt-1 ${inputClass}`}>
          {sources.map((r) => (
            <option key={r.id} value={String(r.id)}>
              {r.judge} (run {r.id})
            </option>
          ))}
        </select>
      </div>
      <InputField
        label="Sample size"
        id="probe-sample"
        name="sample"
        type="number"
        min={1}
        defaultValue={100}
        required
      />
      <InputField label="Seed" id="probe-seed" name="seed" type="number" min={0} defaultValue={1} />
      <div className="flex items-end">
        <Button type="submit" disabled={start.isPending}>
          Run probes
        </Button>
      </div>
      <div className="sm:col-span-4">
        <ErrorBox error={start.error} />
        {start.data ? (
          <Success>
            Probing {start.data.source.judge} on {start.data.pairs} pairs:{" "}
            {start.data.runs.map((r) => `${r.kind}${r.created ? "" : " (resumed)"}`).join(", ")}
            {start.data.skipped.length
              ? `; skipped ${start.data.skipped.map((s) => `${s.kind} (${s.reason})`).join(", ")}`
              : ""}
          </Success>
        ) : null}
      </div>
    </form>
  );
}
