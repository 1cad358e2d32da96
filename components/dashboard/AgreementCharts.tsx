"use client";

import { safeCsv } from "@/lib/formats/csv-write";
import { Bar, BarChart, CartesianGrid, ErrorBar, Legend, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import { niceScale } from "@/lib/dashboard/ticks";
import type { AgreementReport } from "@/lib/stats/agreement/report";
import { CsvButton } from "./DataTable";
import { ScrollRegion } from "@/components/shell/ScrollRegion";

/** The confusion matrix as CSV: a header of the other rater's grades, one row per human grade. */
export function confusionCsv(confusion: number[][], otherLabel: string): string {
  return safeCsv([
    [`human grade (rows) / ${otherLabel} grade (columns)`, ...confusion.map((_, g) => String(g))],
    ...confusion.map((row, g) => [String(g), ...row]),
  ]);
}

/**
 * A bar of value 0 is drawn as a 2 px stub on the zero line (recharts draws nothing for it, which
 * reads as a missing value); a missing value (null) stays undrawn.
 */
const zeroStub = (v: number | null | undefined) => (v === null || v === undefined ? 0 : 2);

/**
 * Confusion matrix as a heatmap: rows the human grade, columns the other rater's; shade ∝ share of the row
 * (said in the caption). The shade stops at 70% opacity so the dark count keeps a contrast of at least 5:1 (WCAG AA 4.5:1).
 */
export function ConfusionHeatmap({
  confusion,
  otherLabel,
  csvName,
}: {
  confusion: number[][];
  otherLabel: string;
  csvName: string;
}) {
  return (
    <div>
      <table className="text-center text-xs" data-testid="confusion">
        <caption
          className="caption-bottom max-w-56 pt-1 text-left text-[11px] text-slate-600"
          data-testid="confusion-caption"
        >
          Confusion matrix: rows human grade, columns {otherLabel} grade; cells are counts, shaded by their share of the
          row (each human grade&apos;s row is 100%).
        </caption>
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
                    <td
                      key={c}
                      className="h-9 w-10 border border-white tabular-nums"
                      style={{
                        background: `rgba(${r === c ? "79,70,229" : "220,38,38"},${(0.08 + 0.62 * share).toFixed(3)})`,
                        color: "#0f172a",
                      }}
                      title={`human ${r}, ${otherLabel} ${c}: ${v}`}
                    >
                      {v}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
      <CsvButton
        name={csvName}
        csv={() => confusionCsv(confusion, otherLabel)}
        what="confusion matrix"
        spacing="mt-1"
      />
    </div>
  );
}

/**
 * The grid's vertical lines, which these charts do not draw (`vertical={false}`): recharts would
 * still place them, measuring every x tick label in the page (a forced layout each) to do so.
 */
const noVerticalLines = (): number[] => [];

/** Per-grade precision and recall (human as truth). */
export function PerGradeBars({ perGrade }: { perGrade: AgreementReport["per_grade"] }) {
  const data = ["0", "1", "2", "3"].map((g) => ({
    grade: `grade ${g}`,
    precision: perGrade[g]?.precision ?? null,
    recall: perGrade[g]?.recall ?? null,
  }));
  const { domain, ticks } = niceScale(0, 1);
  return (
    <ScrollRegion label="Chart: precision and recall per grade" testId="per-grade-chart">
      <BarChart width={320} height={180} data={data} margin={{ top: 8, right: 8, bottom: 0, left: -20 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} verticalCoordinatesGenerator={noVerticalLines} />
        <XAxis dataKey="grade" fontSize={11} />
        <YAxis domain={domain} ticks={ticks} interval={0} fontSize={11} />
        <ReferenceLine y={0} stroke="#475569" />
        <Tooltip formatter={(v) => (typeof v === "number" ? v.toFixed(3) : String(v))} />
        <Legend wrapperStyle={{ fontSize: 11 }} />
        <Bar dataKey="precision" fill="#6366f1" isAnimationActive={false} minPointSize={zeroStub} />
        <Bar dataKey="recall" fill="#14b8a6" isAnimationActive={false} minPointSize={zeroStub} />
      </BarChart>
    </ScrollRegion>
  );
}

/**
 * Width of one bar's slot: 70 px, or wider so that the longest name (11 px text, under 7 px a
 * character) fits with a gap: "hybrid-rrf" and "hybrid-rrf@c40o0" ran into each other at 70 px.
 */
export function barSlot(names: readonly string[]): number {
  return Math.max(70, 7 * Math.max(0, ...names.map((n) => n.length)) + 12);
}

/**
 * Point estimates with their 95% bootstrap intervals as error bars. Drawn without animation, as the
 * bars: recharts animates every whisker line of an ErrorBar on its own requestAnimationFrame loop
 * (3 lines a bar), which on the dashboard's 20-run systems charts kept the main thread busy while
 * the other panels were rendering.
 */
export function CiBars({
  items,
  domain = [-0.2, 1],
}: {
  items: { name: string; value: number | null; ci: { low: number; high: number } | null }[];
  domain?: [number, number];
}) {
  const data = items.map((i) => ({
    name: i.name,
    value: i.value,
    err: i.ci && i.value !== null ? [i.value - i.ci.low, i.ci.high - i.value] : [0, 0],
  }));
  const scale = niceScale(domain[0], domain[1]);
  return (
    <ScrollRegion label="Chart: estimates with 95% intervals" testId="ci-chart">
      <BarChart
        width={Math.max(240, barSlot(items.map((i) => i.name)) * items.length)}
        height={180}
        data={data}
        margin={{ top: 8, right: 8, bottom: 0, left: -20 }}
      >
        <CartesianGrid strokeDasharray="3 3" vertical={false} verticalCoordinatesGenerator={noVerticalLines} />
        <XAxis dataKey="name" fontSize={11} interval={0} />
        <YAxis domain={scale.domain} ticks={scale.ticks} interval={0} fontSize={11} />
        <ReferenceLine y={0} stroke="#475569" />
        <Tooltip formatter={(v) => (typeof v === "number" ? v.toFixed(3) : String(v))} />
        <Bar dataKey="value" fill="#818cf8" isAnimationActive={false} minPointSize={zeroStub}>
          <ErrorBar dataKey="err" width={6} stroke="#1e293b" direction="y" isAnimationActive={false} />
        </Bar>
      </BarChart>
    </ScrollRegion>
  );
}
