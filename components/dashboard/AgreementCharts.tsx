"use client";

import { safeCsv } from "@/lib/formats/csv-write";
import { Bar, BarChart, CartesianGrid, ErrorBar, Legend, Tooltip, XAxis, YAxis } from "recharts";
import type { AgreementReport } from "@/lib/stats/agreement/report";
import { downloadCsv } from "./DataTable";

/** The confusion matrix as CSV: a header of the other rater's grades, one row per human grade. */
export function confusionCsv(confusion: number[][], otherLabel: string): string {
  return safeCsv([[`human grade (rows) / ${otherLabel} grade (columns)`, ...confusion.map((_, g) => String(g))], ...confusion.map((row, g) => [String(g), ...row])]);
}

/**
 * Confusion matrix as a heatmap: rows the human grade, columns the other rater's; shade ∝ share of the row.
 * The shade stops at 70% opacity so the dark count keeps a contrast of at least 5:1 (WCAG AA 4.5:1).
 */
export function ConfusionHeatmap({ confusion, otherLabel, csvName }: { confusion: number[][]; otherLabel: string; csvName: string }) {
  return (
    <div>
      <table className="text-center text-xs" aria-label={`Confusion matrix, rows human grade, columns ${otherLabel} grade`} data-testid="confusion">
        <thead>
          <tr>
            <th className="p-1 text-slate-500">human ↓ / {otherLabel} →</th>
            {[0, 1, 2, 3].map((g) => (
              <th key={g} className="w-10 p-1 text-slate-500">
                {g}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {confusion.map((row, r) => {
            const total = row.reduce((s, x) => s + x, 0) || 1;
            return (
              <tr key={r}>
                <th className="p-1 text-slate-500">{r}</th>
                {row.map((v, c) => {
                  const share = v / total;
                  return (
                    <td key={c} className="h-9 w-10 border border-white tabular-nums" style={{ background: `rgba(${r === c ? "79,70,229" : "220,38,38"},${(0.08 + 0.62 * share).toFixed(3)})`, color: "#0f172a" }} title={`human ${r}, ${otherLabel} ${c}: ${v}`}>
                      {v}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
      <button type="button" className="mt-1 text-xs text-indigo-700 underline" onClick={() => downloadCsv(csvName, confusionCsv(confusion, otherLabel))}>
        Download CSV (confusion matrix)
      </button>
    </div>
  );
}

/** Per-grade precision and recall (human as truth). */
export function PerGradeBars({ perGrade }: { perGrade: AgreementReport["per_grade"] }) {
  const data = ["0", "1", "2", "3"].map((g) => ({ grade: `grade ${g}`, precision: perGrade[g]?.precision ?? 0, recall: perGrade[g]?.recall ?? 0 }));
  return (
    <BarChart width={320} height={180} data={data} margin={{ top: 8, right: 8, bottom: 0, left: -20 }}>
      <CartesianGrid strokeDasharray="3 3" vertical={false} />
      <XAxis dataKey="grade" fontSize={11} />
      <YAxis domain={[0, 1]} fontSize={11} />
      <Tooltip formatter={(v) => (typeof v === "number" ? v.toFixed(3) : String(v))} />
      <Legend wrapperStyle={{ fontSize: 11 }} />
      <Bar dataKey="precision" fill="#6366f1" isAnimationActive={false} />
      <Bar dataKey="recall" fill="#14b8a6" isAnimationActive={false} />
    </BarChart>
  );
}

/** Point estimates with their 95% bootstrap intervals as error bars. */
export function CiBars({ items, domain = [-0.2, 1] }: { items: { name: string; value: number | null; ci: { low: number; high: number } | null }[]; domain?: [number, number] }) {
  const data = items.map((i) => ({ name: i.name, value: i.value ?? 0, err: i.ci && i.value !== null ? [i.value - i.ci.low, i.ci.high - i.value] : [0, 0] }));
  return (
    <BarChart width={Math.max(240, 70 * items.length)} height={180} data={data} margin={{ top: 8, right: 8, bottom: 0, left: -20 }}>
      <CartesianGrid strokeDasharray="3 3" vertical={false} />
      <XAxis dataKey="name" fontSize={11} interval={0} />
      <YAxis domain={domain} fontSize={11} />
      <Tooltip formatter={(v) => (typeof v === "number" ? v.toFixed(3) : String(v))} />
      <Bar dataKey="value" fill="#818cf8" isAnimationActive={false}>
        <ErrorBar dataKey="err" width={6} stroke="#1e293b" direction="y" />
      </Bar>
    </BarChart>
  );
}
