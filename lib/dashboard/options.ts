import { z } from "zod";

/**
 * The viewer's choices, shared by the page (kept in the URL) and every dashboard route handler
 * (as the query string): which judge, which label source for the systems table, which slice.
 */
export const ZDashboardQuery = z.object({
  /** Judge name for the judge-vs-human panel and the "judge" label source; default: the first. */
  judge: z.string().min(1).max(200).optional(),
  /** Label source of the systems table. */
  source: z.enum(["human", "judge", "both"]).default("human"),
  /** Slice: only queries with this tag. */
  tag: z.string().min(1).max(200).optional(),
  /** Slice: only pool items this run (system name) contributed (agreement panels). */
  system: z.string().min(1).max(200).optional(),
  /** Baseline run (system name) of the paired tests; default: the first run. */
  baseline: z.string().min(1).max(200).optional(),
  /** Baseline chunking (name) of the chunking report's paired tests; default: the first chunking with runs. */
  chunkingBaseline: z.string().min(1).max(200).optional(),
  /** nDCG gain. */
  gain: z.enum(["exponential", "linear"]).default("exponential"),
  /** Queries-needed advisor: the difference a study should detect (paired t-test, power 0.8, α 0.05); default 0.05. */
  delta: z.coerce.number().positive().max(1).optional(),
  /** Queries-needed advisor: the target half-width of a 95% interval of a difference; default 0.05. */
  halfWidth: z.coerce.number().positive().max(1).optional(),
  /** Generation section: baseline generator system of the paired tests and the answer judge; default: the first of each. */
  answerBaseline: z.string().min(1).max(200).optional(),
  answerJudge: z.string().min(1).max(200).optional(),
});
export type TDashboardQuery = z.infer<typeof ZDashboardQuery>;

/** Resampling settings of every interval and test on the dashboard (fixed, so numbers are reproducible). */
export const RESAMPLING = { resamples: 1000, trials: 1000, seed: 1, level: 0.95 } as const;
/** Of those, what a bootstrap interval takes (in this order: a report hashes them). */
export const BOOTSTRAP = { resamples: RESAMPLING.resamples, seed: RESAMPLING.seed, level: RESAMPLING.level } as const;
