"use client";

import { useState } from "react";
import type { TCalibrationRow } from "@/lib/dashboard/calibration";
import type { TAnnotatorRow } from "@/lib/dashboard/progress";
import {
  useCalibration,
  useDashboardProgress,
  useRetest,
  useSampleForCalibration,
  type TDashboardFilters,
} from "@/lib/query/dashboard";
import { DataTable, type TColumnDef } from "./DataTable";
import { Card, PanelState } from "./ui";

function duration(seconds: number | null): string {
  if (seconds === null) return "–";
  const s = Math.round(seconds);
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function calibrationColumns(min: number): TColumnDef<TCalibrationRow>[] {
  const gradeCol = (g: number): TColumnDef<TCalibrationRow> => ({
    key: `g${g}`,
    header: `grade ${g}`,
    value: (r) => r.perGrade[g],
    render: (r) => (
      <span
        className={r.perGrade[g] < min ? "font-semibold text-amber-700" : ""}
        title={r.perGrade[g] < min ? `fewer than ${min} human examples` : undefined}
      >
        {r.perGrade[g]}
        {r.perGrade[g] < min ? " ⚠" : ""}
      </span>
    ),
  });
  return [
    { key: "tag", header: "Query tag", value: (r) => r.tag ?? "(all)" },
    { key: "labelled", header: "human-labelled", value: (r) => r.labelled, render: (r) => String(r.labelled) },
    { key: "withJudge", header: "with judge label", value: (r) => r.withJudge, render: (r) => String(r.withJudge) },
    {
      key: "complete",
      header: "complete questions",
      title: "questions whose every pooled item has a final human label (what the PPI estimates use)",
      value: (r) => r.completeQuestions,
      render: (r) => `${r.completeQuestions} / ${r.questions}`,
    },
    gradeCol(0),
    gradeCol(1),
    gradeCol(2),
    gradeCol(3),
  ];
}

export function CalibrationCard({
  projectId,
  filters,
  canSample,
}: {
  projectId: number;
  filters: TDashboardFilters;
  canSample: boolean;
}) {
  const q = useCalibration(projectId, filters);
  const sample = useSampleForCalibration(projectId);
  const [n, setN] = useState<number | null>(null);
  // "items", "questions", or "unstable:JUDGE" (items, the pairs whose samples disagree in that run first).
  const [unit, setUnit] = useState<string>("items");
  const retest = useRetest(projectId);
  const d = q.data;
  const pct = d ? Math.min(100, Math.round((100 * d.overall.labelled) / d.target)) : 0;
  const amount = n ?? (unit === "questions" ? 10 : (d?.suggestedSample ?? 0));
  return (
    <Card
      title="Calibration status"
      id="calibration"
      description={
        d
          ? `Final human labels against the target of ${d.target}; a grade with fewer than ${d.minPerGrade} examples is flagged (project settings).`
          : undefined
      }
    >
      <PanelState isPending={q.isPending} error={q.error} empty={d?.empty} />
      {d ? (
        <div className="space-y-3">
          <div>
            <p className="text-sm">
              <strong data-stat="labelled">{d.overall.labelled}</strong> of {d.target} human-labelled items
              {d.judge ? ` · ${d.overall.withJudge} also labelled by judge ${d.judge}` : ""} ·{" "}
              <strong data-stat="complete-questions">{d.overall.completeQuestions}</strong> of {d.overall.questions}{" "}
              questions complete
            </p>
            <div
              className="mt-1 h-2 w-full rounded bg-slate-100"
              role="progressbar"
              aria-valuenow={pct}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-label="calibration target"
            >
              <div className="h-2 rounded bg-indigo-500" style={{ width: `${pct}%` }} />
            </div>
            <p
              className={`mt-1 text-xs ${d.advice.action === "done" ? "text-green-800" : "text-amber-800"}`}
              data-testid="calibration-advice"
              data-advice={d.advice.action}
            >
              {d.advice.text}
            </p>
          </div>
          <DataTable
            id="calibration-table"
            caption="calibration per grade and tag"
            columns={calibrationColumns(d.minPerGrade)}
            rows={[d.overall, ...d.byTag]}
            csvName="calibration.csv"
          />
          {canSample ? (
            <form
              className="flex flex-wrap items-end gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                if (amount > 0)
                  sample.mutate(
                    unit.startsWith("unstable:")
                      ? { n: amount, unit: "items", unstableFrom: unit.slice("unstable:".length) }
                      : { n: amount, unit: unit === "questions" ? "questions" : "items" },
                  );
              }}
            >
              <label className="text-xs text-slate-600">
                Sample
                <select
                  name="unit"
                  className="mt-0.5 block rounded border border-slate-300 px-2 py-1 text-sm"
                  value={unit}
                  onChange={(e) => setUnit(e.target.value)}
                >
                  <option value="items">items (thin grades first)</option>
                  <option value="questions">whole questions, stratified by tag (for PPI)</option>
                  {(retest.data?.runs ?? []).map((r) => (
                    <option key={r.runId} value={`unstable:${r.judge}`}>
                      items, {r.judge}&apos;s unstable pairs first ({r.retest.unstable})
                    </option>
                  ))}
                </select>
              </label>
              <label className="text-xs text-slate-600">
                {unit === "questions"
                  ? "Questions to sample"
                  : `Items to sample (${d.unassignedPoolItems} unassigned in the pool${d.regradablePoolItems ? `, ${d.regradablePoolItems} more with an imported label` : ""})`}
                <input
                  type="number"
                  min={1}
                  className="mt-0.5 block w-28 rounded border border-slate-300 px-2 py-1 text-sm"
                  value={amount}
                  onChange={(e) => setN(Number(e.target.value))}
                />
              </label>
              <button
                type="submit"
                disabled={
                  sample.isPending ||
                  amount < 1 ||
                  (unit === "items" && d.unassignedPoolItems + d.regradablePoolItems === 0)
                }
                className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-60"
              >
                Sample for calibration
              </button>
            </form>
          ) : null}
          {sample.data ? (
            <p className="text-xs text-green-800" role="status">
              Assigned {sample.data.created} labels on {sample.data.itemsToppedUp} items
              {sample.data.questions ? ` of ${sample.data.questions} questions` : ""}
              {sample.data.unstable ? `, ${sample.data.unstable} of them unstable judge pairs` : ""} (seed{" "}
              {sample.data.seed}).
            </p>
          ) : null}
          {sample.error ? <PanelState error={sample.error} /> : null}
        </div>
      ) : null}
    </Card>
  );
}

const annotatorColumns: TColumnDef<TAnnotatorRow>[] = [
  { key: "name", header: "Annotator", value: (r) => r.name },
  { key: "done", header: "done", value: (r) => r.done, render: (r) => String(r.done) },
  { key: "assigned", header: "assigned", value: (r) => r.assigned, render: (r) => String(r.assigned) },
  { key: "median", header: "median s / item", value: (r) => r.medianSeconds, render: (r) => duration(r.medianSeconds) },
  { key: "left", header: "time left", value: (r) => r.secondsLeft, render: (r) => duration(r.secondsLeft) },
];

export function ProgressCard({ projectId }: { projectId: number }) {
  const q = useDashboardProgress(projectId);
  const d = q.data;
  return (
    <Card
      title="Progress"
      id="progress"
      description="Items per stage; per annotator items done and median time per item; time left at each annotator's own pace."
    >
      <PanelState isPending={q.isPending} error={q.error} empty={d?.empty} />
      {d && !d.empty ? (
        <div className="space-y-3">
          <dl className="grid grid-cols-3 gap-2 text-center sm:grid-cols-6">
            {(["unassigned", "assigned", "agreed", "awaiting_adjudication", "adjudicated", "imported"] as const).map(
              (s) => (
                <div key={s} className="rounded bg-slate-50 p-1.5">
                  <dt className="text-[11px] text-slate-500">{s.replaceAll("_", " ")}</dt>
                  <dd className="text-base font-semibold" data-stage={s}>
                    {d.stages[s]}
                  </dd>
                </div>
              ),
            )}
          </dl>
          <p className="text-sm">
            {d.remainingJudgements} judgements left ·{" "}
            {d.wallSecondsLeft === null ? (
              "time left: estimated once annotators have graded (from their median time per item)"
            ) : (
              <>
                about <strong>{duration(d.wallSecondsLeft)}</strong> with everyone working in parallel (
                {duration(d.effortSecondsLeft)} of work)
              </>
            )}{" "}
            · {d.awaitingAdjudication} awaiting adjudication
          </p>
          {d.annotators.length ? (
            <DataTable
              id="annotators-table"
              caption="annotators"
              columns={annotatorColumns}
              rows={d.annotators}
              csvName="annotators.csv"
            />
          ) : null}
        </div>
      ) : null}
    </Card>
  );
}

/** Test–retest of the judge runs with several samples per pair: how consistent each model is with itself. */
export function RetestCard({ projectId }: { projectId: number }) {
  const q = useRetest(projectId);
  const runs = q.data?.runs ?? [];
  if (!q.isPending && !q.error && runs.length === 0) return null;
  return (
    <Card
      title="Judge test–retest"
      id="retest"
      description="Runs with several samples per pair (temperature above 0): Cohen's weighted kappa between samples (mean over sample pairs, as two raters over the pairs both graded) and the share of pairs whose samples differ. A judge that disagrees with itself cannot agree with humans more than that."
    >
      <PanelState isPending={q.isPending} error={q.error} />
      {runs.length ? (
        <table className="w-full text-sm" data-testid="retest-table">
          <thead className="text-left text-xs text-slate-500">
            <tr>
              <th>Judge</th>
              <th>model</th>
              <th className="text-right">samples</th>
              <th className="text-right">pairs</th>
              <th className="text-right">κ linear</th>
              <th className="text-right">κ quadratic</th>
              <th className="text-right">unstable</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((r) => (
              <tr key={r.runId} className="border-t border-slate-100">
                <td>{r.judge}</td>
                <td>
                  {r.model} (T {r.temperature})
                </td>
                <td className="text-right tabular-nums">{r.samples}</td>
                <td className="text-right tabular-nums">{r.retest.pairs}</td>
                <td className="text-right tabular-nums">{r.retest.kappa.linear?.toFixed(3) ?? "–"}</td>
                <td className="text-right tabular-nums">{r.retest.kappa.quadratic?.toFixed(3) ?? "–"}</td>
                <td className="text-right tabular-nums">
                  {r.retest.unstable} (
                  {r.retest.unstableShare === null ? "–" : `${(r.retest.unstableShare * 100).toFixed(1)}%`})
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </Card>
  );
}
