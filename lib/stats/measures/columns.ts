import { ndcg, type Gain } from "./ndcg.ts";
import { recallAt } from "./recall.ts";
import { reciprocalRank } from "./recip-rank.ts";
import type { RankedQuery } from "./types.ts";

/**
 * The system measures the dashboard's systems table and `assessor eval --ppi` both report, in
 * this order: Recall@5, Recall@10 and MRR at relevance ≥ 1 and ≥ 2, then nDCG@5 and nDCG@10 with
 * the chosen gain (nDCG uses the grades themselves, so it has no "≥ 2" variant). Each is a value
 * per question; a question with no relevant chunk scores 0 on every one of them.
 */
export type TRetrievalColumn = {
  id: string;
  label: string;
  level: number | null;
  lowerIsBetter: boolean;
  compute: (q: RankedQuery) => number;
};

export function retrievalColumns(gain: Gain): TRetrievalColumn[] {
  const cols: TRetrievalColumn[] = [];
  for (const level of [1, 2]) {
    cols.push(
      {
        id: `recall_5@${level}`,
        label: `Recall@5 (≥${level})`,
        level,
        lowerIsBetter: false,
        compute: (q) => recallAt(q, 5, { relevanceLevel: level }),
      },
      {
        id: `recall_10@${level}`,
        label: `Recall@10 (≥${level})`,
        level,
        lowerIsBetter: false,
        compute: (q) => recallAt(q, 10, { relevanceLevel: level }),
      },
      {
        id: `recip_rank@${level}`,
        label: `MRR (≥${level})`,
        level,
        lowerIsBetter: false,
        compute: (q) => reciprocalRank(q, { relevanceLevel: level }),
      },
    );
  }
  const g = gain === "exponential" ? "exp" : "lin";
  cols.push(
    {
      id: `ndcg_cut_5`,
      label: `nDCG@5 (${g})`,
      level: null,
      lowerIsBetter: false,
      compute: (q) => ndcg(q, { cutoff: 5, gain }),
    },
    {
      id: `ndcg_cut_10`,
      label: `nDCG@10 (${g})`,
      level: null,
      lowerIsBetter: false,
      compute: (q) => ndcg(q, { cutoff: 10, gain }),
    },
  );
  return cols;
}
