"use client";

/** The Generation panel's agreement parts: the judge against people on claims and relevance, and the RAGAS reference. */
import type { TGenerationPanel } from "@/lib/dashboard/generation";
import { fmt } from "./DataTable";
import { PanelState } from "./ui";
import { ScrollRegion } from "@/components/shell/ScrollRegion";

import { LABELS, LABEL_NAMES, pct } from "./generation-format";

export function JudgeVsHuman({ p }: { p: TGenerationPanel }) {
  const c = p.claims;
  if (!c)
    return (
      <PanelState
        empty={
          p.judge
            ? `no answer has both a final human label and a label of judge ${p.judge}`
            : "no judge labels of answers yet: run the LLM judge on the answers (the Judge page or npx assessor judge)"
        }
      />
    );
  const k = (v: { value: number | null }) => fmt(v.value, 3);
  return (
    <div className="grid gap-4 lg:grid-cols-2" data-testid="generation-claims">
      <div className="space-y-2">
        <h3 className="text-sm font-semibold">Claim support, judge {p.judge} vs people</h3>
        <dl className="grid grid-cols-2 gap-x-3 text-sm">
          <dt>Weighted kappa (linear)</dt>
          <dd data-testid="claims-kappa">{k(c.kappa.linear)}</dd>
          <dt>Weighted kappa (quadratic)</dt>
          <dd>{k(c.kappa.quadratic)}</dd>
          <dt>Raw agreement (4 labels)</dt>
          <dd data-testid="claims-agreement">{pct(c.rawAgreement)}</dd>
          <dt>Claims compared</dt>
          <dd>
            {c.n} on {c.answers} answers
            {c.versionMismatch ? ` (${c.versionMismatch} on another claim version: faithfulness only)` : ""}
          </dd>
        </dl>
        <p className="text-xs text-slate-500">
          Kappa over the ordered labels n &lt; p &lt; s, with x (true per the video, absent from the context) counted as
          n; the matrix keeps the four labels apart.
        </p>
        <ScrollRegion label="Claim support confusion">
          <table className="text-xs" aria-label="claim support confusion (rows people, columns judge)">
            <thead>
              <tr>
                <th className="px-1 text-left">people ↓ judge →</th>
                {LABELS.map((l) => (
                  <th key={l} className="px-2" title={LABEL_NAMES[l]}>
                    {l}
                  </th>
                ))}
                <th className="px-2">precision</th>
                <th className="px-2">recall</th>
              </tr>
            </thead>
            <tbody>
              {LABELS.map((l, i) => (
                <tr key={l}>
                  <th className="px-1 text-left font-normal" title={LABEL_NAMES[l]}>
                    {l} <span className="text-slate-500">{LABEL_NAMES[l]}</span>
                  </th>
                  {c.confusion[i].map((v, j) => (
                    <td key={j} className={`px-2 text-center ${i === j ? "font-semibold" : ""}`}>
                      {v}
                    </td>
                  ))}
                  <td className="px-2 text-center">{fmt(c.perLabel[l].precision, 2)}</td>
                  <td className="px-2 text-center">{fmt(c.perLabel[l].recall, 2)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </div>
      <div className="space-y-2">
        <h3 className="text-sm font-semibold">Per-answer faithfulness and relevance</h3>
        <dl className="grid grid-cols-2 gap-x-3 text-sm">
          <dt>Mean absolute difference</dt>
          <dd data-testid="faithfulness-mad">{fmt(p.faithfulness?.meanAbsDiff, 3)}</dd>
          <dt>Spearman&apos;s rho</dt>
          <dd
            data-testid="faithfulness-rho"
            title={
              p.faithfulness?.spearman.rho === null
                ? (p.faithfulness?.spearman as { reason?: string }).reason
                : undefined
            }
          >
            {fmt(p.faithfulness?.spearman.rho ?? null, 3)}
          </dd>
          <dt>Answers</dt>
          <dd>{p.faithfulness?.n ?? 0}</dd>
          <dt>Relevance: same grade</dt>
          <dd>{pct(p.relevance?.rawAgreement)}</dd>
          <dt>Relevance: kappa (linear)</dt>
          <dd>{fmt(p.relevance?.kappa, 3)}</dd>
        </dl>
        <Ragas p={p} />
      </div>
    </div>
  );
}

/** The published reference beside this project's own agreement. */
export function Ragas({ p }: { p: TGenerationPanel }) {
  const rows = [
    {
      name: "Faithfulness",
      published: p.ragas.faithfulness,
      ours: p.claims?.rawAgreement ?? null,
      how: "claim labels, same label",
    },
    {
      name: "Answer relevance",
      published: p.ragas.answerRelevance,
      ours: p.relevance?.rawAgreement ?? null,
      how: "relevance 0–3, same grade",
    },
    {
      name: "Context relevance",
      published: p.ragas.contextRelevance,
      ours: null,
      how: "chunk grades: the Judge vs human panel",
    },
  ];
  return (
    <ScrollRegion label="Published agreement with people">
      <table
        className="text-xs"
        data-testid="generation-ragas"
        aria-label="published agreement with people and this project's"
      >
        <caption className="text-left text-slate-600">
          Agreement with people: {p.ragas.citation}, beside this project&apos;s judge
        </caption>
        <thead>
          <tr>
            <th className="px-1 text-left">measure</th>
            <th className="px-2">RAGAS (published)</th>
            <th className="px-2">this project</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.name}>
              <th className="px-1 text-left font-normal">{r.name}</th>
              <td className="px-2 text-center">{pct(r.published)}</td>
              <td className="px-2 text-center" title={r.how}>
                {r.ours === null ? (
                  <span className="text-slate-500">{r.name === "Context relevance" ? "see above" : "–"}</span>
                ) : (
                  pct(r.ours)
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
