"use client";

import { useState } from "react";
import type { TSystemsTable } from "@/lib/dashboard/systems";
import { useSystems, type TDashboardFilters } from "@/lib/query/dashboard";
import { CiBars } from "./AgreementCharts";
import { DataTable, fmt, runColumn, type TColumnDef } from "./DataTable";
import { Card, PanelState } from "./ui";

type TRow = TSystemsTable["rows"][number];

/** Columns in seconds (one decimal; the chart's axis is not [0, 1]). */
const SECONDS_COLUMNS = new Set(["start_error", "time_start_error", "seconds_read_10"]);

function columnsFor(t: TSystemsTable): TColumnDef<TRow>[] {
  const cols: TColumnDef<TRow>[] = [runColumn(t.baseline)];
  t.columns.forEach((c, i) => {
    const digits = SECONDS_COLUMNS.has(c.id) ? 1 : 3;
    cols.push({
      key: c.id,
      header: c.label,
      title: c.lowerIsBetter ? "lower is better" : undefined,
      value: (r) => r.cells[i].mean,
      render: (r) => {
        const cell = r.cells[i];
        const sig = cell.test && cell.test.p < 0.05;
        return (
          <span
            title={
              cell.test
                ? `vs ${t.baseline}: Δ ${cell.test.meanDiff.toFixed(3)}, p = ${cell.test.p.toFixed(4)} (paired randomization)`
                : undefined
            }
          >
            {fmt(cell.mean, digits)}
            {cell.ci ? (
              <span className="block text-[10px] text-slate-500">
                [{cell.ci.low.toFixed(digits)}, {cell.ci.high.toFixed(digits)}]
              </span>
            ) : null}
            {cell.test ? (
              <span className={`block text-[10px] ${sig ? "font-semibold text-indigo-700" : "text-slate-600"}`}>
                p={cell.test.p.toFixed(3)}
                {sig ? " *" : ""}
              </span>
            ) : null}
          </span>
        );
      },
    });
    cols.push({
      key: `${c.id}_low`,
      header: `${c.label} CI low`,
      value: (r) => r.cells[i].ci?.low ?? null,
      render: () => null,
    });
    cols.push({
      key: `${c.id}_high`,
      header: `${c.label} CI high`,
      value: (r) => r.cells[i].ci?.high ?? null,
      render: () => null,
    });
    cols.push({
      key: `${c.id}_p`,
      header: `${c.label} p vs baseline`,
      value: (r) => r.cells[i].test?.p ?? null,
      render: () => null,
    });
  });
  return cols;
}

function SystemsTable({ t, tag }: { t: TSystemsTable; tag: string | undefined }) {
  const all = columnsFor(t);
  // CI bounds and p-values go to the CSV as columns of their own; on screen they sit in the measure's cell.
  const visible = all.filter((c) => !/_(low|high|p)$/.test(c.key));
  const [chartCol, setChartCol] = useState(t.columns.findIndex((c) => c.id === "ndcg_cut_10"));
  const title = t.source === "human" ? "Human reference labels" : `Judge ${t.judge ?? ""}`;
  if (t.empty) return <PanelState empty={t.empty} />;
  const col = t.columns[chartCol] ?? t.columns[0];
  return (
    <div className="space-y-2" data-source={t.source}>
      <h3 className="text-sm font-semibold">
        {title}{" "}
        <span className="font-normal text-slate-600">
          · {t.queries} queries{tag ? ` tagged ${tag} (slice)` : ""}
        </span>
      </h3>
      <div className="overflow-x-auto">
        <DataTable
          id={`systems-${t.source}`}
          caption={`systems (${t.source})`}
          columns={visible}
          csvColumns={all}
          rows={t.rows}
          csvName={`systems-${t.source}.csv`}
        />
      </div>
      <label className="text-xs text-slate-600">
        Chart:{" "}
        <select
          className="rounded border border-slate-300 px-1 text-xs"
          value={chartCol}
          onChange={(e) => setChartCol(Number(e.target.value))}
        >
          {t.columns.map((c, i) => (
            <option key={c.id} value={i}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      <CiBars
        items={t.rows.map((r) => ({
          name: r.system,
          value: r.cells[chartCol]?.mean ?? null,
          ci: r.cells[chartCol]?.ci ?? null,
        }))}
        domain={
          col?.id === "start_error" || col?.id === "time_start_error"
            ? [0, 150]
            : col?.id === "seconds_read_10"
              ? [0, Math.max(1, ...t.rows.map((r) => r.cells[chartCol]?.ci?.high ?? r.cells[chartCol]?.mean ?? 0))]
              : [0, 1]
        }
      />
    </div>
  );
}

export function SystemsPanel({ projectId, filters }: { projectId: number; filters: TDashboardFilters }) {
  const q = useSystems(projectId, filters);
  const d = q.data;
  return (
    <Card
      title="Systems"
      id="systems"
      description="Mean over the queries the label source judges (a run that does not answer a query scores 0 there). Below each mean: 95% bootstrap interval over queries, and the p-value of a paired randomization test against the baseline (* p < 0.05). nDCG uses the grades themselves, so it has no ≥2 variant; start error is in seconds (capped at 150), over queries with a reference start. Time measures (comparable across chunkings): span recall@k, share of questions whose answer place the top-k chunks cover (±5 s); time-IoU@10; seconds of transcript read@10; start error from chunk times against the nearest answer place."
    >
      <PanelState isPending={q.isPending} error={q.error} />
      {d ? (
        <div className="space-y-6">
          {d.tau ? (
            <div>
              <h3 className="text-sm font-semibold">
                Would the judge change the conclusion? Kendall&apos;s τ between the system orderings
              </h3>
              <DataTable
                id="tau-table"
                caption="Kendall's tau"
                columns={[
                  { key: "label", header: "Measure", value: (r) => r.label },
                  {
                    key: "tau",
                    header: "τ (human vs judge)",
                    value: (r) => r.tau,
                    render: (r) =>
                      r.tau === null ? <span className="text-slate-500">undefined: {r.reason}</span> : r.tau.toFixed(3),
                  },
                ]}
                rows={d.tau}
                csvName="kendall-tau.csv"
              />
            </div>
          ) : null}
          {d.tables.map((t) => (
            <SystemsTable key={t.source} t={t} tag={filters.tag} />
          ))}
        </div>
      ) : null}
    </Card>
  );
}
