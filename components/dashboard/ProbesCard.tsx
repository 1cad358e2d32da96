"use client";

import { ScrollRegion } from "@/components/shell/ScrollRegion";
import { useProbes, type TProbesPanel } from "@/lib/query/probes";
import { Card, PanelState } from "./ui";

const signed = (x: number | null) => (x === null ? "–" : `${x > 0 ? "+" : ""}${x.toFixed(2)}`);
const kappa = (x: number | null) => (x === null ? "–" : x.toFixed(3));

function SourceTable({ s }: { s: TProbesPanel["sources"][number] }) {
  return (
    <div className="mt-2" data-probe-source={s.source}>
      <h3 className="text-sm font-medium">{s.source}</h3>
      <ScrollRegion label={`Robustness probes of ${s.source}`}>
        <table className="w-full text-sm" aria-label={`Robustness probes of ${s.source}`}>
          <thead className="text-left text-xs text-slate-500">
            <tr>
              <th className="pr-2">Perturbation</th>
              <th className="pr-2 text-right">pairs</th>
              <th className="pr-2 text-right">mean shift [95% CI]</th>
              <th className="pr-2 text-right">changed</th>
              <th className="pr-2 text-right">κ before → after</th>
              <th>status</th>
            </tr>
          </thead>
          <tbody>
            {s.rows.map((r) => (
              <tr key={r.kind} className="border-t border-slate-100" data-probe={r.kind}>
                <td className="pr-2">
                  <div>{r.kind}</div>
                  <div className="text-xs text-slate-600">{r.label}</div>
                </td>
                <td className="pr-2 text-right tabular-nums">{r.pairs}</td>
                <td className="pr-2 text-right tabular-nums" data-probe-shift>
                  {signed(r.meanShift)}
                  {r.interval ? (
                    <span className="ml-1 text-xs text-slate-600">
                      [{signed(r.interval.low)}, {signed(r.interval.high)}]
                    </span>
                  ) : null}
                </td>
                <td className="pr-2 text-right tabular-nums" data-probe-changed>
                  {r.changed === null ? "–" : `${(r.changed * 100).toFixed(1)}%`}
                  <span className="ml-1 text-xs text-slate-600">
                    ↑{r.up} ↓{r.down}
                  </span>
                </td>
                <td className="pr-2 text-right tabular-nums">
                  {kappa(r.kappa.linear.before)} → {kappa(r.kappa.linear.after)}
                </td>
                <td className="text-xs">{r.status ?? "imported"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      {s.rows.some((r) => r.worst.length) ? (
        <details className="mt-1 text-xs">
          <summary className="cursor-pointer text-slate-700">Worst examples</summary>
          <ul className="mt-1 space-y-0.5" aria-label={`Worst examples of ${s.source}`}>
            {s.rows.flatMap((r) =>
              r.worst.map((w) => (
                <li key={`${r.kind}/${w.queryId}/${w.chunkId}`} data-worst={r.kind}>
                  {r.kind}: {w.qid} / {w.docid}: {w.before} → {w.after} (people: {w.human})
                </li>
              )),
            )}
          </ul>
        </details>
      ) : null}
    </div>
  );
}

/**
 * Judge robustness (lead only): per probe of a judge run (lib/judge/probe) the mean grade shift
 * (probe − run) with its 95% bootstrap interval over questions, the share of pairs whose grade
 * changed, linear weighted kappa against people before and after, and the worst examples.
 */
export function ProbesCard({ projectId }: { projectId: number }) {
  const q = useProbes(projectId);
  const sources = q.data?.sources ?? [];
  if (!q.isPending && !q.error && sources.length === 0) return null;
  return (
    <Card
      title="Judge robustness"
      id="probes"
      description="Each judge run re-asked on a stratified sample of human-labelled pairs with the chunk changed in controlled ways (LLM judge → Robustness probes). Mean shift: probe grade − the run's grade, with a 95% percentile bootstrap interval over questions; changed: the share of pairs whose grade moved; κ: linear weighted kappa against people with the run's grades and with the probe's. A robust judge moves under truncation, not under injection, keyword stuffing, padding or a paraphrase."
    >
      <PanelState isPending={q.isPending} error={q.error} />
      {sources.map((s) => (
        <SourceTable key={s.source} s={s} />
      ))}
    </Card>
  );
}
