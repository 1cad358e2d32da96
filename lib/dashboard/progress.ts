import type { TStageCounts } from "../labels/stage.ts";
import type { TDashboardData } from "./data.ts";
import { median } from "../stats/median.ts";

/**
 * Progress: items per stage (lib/labels/stage.ts), and per annotator the items done of those
 * assigned and the median seconds per item (the annotate page's timer). The estimate of time left
 * assumes each annotator keeps their own median pace on their own remaining items, working in
 * parallel: the wall-clock estimate is the slowest annotator's remaining time, the effort estimate
 * the sum. Annotators without timings use the median over everyone's timings.
 */
export type TAnnotatorRow = {
  userId: string;
  name: string;
  email: string;
  assigned: number;
  done: number;
  remaining: number;
  medianSeconds: number | null;
  secondsLeft: number | null;
};
export type TProgressPanel = {
  stages: TStageCounts;
  annotators: TAnnotatorRow[];
  remainingJudgements: number;
  /** Sum over annotators of remaining × pace (person-seconds); null without any timing. */
  effortSecondsLeft: number | null;
  /** Slowest annotator's remaining × pace (seconds, working in parallel); null without any timing. */
  wallSecondsLeft: number | null;
  awaitingAdjudication: number;
  empty: string | null;
};

export function progressPanel(data: TDashboardData): TProgressPanel {
  const byUser = new Map<string, { done: number; times: number[] }>();
  const allTimes: number[] = [];
  for (const j of data.judgements) {
    const e = byUser.get(j.userId) ?? { done: 0, times: [] };
    e.done++;
    if (j.timeSpentMs !== null) {
      e.times.push(j.timeSpentMs / 1000);
      allTimes.push(j.timeSpentMs / 1000);
    }
    byUser.set(j.userId, e);
  }
  const overall = median(allTimes);
  const userIds = new Set([...data.assignedByUser.keys(), ...byUser.keys()]);
  const annotators: TAnnotatorRow[] = [...userIds].map((id) => {
    const u = data.users.get(id);
    const e = byUser.get(id);
    const assigned = data.assignedByUser.get(id) ?? 0;
    const done = e?.done ?? 0;
    const remaining = Math.max(0, assigned - done);
    const own = median(e?.times ?? []);
    const pace = own ?? overall;
    return {
      userId: id,
      name: u?.name ?? id,
      email: u?.email ?? "",
      assigned,
      done,
      remaining,
      medianSeconds: own,
      secondsLeft: pace === null ? null : remaining * pace,
    };
  });
  annotators.sort((a, b) => a.name.localeCompare(b.name));
  const remainingJudgements = annotators.reduce((s, a) => s + a.remaining, 0);
  const known = annotators.filter((a) => a.secondsLeft !== null);
  const anyTiming = overall !== null;
  return {
    stages: data.stages,
    annotators,
    remainingJudgements,
    effortSecondsLeft: anyTiming ? known.reduce((s, a) => s + (a.secondsLeft ?? 0), 0) : null,
    wallSecondsLeft: anyTiming ? known.reduce((m, a) => Math.max(m, a.secondsLeft ?? 0), 0) : null,
    awaitingAdjudication: data.stages.awaiting_adjudication,
    empty:
      data.stages.total === 0
        ? "no pool yet: import runs (npx assessor import run FILE), then build the pool with npx assessor pool --depth K"
        : null,
  };
}
