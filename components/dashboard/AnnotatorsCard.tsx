"use client";

import { useState } from "react";
import type { TAgreementCell, TAnnotatorQuality, TInterval } from "@/lib/stats/annotators";
import type { TAnnotatorAbility } from "@/lib/stats/annotators-model";
import type { TCheckAccuracy } from "@/lib/stats/annotators-checks";
import { annotatorsSearch, useAnnotators, useAnnotatorsModel } from "@/lib/query/annotators";
import { Card, PanelState } from "./ui";

const f3 = (v: number | null | undefined) => (v === null || v === undefined ? "–" : v.toFixed(3));
const f1 = (v: number | null | undefined) => (v === null || v === undefined ? "–" : v.toFixed(1));
const pct = (v: number | null) => (v === null ? "–" : `${(100 * v).toFixed(0)}%`);
const signed = (v: number) => `${v >= 0 ? "+" : "−"}${Math.abs(v).toFixed(3)}`;

function Kappa({ c, weights }: { c: TAgreementCell | null; weights: "linear" | "quadratic" }) {
  if (!c) return <>–</>;
  if ("reason" in c) return <span title={c.reason}>too few ({c.n})</span>;
  const value = weights === "linear" ? c.linear : c.quadratic;
  const ci = weights === "linear" ? c.linearInterval : c.quadraticInterval;
  return (
    <>
      {f3(value)}
      {ci ? <span className="text-slate-500"> [{`${f3(ci.low)}, ${f3(ci.high)}`}]</span> : null}
    </>
  );
}

function WithInterval({ value, ci, show }: { value: number; ci: TInterval | null; show: (v: number) => string }) {
  return (
    <>
      {show(value)}
      {ci ? <span className="text-slate-500"> [{`${show(ci.low)}, ${show(ci.high)}`}]</span> : null}
    </>
  );
}

/** The model's columns while its request is under way. */
const MODEL_LOADING = "…";

function Row({
  a,
  m,
  hasJudge,
}: {
  a: TAnnotatorQuality;
  /** The annotator's ability, undefined without one, `MODEL_LOADING` while the model loads. */
  m: TAnnotatorAbility | undefined | typeof MODEL_LOADING;
  hasJudge: boolean;
}) {
  const len = a.reference.leniency;
  return (
    <tr className="border-t border-slate-100" data-testid="annotator-row" data-annotator={a.annotator}>
      <td className="py-1 pr-2 font-mono text-xs">{a.annotator}</td>
      <td className="pr-2 text-right">{a.graded}</td>
      <td className="pr-2" data-testid="annotator-kappa-linear">
        <Kappa c={a.reference} weights="linear" />
      </td>
      <td className="pr-2">
        <Kappa c={a.reference} weights="quadratic" />
      </td>
      <td className="pr-2" data-testid="annotator-leniency">
        {len ? (
          <>
            {signed(len.value)}
            {len.interval ? (
              <span className="text-slate-500"> [{`${signed(len.interval.low)}, ${signed(len.interval.high)}`}]</span>
            ) : null}
          </>
        ) : (
          "–"
        )}
      </td>
      {hasJudge ? (
        <td className="pr-2">
          <Kappa c={a.judge} weights="linear" />
        </td>
      ) : null}
      <td className="pr-2 text-right">{a.start.n ? `${f1(a.start.medianAbsError)} s` : "–"}</td>
      <td className="pr-2 text-right" data-testid="annotator-overturned">
        {a.adjudication.overturned} / {a.adjudication.adjudicated}
      </td>
      <td className="pr-2 text-right">{a.time.n ? `${f1((a.time.medianMs ?? 0) / 1000)} s` : "–"}</td>
      <td className="pr-2 text-right">{a.time.n ? `${f1((a.time.p10Ms ?? 0) / 1000)} s` : "–"}</td>
      <td className="pr-2 text-right" data-testid="annotator-fast">
        {pct(a.time.fastShare)}
      </td>
      <td className="pr-2" data-testid="annotator-model-bias">
        {m === MODEL_LOADING ? m : m ? <WithInterval value={m.bias} ci={m.biasInterval} show={signed} /> : "–"}
      </td>
      <td>
        {m === MODEL_LOADING ? (
          m
        ) : m ? (
          <WithInterval value={m.reliability} ci={m.reliabilityInterval} show={f3} />
        ) : (
          "–"
        )}
      </td>
    </tr>
  );
}

/** Accuracy on hidden check items (lib/stats/annotators-checks.ts): lead and adjudicator only, like the whole card. */
function ChecksTable({ checks }: { checks: TCheckAccuracy[] }) {
  return (
    <div className="mt-3 overflow-x-auto" tabIndex={0} role="region" aria-label="Check items table">
      <table className="w-full text-sm" data-testid="annotator-checks">
        <caption className="text-left text-xs text-slate-600">
          Hidden check items: grades on items whose reference was settled, against that reference
        </caption>
        <thead className="text-left text-xs text-slate-600">
          <tr>
            <th className="pr-2 font-medium">Annotator</th>
            <th className="pr-2 text-right font-medium">Checks</th>
            <th className="pr-2 font-medium" title="Share of check grades equal to the reference (Wilson 95% interval)">
              Exact agreement
            </th>
            <th className="font-medium" title="Mean of (grade − reference): positive is more generous">
              Mean signed difference
            </th>
          </tr>
        </thead>
        <tbody>
          {checks.map((c) => (
            <tr
              key={c.annotator}
              className="border-t border-slate-100"
              data-testid="annotator-check-row"
              data-annotator={c.annotator}
            >
              <td className="py-1 pr-2 font-mono text-xs">{c.annotator}</td>
              <td className="pr-2 text-right">{c.n}</td>
              {"reason" in c ? (
                <td className="pr-2" colSpan={2}>
                  <span title={c.reason}>too few ({c.n})</span>
                </td>
              ) : (
                <>
                  <td className="pr-2" data-testid="annotator-check-exact">
                    <WithInterval value={c.exact} ci={c.exactInterval} show={f3} />
                  </td>
                  <td data-testid="annotator-check-difference">{signed(c.meanSignedDifference)}</td>
                </>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The Annotators card: each annotator's agreement with the reference (their own grade left out),
 * leniency, agreement with the page's judge, start error, grades overturned in adjudication and
 * time per item (lib/stats/annotators.ts), accuracy on hidden check items, with a CSV download.
 * The ability model (Dawid–Skene) comes in a request of its own, asked for once the rest has
 * answered: its columns show "…" until it does.
 */
export function AnnotatorsCard({ projectId, judge }: { projectId: number | null; judge: string | undefined }) {
  const [fastSeconds, setFastSeconds] = useState(3);
  const q = useAnnotators(projectId, judge, fastSeconds);
  const mq = useAnnotatorsModel(projectId, q.isSuccess && !q.isFetching);
  const rows = q.data?.annotators ?? [];
  const hasJudge = Boolean(q.data?.judge);
  const fitted = mq.data?.model ?? null;
  const model = new Map((fitted?.annotators ?? []).map((m) => [m.annotator, m]));
  const modelLoading = mq.isPending && !mq.isError;
  return (
    <Card
      title="Annotators"
      id="annotators"
      description="How each annotator grades: weighted kappa against the reference with their own grade left out (95% bootstrap intervals over questions), leniency (their grade minus the reference), start error, grades overturned in adjudication, and time per item. Fewer than 10 pairs or 3 questions: too few for a number."
    >
      <PanelState
        isPending={q.isPending}
        error={q.error}
        empty={q.data && rows.length === 0 ? "no human grades yet" : null}
      />
      {rows.length ? (
        <>
          <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Annotators table">
            <table className="w-full text-sm">
              <thead className="text-left text-xs text-slate-600">
                <tr>
                  <th className="pr-2 font-medium">Annotator</th>
                  <th className="pr-2 text-right font-medium">Graded</th>
                  <th className="pr-2 font-medium">κ linear</th>
                  <th className="pr-2 font-medium">κ quadratic</th>
                  <th className="pr-2 font-medium">Leniency</th>
                  {hasJudge ? <th className="pr-2 font-medium">κ vs {q.data?.judge}</th> : null}
                  <th className="pr-2 text-right font-medium">Start error</th>
                  <th className="pr-2 text-right font-medium">Overturned</th>
                  <th className="pr-2 text-right font-medium">Median time</th>
                  <th className="pr-2 text-right font-medium">10th pct</th>
                  <th className="pr-2 text-right font-medium">≤ {fastSeconds} s</th>
                  <th className="pr-2 font-medium" title="Dawid–Skene: expected grade minus the true grade">
                    Bias (model)
                  </th>
                  <th className="font-medium" title="Dawid–Skene: probability of giving the true grade">
                    Reliability (model)
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((a) => (
                  <Row
                    key={a.annotator}
                    a={a}
                    m={modelLoading ? MODEL_LOADING : model.get(a.annotator)}
                    hasJudge={hasJudge}
                  />
                ))}
              </tbody>
            </table>
          </div>
          {fitted ? (
            <p className="mt-2 text-xs text-slate-600" data-testid="annotators-model">
              The model&apos;s item grades (Dawid–Skene over {fitted.items} items) against the reference: κ linear{" "}
              <Kappa c={fitted.vsReference} weights="linear" />; on adjudicated items:{" "}
              <Kappa c={fitted.vsAdjudicated} weights="linear" />. Bias and reliability:{" "}
              <span data-testid="annotators-model-intervals">{fitted.intervals}</span>.
            </p>
          ) : modelLoading ? (
            <p className="mt-2 text-xs text-slate-600" data-testid="annotators-model" role="status">
              The ability model (Dawid–Skene): {MODEL_LOADING}
            </p>
          ) : mq.error ? (
            <p className="mt-2 text-xs text-red-800" data-testid="annotators-model" role="alert">
              The ability model (Dawid–Skene): {mq.error instanceof Error ? mq.error.message : String(mq.error)}
            </p>
          ) : null}
          {q.data?.answers.length ? (
            <div className="mt-3 overflow-x-auto" tabIndex={0} role="region" aria-label="Answer labels table">
              <table className="w-full text-sm">
                <caption className="text-left text-xs text-slate-600">
                  Answer labels, own labels left out of the reference
                </caption>
                <thead className="text-left text-xs text-slate-600">
                  <tr>
                    <th className="pr-2 font-medium">Annotator</th>
                    <th className="pr-2 text-right font-medium">Answers</th>
                    <th className="pr-2 font-medium">Claims κ linear</th>
                    <th className="pr-2 font-medium">Relevance κ linear</th>
                    <th className="pr-2 text-right font-medium">Overturned</th>
                    <th className="text-right font-medium">Median time</th>
                  </tr>
                </thead>
                <tbody>
                  {q.data.answers.map((a) => (
                    <tr key={a.annotator} className="border-t border-slate-100" data-testid="annotator-answers-row">
                      <td className="py-1 pr-2 font-mono text-xs">{a.annotator}</td>
                      <td className="pr-2 text-right">{a.labelled}</td>
                      <td className="pr-2">
                        {"reason" in a.claims ? (
                          <span title={a.claims.reason}>too few ({a.claims.n})</span>
                        ) : a.claims.linear === null ? (
                          "–"
                        ) : (
                          <WithInterval value={a.claims.linear} ci={a.claims.linearInterval} show={f3} />
                        )}
                      </td>
                      <td className="pr-2">
                        <Kappa c={a.relevance} weights="linear" />
                      </td>
                      <td className="pr-2 text-right">
                        {a.adjudication.overturned} / {a.adjudication.adjudicated}
                      </td>
                      <td className="text-right">{a.time.n ? `${f1((a.time.medianMs ?? 0) / 1000)} s` : "–"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
          {q.data?.checks.length ? <ChecksTable checks={q.data.checks} /> : null}
          <ul className="mt-2 text-xs text-slate-600">
            {rows.flatMap((a) =>
              a.peers
                .filter((p) => p.other > a.annotator)
                .map((p) => (
                  <li key={`${a.annotator}-${p.other}`} data-testid="annotator-peer">
                    {a.annotator} vs {p.other}: κ linear <Kappa c={p} weights="linear" /> on {p.n} shared items
                  </li>
                )),
            )}
          </ul>
        </>
      ) : null}
      <div className="mt-2 flex flex-wrap items-end gap-3 text-xs text-slate-600">
        <label>
          Fast grade threshold (seconds)
          <input
            type="number"
            min={0}
            step={0.5}
            name="fastSeconds"
            className="mt-0.5 block w-24 rounded border border-slate-300 px-2 py-1 text-sm"
            value={fastSeconds}
            onChange={(e) => {
              const v = Number(e.target.value);
              if (Number.isFinite(v) && v >= 0) setFastSeconds(v);
            }}
          />
        </label>
        {projectId !== null ? (
          <a
            className="text-indigo-700 underline"
            href={`/api/dashboard/${projectId}/annotators${annotatorsSearch({ judge, fastSeconds, format: "csv" })}`}
            download
          >
            Download CSV
          </a>
        ) : null}
      </div>
    </Card>
  );
}
