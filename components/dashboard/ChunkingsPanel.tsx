"use client";

import { useDeferredValue } from "react";
import { Scatter, ZAxis } from "recharts";
import { ScatterFrame } from "./ScatterFrame";
import type { TChunkingReport } from "@/lib/dashboard/chunking-report";
import { useChunkingReport, type TDashboardFilters } from "@/lib/query/dashboard";
import { DataTable, fmt, type TColumnDef } from "./DataTable";
import { Card, PanelState } from "./ui";
import { ScrollRegion } from "@/components/shell/ScrollRegion";

type TRow = TChunkingReport["rows"][number];
const COLORS = ["#6366f1", "#14b8a6", "#f59e0b", "#ef4444", "#8b5cf6", "#0ea5e9"];

function columnsFor(r: TChunkingReport): { visible: TColumnDef<TRow>[]; csv: TColumnDef<TRow>[] } {
  const head: TColumnDef<TRow>[] = [
    {
      key: "chunking",
      header: "Chunking",
      value: (row) => row.chunking,
      render: (row) => (
        <>
          {row.chunking}
          {row.chunking === r.baseline ? <span className="ml-1 text-xs text-slate-500">(baseline)</span> : null}
        </>
      ),
    },
    { key: "system", header: "System", value: (row) => row.system },
  ];
  const visible = [...head];
  const csv = [...head];
  r.columns.forEach((c, i) => {
    const d = c.seconds ? 1 : 3;
    visible.push({
      key: c.id,
      header: c.label,
      title: c.lowerIsBetter ? "lower is better" : undefined,
      value: (row) => row.cells[i].mean,
      render: (row) => {
        const cell = row.cells[i];
        const sig = cell.test && cell.test.p < 0.05;
        return (
          <span
            data-col={c.id}
            title={
              cell.test
                ? `vs ${r.baseline}: Δ ${cell.test.meanDiff.toFixed(d)}, p = ${cell.test.p.toFixed(4)} (paired randomization, ${cell.test.n} questions)`
                : undefined
            }
          >
            <span data-value>{fmt(cell.mean, d)}</span>
            {cell.ci ? (
              <span className="block text-[10px] text-slate-500">
                [{cell.ci.low.toFixed(d)}, {cell.ci.high.toFixed(d)}]
              </span>
            ) : null}
            {cell.test ? (
              <span className={`block text-[10px] ${sig ? "font-semibold text-indigo-700" : "text-slate-600"}`}>
                Δ {cell.test.meanDiff >= 0 ? "+" : ""}
                {cell.test.meanDiff.toFixed(d)}, p={cell.test.p.toFixed(3)}
                {sig ? " *" : ""}
              </span>
            ) : null}
            {cell.ppi ? (
              <span className="block text-[10px] text-teal-700">
                PPI {cell.ppi.estimate.toFixed(d)} [{cell.ppi.low.toFixed(d)}, {cell.ppi.high.toFixed(d)}]
              </span>
            ) : null}
          </span>
        );
      },
    });
    csv.push(
      { key: c.id, header: c.label, value: (row) => row.cells[i].mean },
      { key: `${c.id}_low`, header: `${c.label} CI low`, value: (row) => row.cells[i].ci?.low ?? null },
      { key: `${c.id}_high`, header: `${c.label} CI high`, value: (row) => row.cells[i].ci?.high ?? null },
      { key: `${c.id}_diff`, header: `${c.label} Δ vs baseline`, value: (row) => row.cells[i].test?.meanDiff ?? null },
      { key: `${c.id}_p`, header: `${c.label} p vs baseline`, value: (row) => row.cells[i].test?.p ?? null },
    );
  });
  const judge: TColumnDef<TRow> = {
    key: "labels",
    header: "Derived labels",
    value: (row) => (row.transferJudge ? `${row.transferJudge} (${row.audited} audited)` : "human"),
    render: (row) =>
      row.transferJudge ? (
        <span className="text-xs">
          {row.transferJudge}
          <span className="block text-slate-500">{row.audited} audited questions</span>
        </span>
      ) : (
        <span className="text-xs text-slate-500">human</span>
      ),
  };
  return { visible: [...visible, judge], csv: [...csv, judge] };
}

/** Span recall@10 against seconds read@10: one series per chunking, one point per system. */
function TradeOffChart({ r }: { r: TChunkingReport }) {
  const chunkings = [...new Set(r.points.map((p) => p.chunking))];
  return (
    <ScatterFrame
      width={520}
      x={{ key: "secondsRead10", name: "Seconds read@10", title: "seconds read@10", unit: " s" }}
      y={{ key: "spanRecall10", name: "Span recall@10" }}
      extra={<ZAxis type="category" dataKey="system" name="System" />}
    >
      {chunkings.map((c, i) => (
        <Scatter
          key={c}
          name={c}
          data={r.points.filter((p) => p.chunking === c)}
          fill={COLORS[i % COLORS.length]}
          isAnimationActive={false}
        />
      ))}
    </ScatterFrame>
  );
}

export function ChunkingsPanel({ projectId, filters }: { projectId: number; filters: TDashboardFilters }) {
  const q = useChunkingReport(projectId, filters);
  // Below the fold: rendered at low priority (interruptible), as the PPI panel.
  const r = useDeferredValue(q.data);
  const cols = r ? columnsFor(r) : null;
  return (
    <Card
      title="Chunkings"
      id="chunkings"
      description="Each chunking × system on measures that compare across chunkings: span recall@k (share of questions whose answer place the top-k chunks cover, ±5 s), time-IoU@10, seconds of transcript read@10, start error (s, against the nearest answer place), nDCG@10 on human labels where present and the transfer judge's otherwise (PPI where an audit exists), judged@10. Below each mean: 95% bootstrap interval over questions, and the difference from the same system on the baseline chunking with the p-value of a paired randomization test (* p < 0.05)."
    >
      <PanelState
        isPending={q.isPending || (r === undefined && q.data !== undefined)}
        error={q.error}
        empty={r?.empty}
      />
      {r && cols && !r.empty ? (
        <div className="space-y-3">
          <p className="text-xs text-slate-600">
            Baseline: <strong>{r.baseline}</strong> · {r.questions} questions
          </p>
          <div className="overflow-x-auto">
            <DataTable
              id="chunking-table"
              caption="chunking report"
              columns={cols.visible}
              csvColumns={cols.csv}
              rows={r.rows}
              csvName="chunkings.csv"
            />
          </div>
          <h3 className="text-sm font-semibold">Span recall@10 against seconds read@10</h3>
          <div data-testid="chunking-chart">
            <ScrollRegion label="Chart: span recall@10 against seconds read@10">
              <TradeOffChart r={r} />
            </ScrollRegion>
          </div>
        </div>
      ) : null}
    </Card>
  );
}
