"use client";

import Link from "next/link";
import { useState } from "react";
import { money, timeLeft } from "@/lib/judge/format";
import { useJudgeRunAction, type TRunSummary } from "@/lib/query/judge";
import { Button, ErrorBox } from "./ui";
import { ScrollRegion } from "@/components/shell/ScrollRegion";

function RunRow({ run, projectId }: { run: TRunSummary; projectId: number }) {
  const rate = run.rate;
  const action = useJudgeRunAction(projectId);
  const [confirming, setConfirming] = useState(false);
  const c = run.counts;
  const finished = c.done + c.failed;
  const pct = c.total ? Math.floor((finished / c.total) * 100) : 100;
  // A run whose workers all stopped (a server restarted, a CLI killed) still says running: it can be resumed.
  const active = (run.status === "running" || run.status === "queued") && run.workers > 0;
  const left = c.total - finished;
  return (
    <tr className="border-t border-slate-100 align-top" data-judge-run={run.judge}>
      <td className="py-2 pr-3">
        <Link
          className="font-medium text-indigo-700 underline"
          href={`/dashboard?project=${projectId}&judge=${encodeURIComponent(run.judge)}`}
          title="Judge vs human on the dashboard"
        >
          {run.judge}
        </Link>
        <div className="text-xs text-slate-500">run {run.id}</div>
      </td>
      <td className="py-2 pr-3">
        <div>{run.model}</div>
        <div className="text-xs text-slate-500" title={run.baseUrl}>
          prompt <code>{run.templateSha256.slice(0, 12)}</code> ·{" "}
          {run.target === "answers" ? <span data-target="answers">answers: </span> : null}
          {run.subset}
          {run.samples > 1 ? ` · ${run.samples} samples, T ${run.params.temperature}` : ""}
        </div>
      </td>
      <td className="w-64 py-2 pr-3">
        <div
          className="h-2 w-full overflow-hidden rounded bg-slate-100"
          role="progressbar"
          aria-label={`run ${run.judge} progress`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct}
        >
          <div className={`h-2 ${c.failed ? "bg-amber-500" : "bg-indigo-600"}`} style={{ width: `${pct}%` }} />
        </div>
        <div className="mt-1 text-xs text-slate-600" data-progress>
          {finished}/{c.total} ({pct}%) · {c.failed} failed · {c.cached} cached
          {active
            ? rate === null
              ? " · time left: estimating…"
              : ` · ${rate.toFixed(1)}/s · ~${timeLeft(left / rate)} left`
            : ""}
        </div>
        {c.flagged ? (
          <div className="text-xs text-amber-800" data-flagged={c.flagged}>
            {run.target === "answers"
              ? `${c.flagged} answer(s) flagged: the answer or its context reads like instructions to a model (possible prompt injection); check their labels`
              : `${c.flagged} pair(s) flagged: the chunk reads like instructions to a model (possible prompt injection); check their grades`}
          </div>
        ) : null}
        {run.retest ? (
          <div className="text-xs text-slate-600">
            test–retest κ {run.retest.kappa.linear?.toFixed(2) ?? "–"} (linear) ·{" "}
            {run.retest.unstableShare === null ? "–" : `${(run.retest.unstableShare * 100).toFixed(0)}%`} of pairs
            differ between samples
          </div>
        ) : null}
      </td>
      <td className="py-2 pr-3">
        <span data-status={run.status} className="font-medium">
          {run.status}
        </span>
        {run.workers ? <span className="text-xs text-slate-500"> · {run.workers} worker(s)</span> : null}
        {run.stopReason ? <div className="max-w-xs text-xs text-slate-600">{run.stopReason}</div> : null}
      </td>
      <td className="py-2 pr-3 text-right tabular-nums">
        <div>{money(run.cost)}</div>
        <div className="text-xs text-slate-500">
          {run.tokens.prompt.toLocaleString("en")} in / {run.tokens.completion.toLocaleString("en")} out
        </div>
      </td>
      <td className="py-2 text-right whitespace-nowrap">
        {active && confirming ? (
          <div role="group" aria-label={`Cancel run ${run.judge}?`} className="space-y-1 text-left text-xs">
            <p>
              Cancel {run.judge} for good? {run.target === "answers" ? "Answers" : "Pairs"} not yet judged stay
              unjudged; a cancelled run cannot be resumed.
            </p>
            <Button
              variant="danger"
              disabled={action.isPending}
              onClick={() =>
                action.mutate({ runId: run.id, action: "cancel" }, { onSettled: () => setConfirming(false) })
              }
            >
              Cancel the run
            </Button>{" "}
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Keep running
            </Button>
          </div>
        ) : active ? (
          <Button variant="danger" disabled={action.isPending} onClick={() => setConfirming(true)}>
            Cancel…
          </Button>
        ) : (run.status === "stopped" ||
            run.status === "running" ||
            run.status === "queued" ||
            (run.status === "completed" && c.failed > 0)) &&
          (left > 0 || c.failed > 0) ? (
          <Button
            variant="secondary"
            disabled={action.isPending}
            onClick={() => action.mutate({ runId: run.id, action: "resume", retryFailed: left === 0 })}
          >
            {left === 0 ? "Retry failed" : "Resume"}
          </Button>
        ) : null}
        <ErrorBox error={action.error} />
      </td>
    </tr>
  );
}

/** The Judge section's history of runs: one row each, with its progress, cost and cancel / resume. */
export function JudgeRunsTable({ runs, projectId }: { runs: readonly TRunSummary[]; projectId: number }) {
  return (
    <ScrollRegion label="Judge runs">
      <table className="mt-1 w-full text-sm" aria-label="Judge runs">
        <thead className="text-left text-xs text-slate-500">
          <tr>
            <th className="pr-3">Judge</th>
            <th className="pr-3">Model and prompt</th>
            <th className="pr-3">Progress</th>
            <th className="pr-3">Status</th>
            <th className="pr-3 text-right">Cost</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <RunRow key={r.id} run={r} projectId={projectId} />
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
