/**
 * The trust report's robustness section: how a judge's grades move under probes — runs of the same
 * judge on perturbed prompts, named `<judge>~probe:<kind>` (the probe runs' naming). Per probe, on
 * the human-labelled pairs both graded: the grades changed, the mean shift (probe − judge) with its
 * interval, and linear weighted kappa against people before and after (probe/stats.ts). Without
 * probe runs in the project the section is null and the report says so.
 */
import type { TDashboardData } from "../dashboard/model.ts";
import { probeSummary } from "./probe/stats.ts";
import { PROBE_SEPARATOR } from "./probe/spec.ts";

export { PROBE_SEPARATOR };

export type TProbeRow = {
  kind: string;
  judge: string;
  /** Pairs with a human reference label, the judge's label and the probe's. */
  pairs: number;
  /** Share of those pairs whose grade changed. */
  changed: number | null;
  meanShift: number | null;
  /** 95% percentile bootstrap interval of the mean shift over questions. */
  interval: { low: number; high: number } | null;
  /** Linear weighted kappa against people with the judge's grades (before) and the probe's (after). */
  kappaBefore: number | null;
  kappaAfter: number | null;
};
export type TRobustness = { probes: TProbeRow[] };

/** The same figures as the Judge robustness card: lib/judge/probe/stats.ts probeSummary on the loaded data. */
export function robustness(
  data: TDashboardData,
  judge: string,
): { robustness: TRobustness | null; note: string | null } {
  const prefix = `${judge}${PROBE_SEPARATOR}`;
  const names = [...data.judges.keys()].filter((n) => n.startsWith(prefix));
  if (names.length === 0)
    return {
      robustness: null,
      note: `no probe runs of this judge in the project (judges named ${prefix}KIND); robustness is reported once they exist`,
    };
  const summary = probeSummary(judge, data.judges, data.reference);
  const probes = summary.rows.map((r): TProbeRow => ({
    kind: r.kind,
    judge: r.judge,
    pairs: r.pairs,
    changed: r.changed,
    meanShift: r.meanShift,
    interval: r.interval,
    kappaBefore: r.kappa.linear.before,
    kappaAfter: r.kappa.linear.after,
  }));
  return { robustness: { probes }, note: null };
}
