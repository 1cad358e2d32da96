"use client";

import { useState } from "react";
import { CartesianGrid, Legend, Scatter, ScatterChart, Tooltip, XAxis, YAxis, ZAxis } from "recharts";
import type { TAttribution, TGenerationPanel, TGenerationTable } from "@/lib/dashboard/generation";
import type { TAttributionTable } from "@/lib/stats/generation";
import type { TDashboardFilters } from "@/lib/query/dashboard";
import { useGeneration } from "@/lib/query/generation";
import { DataTable, fmt, type TColumnDef } from "./DataTable";
import { Card, PanelState } from "./ui";
import { ScrollRegion } from "@/components/shell/ScrollRegion";

const COLORS = ["#6366f1", "#14b8a6", "#f59e0b", "#ef4444", "#8b5cf6", "#0ea5e9"];
const LABELS = ["s", "p", "n", "x"] as const;
const LABEL_NAMES = { s: "supported", p: "partly", n: "not supported", x: "true, not in context" } as const;
const pct = (v: number | null | undefined) => (v === null || v === undefined ? "–" : `${Math.round(v * 100)}%`);

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

function JudgeVsHuman({ p }: { p: TGenerationPanel }) {
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
function Ragas({ p }: { p: TGenerationPanel }) {
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

const CELL_TEXT = {
  retrieval_failed: "retrieval failed",
  generator_failed: "generator failed",
  good_without_evidence: "good without evidence",
  fine: "fine",
} as const;

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

function Attribution({ p, a }: { p: TGenerationPanel; a: TAttribution }) {
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
          <ScatterChart width={520} height={260} margin={{ top: 8, right: 16, bottom: 16, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis
              type="number"
              dataKey="ndcg"
              name="nDCG@10"
              domain={[0, 1]}
              fontSize={11}
              label={{ value: "context nDCG@10", position: "insideBottom", offset: -8, fontSize: 11 }}
            />
            <YAxis type="number" dataKey="faithfulness" name="Faithfulness" domain={[0, 1]} fontSize={11} />
            <ZAxis type="category" dataKey="qid" name="Question" />
            <Tooltip formatter={(v) => (typeof v === "number" ? v.toFixed(3) : String(v))} />
            <Legend verticalAlign="top" wrapperStyle={{ fontSize: 11 }} />
            {systems.map((s, i) => (
              <Scatter
                key={s}
                name={s}
                data={a.points.filter((x) => x.system === s)}
                fill={COLORS[i % COLORS.length]}
                isAnimationActive={false}
              />
            ))}
          </ScatterChart>
        </ScrollRegion>
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
