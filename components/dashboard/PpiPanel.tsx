"use client";

import { useDeferredValue } from "react";
import type { TPpiCell, TPpiTable } from "@/lib/stats/ppi-table";
import type { TEstimate, TPpiWarning } from "@/lib/stats/ppi";
import { usePpi, type TDashboardFilters } from "@/lib/query/dashboard";
import { NO_BASIS_TEXT } from "@/lib/stats/sample-size";
import { DataTable, fmt, runColumn, type TColumnDef } from "./DataTable";
import { Card, PanelState } from "./ui";

type TRow = TPpiTable["rows"][number];
type TAdvice = TPpiTable["advisor"][number];

const WARNINGS: Record<TPpiWarning, string> = {
  few_labelled:
    "fewer than 10 complete questions: the intervals rest on a normal approximation with few questions; sample whole questions for calibration",
  judge_adds_nothing: "λ near 0: the judge adds (almost) nothing, the PPI interval is the human-only one",
  all_labelled: "every question is human-labelled: PPI is the human-only estimate",
  too_few_labelled: "only one complete question: no interval yet",
  no_labelled: "no complete question",
};

/** A number of questions: a whole number (the design rounds up), "no basis" (lib/stats/sample-size.ts TNoBasis), or – when it cannot be computed. */
const questions = (a: TAdvice, n: number | null) =>
  a.noBasis ? (
    <span title={NO_BASIS_TEXT[a.noBasis]} data-no-basis={a.noBasis}>
      no basis
    </span>
  ) : n === null || !Number.isFinite(n) ? (
    "–"
  ) : (
    Math.ceil(n).toLocaleString("en")
  );
const interval = (e: TEstimate | null) => (e ? `[${e.low.toFixed(3)}, ${e.high.toFixed(3)}]` : "");

function Cell({ cell, baseline }: { cell: TPpiCell; baseline: string | null }) {
  const m = cell.mean;
  const sig = cell.diff?.p !== null && cell.diff?.p !== undefined && cell.diff.p < 0.05;
  return (
    <span data-ppi-cell>
      <strong>{m.ppi ? fmt(m.ppi.estimate) : fmt(m.pointOnly)}</strong>
      <span className="block text-[10px] text-slate-700">PPI {interval(m.ppi)}</span>
      <span className="block text-[10px] text-slate-500">
        human {fmt(m.human?.estimate)} {interval(m.human)}
      </span>
      <span className="block text-[10px] text-slate-500">
        judge {fmt(m.judge?.estimate)} {interval(m.judge)}
      </span>
      <span className="block text-[10px] text-slate-500">λ {m.lambda === null ? "–" : m.lambda.toFixed(2)}</span>
      {cell.narrowerBy !== null ? (
        <span className={`block text-[10px] ${cell.narrowerBy > 0 ? "text-green-800" : "text-slate-500"}`}>
          {Math.round(Math.abs(cell.narrowerBy) * 100)}% {cell.narrowerBy >= 0 ? "narrower" : "wider"} than human-only
        </span>
      ) : null}
      {cell.diff?.ppi ? (
        <span
          className={`block text-[10px] ${sig ? "font-semibold text-indigo-700" : "text-slate-600"}`}
          title={`PPI paired difference vs ${baseline}, z test`}
        >
          Δ {cell.diff.ppi.estimate >= 0 ? "+" : ""}
          {cell.diff.ppi.estimate.toFixed(3)} p={fmt(cell.diff.p)}
          {sig ? " *" : ""}
        </span>
      ) : null}
    </span>
  );
}

/** One of the advisor's targets in (0, 1], sent when the field is left (empty: the default). */
function AdvisorInput({
  label,
  name,
  value,
  onAdvisor,
}: {
  label: string;
  name: "delta" | "halfWidth";
  value: number;
  onAdvisor: (changes: { delta?: string; halfWidth?: string }) => void;
}) {
  return (
    <label className="text-xs text-slate-600">
      {label}
      <input
        name={name}
        type="number"
        step="0.01"
        min="0.001"
        max="1"
        defaultValue={value}
        className="mt-0.5 block w-24 rounded border border-slate-300 px-2 py-1 text-sm"
        onBlur={(e) => onAdvisor({ [name]: e.target.value || undefined })}
      />
    </label>
  );
}

function columnsFor(t: TPpiTable, baseline: string | null): TColumnDef<TRow>[] {
  const cols: TColumnDef<TRow>[] = [runColumn(baseline)];
  t.columns.forEach((c, i) => {
    cols.push({
      key: c.id,
      header: c.label,
      value: (r) => r.cells[i].mean.ppi?.estimate ?? null,
      render: (r) => <Cell cell={r.cells[i]} baseline={baseline} />,
    });
    for (const [k, pick] of [
      ["ppi", (r: TRow) => r.cells[i].mean.ppi],
      ["human", (r: TRow) => r.cells[i].mean.human],
      ["judge", (r: TRow) => r.cells[i].mean.judge],
    ] as const) {
      cols.push({
        key: `${c.id}_${k}_low`,
        header: `${c.label} ${k} low`,
        value: (r) => pick(r)?.low ?? null,
        render: () => null,
      });
      cols.push({
        key: `${c.id}_${k}_high`,
        header: `${c.label} ${k} high`,
        value: (r) => pick(r)?.high ?? null,
        render: () => null,
      });
    }
    cols.push({
      key: `${c.id}_lambda`,
      header: `${c.label} lambda`,
      value: (r) => r.cells[i].mean.lambda,
      render: () => null,
    });
    cols.push({
      key: `${c.id}_p`,
      header: `${c.label} p vs baseline (PPI)`,
      value: (r) => r.cells[i].diff?.p ?? null,
      render: () => null,
    });
  });
  return cols;
}

const adviceColumns = (t: TPpiTable): TColumnDef<TAdvice>[] => [
  { key: "label", header: "Measure", value: (a) => a.label },
  { key: "system", header: "Run", value: (a) => a.system },
  {
    key: "difference",
    header: "Δ (PPI)",
    value: (a) => a.difference,
    render: (a) => (
      <>
        {fmt(a.difference)}{" "}
        <span className="text-xs text-slate-500">
          {a.low === null ? "" : `[${a.low.toFixed(3)}, ${(a.high ?? 0).toFixed(3)}]`}
        </span>
      </>
    ),
  },
  { key: "sd", header: "sd of differences", value: (a) => a.sd, render: (a) => `${fmt(a.sd)} (${a.sdSource})` },
  {
    key: "toDetect",
    header: `questions to detect ${t.delta}`,
    value: (a) => (a.noBasis ? "no basis" : a.toDetect),
    render: (a) => questions(a, a.toDetect),
  },
  {
    key: "forHalfWidth",
    header: `questions for ±${t.halfWidth}`,
    value: (a) => (a.noBasis ? "no basis" : a.forHalfWidth),
    render: (a) => questions(a, a.forHalfWidth),
  },
];

/** The best width saving of the panel, for the headline ("the PPI interval is 38% narrower than human-only"). */
function headline(t: TPpiTable): string | null {
  const cells = t.rows.flatMap((r) => r.cells).filter((c) => c.narrowerBy !== null);
  if (!cells.length) return null;
  const mean = cells.reduce((s, c) => s + (c.narrowerBy ?? 0), 0) / cells.length;
  return `On average the PPI interval is ${Math.round(Math.abs(mean) * 100)}% ${mean >= 0 ? "narrower" : "wider"} than human-only (${t.labelled} complete of ${t.questions} questions).`;
}

export function PpiPanel({
  projectId,
  filters,
  onAdvisor,
}: {
  projectId: number;
  filters: TDashboardFilters;
  onAdvisor: (changes: { delta?: string; halfWidth?: string }) => void;
}) {
  const q = usePpi(projectId, filters);
  // Below the fold with ~2,700 elements: rendered at low priority (interruptible), so that the
  // panels arriving at the same time (systems, breakdowns) are not kept waiting behind it.
  const d = useDeferredValue(q.data);
  const t = d?.table ?? null;
  const warnings = t ? [...new Set(t.rows.flatMap((r) => r.cells.flatMap((c) => c.mean.warnings)))] : [];
  return (
    <Card
      title="Systems: judge + human (PPI)"
      id="ppi"
      description="Label source judge + human (PPI): the judge's labels on every question, corrected by the human labels of the completely labelled questions (prediction-powered inference, PPI++). Each cell: the PPI estimate and 95% interval beside the human-only and judge-only ones (intervals clipped to the measure's range 0–1), λ (how much the judge is trusted), and the PPI paired difference from the baseline (* p < 0.05)."
    >
      <PanelState
        isPending={q.isPending || (d === undefined && q.data !== undefined)}
        error={q.error}
        empty={d?.empty}
      />
      {t ? (
        <div className="space-y-4">
          {headline(t) ? (
            <p className="text-sm" data-stat="ppi-headline">
              {headline(t)}
            </p>
          ) : null}
          {warnings.map((w) => (
            <p
              key={w}
              className="rounded-md border border-amber-200 bg-amber-50 p-2 text-xs text-amber-900"
              data-warning={w}
            >
              {WARNINGS[w]}
            </p>
          ))}
          <div className="overflow-x-auto">
            <DataTable
              id="systems-ppi"
              caption="systems (judge + human, PPI)"
              columns={columnsFor(t, d?.baseline ?? null).filter((c) => !/_(low|high|p|lambda)$/.test(c.key))}
              csvColumns={columnsFor(t, d?.baseline ?? null)}
              rows={t.rows}
              csvName="systems-ppi.csv"
            />
          </div>
          {t.advisor.length ? (
            <div className="space-y-2">
              <h3 className="text-sm font-semibold">
                Queries needed (paired t-test, α = 0.05, power 0.8; Sakai&apos;s topic-set-size design)
              </h3>
              <form className="flex gap-3" onSubmit={(e) => e.preventDefault()}>
                <AdvisorInput label="Difference to detect" name="delta" value={t.delta} onAdvisor={onAdvisor} />
                <AdvisorInput label="Interval half-width" name="halfWidth" value={t.halfWidth} onAdvisor={onAdvisor} />
              </form>
              <DataTable
                id="ppi-advisor"
                caption="queries needed"
                columns={adviceColumns(t)}
                rows={t.advisor}
                csvName="queries-needed.csv"
              />
            </div>
          ) : null}
        </div>
      ) : null}
    </Card>
  );
}
