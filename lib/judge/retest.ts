/**
 * Test–retest agreement of a judge run with several samples per pair (`--samples N`, temperature
 * above 0): how consistent the model is with itself.
 *
 * - κ between samples: for each two samples i < j, Cohen's weighted kappa (lib/stats, the
 *   scikit-learn definition on the 0–3 scale) between "sample i" and "sample j" as two raters over
 *   the pairs where both are graded; reported as the mean over the N(N−1)/2 sample pairs (for
 *   N = 2, the one kappa).
 * - unstable share: of the pairs with at least two graded samples, those whose samples are not
 *   all the same grade.
 * Unstable pairs are the ones the calibration sampler may take first (`unstablePairs`).
 */
import { cohenKappa, type Weighting } from "../stats/agreement/kappa.ts";
import { confusionOf } from "../stats/agreement/confusion.ts";

export type TSampleGrades = { queryId: number; chunkId: number; grades: (number | null)[] };
export type TRetest = {
  pairs: number;
  unstable: number;
  unstableShare: number | null;
  kappa: Record<"linear" | "quadratic", number | null>;
  samplePairs: number;
};

export function retest(items: readonly TSampleGrades[], samples: number): TRetest {
  let pairs = 0;
  let unstable = 0;
  for (const it of items) {
    const g = it.grades.filter((x): x is number => x !== null);
    if (g.length < 2) continue;
    pairs++;
    if (g.some((x) => x !== g[0])) unstable++;
  }
  const kappa = { linear: null as number | null, quadratic: null as number | null };
  let samplePairs = 0;
  for (const w of ["linear", "quadratic"] as const satisfies readonly Weighting[]) {
    const values: number[] = [];
    for (let i = 0; i < samples; i++)
      for (let j = i + 1; j < samples; j++) {
        const m = confusionOf(
          items.flatMap((it) =>
            it.grades[i] != null && it.grades[j] != null
              ? [{ reference: it.grades[i] as number, other: it.grades[j] as number }]
              : [],
          ),
        );
        const k = cohenKappa(m, w);
        if (k.value !== null) values.push(k.value);
      }
    kappa[w] = values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
    samplePairs = values.length;
  }
  return { pairs, unstable, unstableShare: pairs ? unstable / pairs : null, kappa, samplePairs };
}

/** Pairs whose graded samples differ, as `queryId:chunkId` keys. */
export function unstablePairs(items: readonly TSampleGrades[]): Set<string> {
  const out = new Set<string>();
  for (const it of items) {
    const g = it.grades.filter((x): x is number => x !== null);
    if (g.length >= 2 && g.some((x) => x !== g[0])) out.add(`${it.queryId}:${it.chunkId}`);
  }
  return out;
}
