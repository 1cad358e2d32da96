import { median as medianOrNull } from "../../lib/stats/median.ts";

/** The median of a benchmark's timings (lib/stats' definition: the mean of the middle two for an even count); NaN when nothing was timed. */
export const median = (xs: readonly number[]): number => medianOrNull(xs) ?? NaN;
