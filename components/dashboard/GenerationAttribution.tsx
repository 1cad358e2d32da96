"use client";

/** The Generation panel's attribution part: per source, the 2×2 tables and the scatter of faithfulness. */
import { Scatter, ZAxis } from "recharts";
import { ScatterFrame } from "./ScatterFrame";
import type { TAttribution, TGenerationPanel } from "@/lib/dashboard/generation";
import type { TAttributionTable } from "@/lib/stats/generation";
import { PanelState } from "./ui";
import { ScrollRegion } from "@/components/shell/ScrollRegion";

import { CELL_TEXT, COLORS } from "./generation-format";

function TwoByTwo({ t, label }: { t: TAttributionTable; label: string }) {
  const cell = (k: keyof typeof CELL_TEXT) => (
    <td className="border border-slate-200 p-2 align-top" data-cell={k}>
      <span className="block text-xs text-slate-600">{CELL_TEXT[k]}</span>
      <span className="text-lg font-semibold" data-count>
        {t.counts[k]}
      </span>
      {t.examples[k].length ? (
        <span className="block text-[10px] text-slate-500">e.g. {t.examples[k].join(", ")}</span>
      ) : null}
    </td>
  );
  return (
    <table
      className="text-sm"
      aria-label={`failure attribution, relevant chunk = grade ≥ ${t.minGrade}`}
      data-testid={`attribution-${t.minGrade}`}
    >
      <caption className="text-left text-xs font-semibold">{label}</caption>
      <thead>
        <tr>
          <th>
            <span className="sr-only">context</span>
          </th>
          <th className="px-2 text-xs font-normal text-slate-600">answer not good</th>
          <th className="px-2 text-xs font-normal text-slate-600">good answer</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th className="px-2 text-left text-xs font-normal text-slate-600">no relevant chunk in the context</th>
          {cell("retrieval_failed")}
          {cell("good_without_evidence")}
        </tr>
        <tr>
          <th className="px-2 text-left text-xs font-normal text-slate-600">
            relevant chunk (grade ≥ {t.minGrade}) in the context
          </th>
          {cell("generator_failed")}
          {cell("fine")}
        </tr>
      </tbody>
    </table>
  );
}

export function Attribution({ p, a }: { p: TGenerationPanel; a: TAttribution }) {
  const all = a.tables[0];
  const systems = [...new Set(a.points.map((x) => x.system))];
  return (
    <div className="space-y-3" data-testid="generation-attribution">
      <p className="text-xs text-slate-600">
        Per question × system, from the {a.source === "human" ? "final human labels" : `labels of judge ${a.judge}`} of
        the answer and the reference labels of its context chunks; {p.goodAnswer}. {a.excluded} answer(s) left out (no
        label or no claims).
      </p>
      <ScrollRegion label="Failure attribution, all systems" className="flex flex-wrap gap-6">
        <TwoByTwo t={all.atLeast1} label="Relevant = a context chunk graded ≥ 1" />
        <TwoByTwo t={all.atLeast2} label="Relevant = a context chunk graded ≥ 2" />
      </ScrollRegion>
      <ScrollRegion label="Failure attribution per system">
        <table className="text-xs" aria-label="failure attribution per system">
          <thead>
            <tr>
              <th className="px-1 text-left">system</th>
              {(["≥ 1", "≥ 2"] as const).map((g) =>
                (Object.keys(CELL_TEXT) as (keyof typeof CELL_TEXT)[]).map((k) => (
                  <th key={`${g}${k}`} className="px-2">
                    {CELL_TEXT[k]} ({g})
                  </th>
                )),
              )}
            </tr>
          </thead>
          <tbody>
            {a.tables.slice(1).map((t) => (
              <tr key={t.system}>
                <th className="px-1 text-left font-normal">{t.system}</th>
                {[t.atLeast1, t.atLeast2].map((x, i) =>
                  (Object.keys(CELL_TEXT) as (keyof typeof CELL_TEXT)[]).map((k) => (
                    <td key={`${i}${k}`} className="px-2 text-center">
                      {x.counts[k]}
                    </td>
                  )),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <h3 className="text-sm font-semibold">Retrieval nDCG@10 of the context against faithfulness, per question</h3>
      {a.points.length === 0 ? (
        <PanelState empty="no answer has both a faithfulness and a context nDCG (the question needs a reference label above 0)" />
      ) : (
        <ScrollRegion label="Chart: context nDCG@10 against faithfulness" testId="generation-scatter">
          <ScatterFrame
            width={520}
            x={{ key: "ndcg", name: "nDCG@10", title: "context nDCG@10", domain: [0, 1] }}
            y={{ key: "faithfulness", name: "Faithfulness" }}
            extra={<ZAxis type="category" dataKey="qid" name="Question" />}
          >
            {systems.map((s, i) => (
              <Scatter
                key={s}
                name={s}
                data={a.points.filter((x) => x.system === s)}
                fill={COLORS[i % COLORS.length]}
                isAnimationActive={false}
              />
            ))}
          </ScatterFrame>
        </ScrollRegion>
      )}
    </div>
  );
}
