"use client";

import { useState } from "react";
import type { TGenerationPanel, TGenerationTable } from "@/lib/dashboard/generation";
import type { TDashboardFilters } from "@/lib/query/dashboard";
import { useGeneration } from "@/lib/query/generation";
import { DataTable, fmt, type TColumnDef } from "./DataTable";
import { Card, PanelState } from "./ui";
import { JudgeVsHuman } from "./GenerationAgreement";
import { Attribution } from "./GenerationAttribution";

type TRow = TGenerationTable["rows"][number];

function columnsFor(p: TGenerationPanel): { visible: TColumnDef<TRow>[]; csv: TColumnDef<TRow>[] } {
  const head: TColumnDef<TRow>[] = [
    {
      key: "system",
      header: "System",
      value: (r) => r.system,
      render: (r) => (
        <>
          {r.system}
          {r.system === p.baseline ? <span className="ml-1 text-xs text-slate-500">(baseline)</span> : null}
        </>
      ),
    },
    { key: "answers", header: "Labelled answers", value: (r) => r.answers, render: (r) => String(r.answers) },
  ];
  const visible = [...head];
  const csv = [...head];
  p.measures.forEach((m, i) => {
    const d = m.max === 3 ? 2 : 3;
    visible.push({
      key: m.id,
      header: m.label,
      value: (r) => r.cells[i].mean,
      render: (r) => {
        const c = r.cells[i];
        const sig = c.test && c.test.p < 0.05;
        return (
          <span
            data-col={m.id}
            title={
              c.test
                ? `vs ${p.baseline}: Δ ${c.test.meanDiff.toFixed(d)}, p = ${c.test.p.toFixed(4)} (paired randomization on ${c.test.n} questions)`
                : undefined
            }
          >
            <span data-value>{fmt(c.mean, d)}</span> <span className="text-[10px] text-slate-500">n={c.n}</span>
            {c.ci ? (
              <span className="block text-[10px] text-slate-500">
                [{c.ci.low.toFixed(d)}, {c.ci.high.toFixed(d)}]
              </span>
            ) : null}
            {c.test ? (
              <span className={`block text-[10px] ${sig ? "font-semibold text-indigo-700" : "text-slate-600"}`}>
                Δ {c.test.meanDiff >= 0 ? "+" : ""}
                {c.test.meanDiff.toFixed(d)}, p={c.test.p.toFixed(3)}
                {sig ? " *" : ""}
              </span>
            ) : null}
          </span>
        );
      },
    });
    csv.push(
      { key: m.id, header: m.label, value: (r) => r.cells[i].mean },
      { key: `${m.id}_n`, header: `${m.label} n`, value: (r) => r.cells[i].n },
      { key: `${m.id}_low`, header: `${m.label} CI low`, value: (r) => r.cells[i].ci?.low ?? null },
      { key: `${m.id}_high`, header: `${m.label} CI high`, value: (r) => r.cells[i].ci?.high ?? null },
      { key: `${m.id}_diff`, header: `${m.label} Δ vs baseline`, value: (r) => r.cells[i].test?.meanDiff ?? null },
      { key: `${m.id}_p`, header: `${m.label} p vs baseline`, value: (r) => r.cells[i].test?.p ?? null },
    );
  });
  return { visible, csv };
}

function MeansTable({ p, t }: { p: TGenerationPanel; t: TGenerationTable }) {
  const cols = columnsFor(p);
  const title = t.source === "human" ? "Final human labels" : `Judge ${t.judge ?? ""}`;
  return (
    <div className="space-y-1" data-testid={`generation-table-${t.source}`}>
      <h3 className="text-sm font-semibold">
        {title}{" "}
        <span className="font-normal text-slate-500">
          · {t.labelled} labelled answers{t.noClaims ? `, ${t.noClaims} without claims (no faithfulness)` : ""}
        </span>
      </h3>
      {t.empty ? (
        <PanelState empty={t.empty} />
      ) : (
        <div className="overflow-x-auto">
          <DataTable
            id={`generation-${t.source}`}
            caption={`generation (${t.source})`}
            columns={cols.visible}
            csvColumns={cols.csv}
            rows={t.rows}
            csvName={`generation-${t.source}.csv`}
          />
        </div>
      )}
    </div>
  );
}

function Select({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: string[];
  onChange: (v: string) => void;
}) {
  return (
    <label className="text-xs text-slate-700">
      {label}{" "}
      <select
        className="rounded border border-slate-300 px-1 py-0.5"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      >
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The Generation section: answers of generator configurations against people's and the judge's labels. */
export function GenerationPanel({ projectId, filters }: { projectId: number; filters: TDashboardFilters }) {
  const [answerBaseline, setBaseline] = useState<string | undefined>(undefined);
  const [answerJudge, setJudge] = useState<string | undefined>(undefined);
  const [source, setSource] = useState<"human" | "judge">("human");
  const q = useGeneration(projectId, { answerBaseline, answerJudge, gain: filters.gain });
  const p = q.data;
  const attribution = p?.attribution.find((a) => a.source === source) ?? p?.attribution[0];
  return (
    <Card
      title="Generation"
      id="generation"
      description={`Generated answers per system (generator configuration). Faithfulness: the share of an answer's claims the context supports, a partly supported claim counted ${p?.partialWeight ?? 0.5} (TREC RAG 2024's partial score) or 0; x (true per the video, absent from the context) and n count 0; an answer without claims has none. Answer relevance 0–3. Each mean over questions with its 95% bootstrap interval, n, and the difference from the baseline with the p-value of a paired randomization test (* p < 0.05).`}
    >
      <PanelState isPending={q.isPending} error={q.error} empty={p?.empty} />
      {p && !p.empty ? (
        <div className="space-y-4">
          <div className="flex flex-wrap gap-4">
            <Select label="Baseline system" value={p.baseline ?? ""} options={p.systems} onChange={setBaseline} />
            {p.judges.length ? (
              <Select label="Answer judge" value={p.judge ?? ""} options={p.judges} onChange={setJudge} />
            ) : null}
            <span className="text-xs text-slate-500">
              {p.answers} answers · {p.questions} questions · {p.systems.length} systems
            </span>
          </div>
          {p.tables.map((t) => (
            <MeansTable key={t.source} p={p} t={t} />
          ))}
          <JudgeVsHuman p={p} />
          <div className="space-y-2">
            <div className="flex items-center gap-3">
              <h3 className="text-sm font-semibold">Failure attribution: retrieval or generator?</h3>
              {p.attribution.length > 1 ? (
                <Select
                  label="Answer labels"
                  value={source}
                  options={["human", "judge"]}
                  onChange={(v) => setSource(v === "judge" ? "judge" : "human")}
                />
              ) : null}
            </div>
            {attribution ? <Attribution p={p} a={attribution} /> : null}
          </div>
        </div>
      ) : null}
    </Card>
  );
}
