/**
 * The figures of a run's robustness probes, pure (labels in, figures out), for the Judge robustness
 * card, `assessor judge probe` and the trust report:
 *
 * Over the pairs that have a human reference label, a label of the source judge ("before") and a
 * label of the probe ("after"):
 * - mean grade shift: the mean over pairs of (probe grade − source grade); its 95% interval is the
 *   percentile bootstrap over questions (pairs of one question resampled together, since they share
 *   the question's wording; 1,000 resamples, seed 1, lib/stats/bootstrap.ts): in each resample the
 *   shifts of the drawn questions' pairs summed over their number;
 * - changed: the share of pairs whose grade differs (and how many went up, how many down);
 * - Cohen's weighted kappa against the human reference (lib/stats/agreement/kappa.ts, linear and
 *   quadratic weights on 0–3), before (the source's grades) and after (the probe's), on the same pairs;
 * - worst examples: the pairs with the largest |shift| (ties by question, then chunk).
 */
import { bootstrapDistribution, DEFAULT_LEVEL, DEFAULT_RESAMPLES, percentileInterval } from "../../stats/bootstrap.ts";
import { confusionOf } from "../../stats/agreement/confusion.ts";
import { kappaValue } from "../../stats/agreement/kappa.ts";
import { PROBE_KINDS, PROBE_LABELS, type TProbeKind } from "./perturb.ts";
import { parseProbeJudge, probeJudgeName } from "./spec.ts";

export type TProbeLabel = { queryId: number; chunkId: number; grade: number };
export type TProbeExample = {
  queryId: number;
  chunkId: number;
  qid: string;
  docid: string;
  human: number;
  before: number;
  after: number;
  shift: number;
};
export type TKappaPair = { before: number | null; after: number | null };
export type TProbeRow = {
  kind: TProbeKind;
  label: string;
  judge: string;
  /** Pairs with a human label, the source's label and the probe's. */
  pairs: number;
  meanShift: number | null;
  /** 95% percentile bootstrap over questions; null without pairs. */
  interval: { low: number; high: number } | null;
  changed: number | null;
  up: number;
  down: number;
  kappa: { linear: TKappaPair; quadratic: TKappaPair };
  worst: TProbeExample[];
};
export type TProbeSummary = { source: string; rows: TProbeRow[] };

export type TProbeSummaryOptions = {
  /** External ids for the worst examples (internal ids shown otherwise). */
  names?: (queryId: number, chunkId: number) => { qid: string; docid: string };
  worst?: number;
  resamples?: number;
  seed?: number;
};

const key = (l: { queryId: number; chunkId: number }) => `${l.queryId}:${l.chunkId}`;

/** Source judges that have at least one probe among `judges`, sorted. */
export function probeSources(judges: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const j of judges) {
    const p = parseProbeJudge(j);
    if (p) out.add(p.source);
  }
  return [...out].sort();
}

/** The mean of per-pair values with its 95% bootstrap interval over questions (see the file comment). */
export function clusteredMean(
  rows: readonly { queryId: number; value: number }[],
  opts: { resamples?: number; seed?: number } = {},
): { mean: number; interval: { low: number; high: number } | null } | null {
  if (rows.length === 0) return null;
  const at = new Map<number, number>();
  const sums: number[] = [];
  const counts: number[] = [];
  for (const r of rows) {
    let i = at.get(r.queryId);
    if (i === undefined) {
      i = sums.length;
      at.set(r.queryId, i);
      sums.push(0);
      counts.push(0);
    }
    sums[i] += r.value;
    counts[i]++;
  }
  const mean = sums.reduce((a, b) => a + b, 0) / rows.length;
  const resamples = opts.resamples ?? DEFAULT_RESAMPLES;
  const { values } = bootstrapDistribution(
    sums.length,
    (m) => {
      let s = 0;
      let n = 0;
      for (let i = 0; i < m.length; i++) {
        s += m[i] * sums[i];
        n += m[i] * counts[i];
      }
      return n ? s / n : null;
    },
    { resamples, seed: opts.seed },
  );
  const iv = percentileInterval(values, DEFAULT_LEVEL, resamples);
  return { mean, interval: iv ? { low: iv.low, high: iv.high } : null };
}

function kappas(pairs: readonly { human: number; grade: number }[]): {
  linear: number | null;
  quadratic: number | null;
} {
  const m = confusionOf(pairs.map((p) => ({ reference: p.human, other: p.grade })));
  return { linear: kappaValue(m, "linear"), quadratic: kappaValue(m, "quadratic") };
}

/**
 * The figures of each probe of `source` found among `judges` (judge name → labels; probe judges
 * named `<source>~probe:<kind>`), against `reference` (the human reference labels). Rows in the
 * order of PROBE_KINDS; a kind without a probe judge is left out.
 */
export function probeSummary(
  source: string,
  judges: ReadonlyMap<string, readonly TProbeLabel[]>,
  reference: readonly TProbeLabel[],
  opts: TProbeSummaryOptions = {},
): TProbeSummary {
  const human = new Map(reference.map((r) => [key(r), r.grade]));
  const before = new Map((judges.get(source) ?? []).map((l) => [key(l), l.grade]));
  const rows: TProbeRow[] = [];
  for (const kind of PROBE_KINDS) {
    const judge = probeJudgeName(source, kind);
    const labels = judges.get(judge);
    if (!labels) continue;
    const pairs: TProbeExample[] = [];
    for (const l of labels) {
      const h = human.get(key(l));
      const b = before.get(key(l));
      if (h === undefined || b === undefined) continue;
      const names = opts.names?.(l.queryId, l.chunkId) ?? { qid: String(l.queryId), docid: String(l.chunkId) };
      pairs.push({ ...l, ...names, human: h, before: b, after: l.grade, shift: l.grade - b });
    }
    const m = clusteredMean(
      pairs.map((p) => ({ queryId: p.queryId, value: p.shift })),
      opts,
    );
    const kb = kappas(pairs.map((p) => ({ human: p.human, grade: p.before })));
    const ka = kappas(pairs.map((p) => ({ human: p.human, grade: p.after })));
    const up = pairs.filter((p) => p.shift > 0).length;
    const down = pairs.filter((p) => p.shift < 0).length;
    const worst = pairs
      .filter((p) => p.shift !== 0)
      .sort((a, b) => Math.abs(b.shift) - Math.abs(a.shift) || a.queryId - b.queryId || a.chunkId - b.chunkId)
      .slice(0, opts.worst ?? 5);
    rows.push({
      kind,
      label: PROBE_LABELS[kind],
      judge,
      pairs: pairs.length,
      meanShift: m?.mean ?? null,
      interval: m?.interval ?? null,
      changed: pairs.length ? (up + down) / pairs.length : null,
      up,
      down,
      kappa: {
        linear: { before: kb.linear, after: ka.linear },
        quadratic: { before: kb.quadratic, after: ka.quadratic },
      },
      worst,
    });
  }
  return { source, rows };
}
