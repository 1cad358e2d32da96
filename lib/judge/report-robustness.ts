/**
 * The trust report's robustness section: how a judge's grades move under probes — runs of the same
 * judge on perturbed prompts, named `<judge>~probe:<kind>` (the probe runs' naming). Per probe, on
 * the pairs both labelled: the share whose grade changed, the mean change (probe − judge), and
 * quadratic-weighted kappa between the judge and its probe (lib/stats/agreement/kappa.ts). Without
 * probe runs in the project the section is null and the report says so.
 */
import { confusionOf } from "../stats/agreement/confusion.ts";
import { cohenKappa } from "../stats/agreement/kappa.ts";
import type { TDashboardData } from "../dashboard/model.ts";

export const PROBE_SEPARATOR = "~probe:";

export type TProbeRow = {
  kind: string;
  judge: string;
  pairs: number;
  changed: number;
  meanShift: number | null;
  kappaQuadratic: number | null;
};
export type TRobustness = { probes: TProbeRow[] };

export function robustness(
  data: TDashboardData,
  judge: string,
): { robustness: TRobustness | null; note: string | null } {
  const prefix = `${judge}${PROBE_SEPARATOR}`;
  const names = [...data.judges.keys()].filter((n) => n.startsWith(prefix)).sort();
  if (names.length === 0)
    return {
      robustness: null,
      note: `no probe runs of this judge in the project (judges named ${prefix}KIND); robustness is reported once they exist`,
    };
  const base = new Map<string, number>();
  for (const l of data.judges.get(judge) ?? []) base.set(`${l.queryId}:${l.chunkId}`, l.grade);
  const probes = names.map((name): TProbeRow => {
    const pairs: { reference: number; other: number }[] = [];
    for (const l of data.judges.get(name) ?? []) {
      const g = base.get(`${l.queryId}:${l.chunkId}`);
      if (g !== undefined) pairs.push({ reference: g, other: l.grade });
    }
    const changed = pairs.filter((p) => p.other !== p.reference).length;
    return {
      kind: name.slice(prefix.length),
      judge: name,
      pairs: pairs.length,
      changed,
      meanShift: pairs.length ? pairs.reduce((s, p) => s + p.other - p.reference, 0) / pairs.length : null,
      kappaQuadratic: cohenKappa(confusionOf(pairs), "quadratic").value,
    };
  });
  return { robustness: { probes }, note: null };
}
