/**
 * The dashboard's boundary: everything a panel computes from, loaded here and only here. A panel
 * (lib/dashboard/panels.ts) asks for the parts it needs; the data and the memoised results live in
 * the version's cache object (lib/dashboard/load/cache.ts), the runs' rankings and the Generation
 * section's answers in the project's lineage of such objects. What a panel computes from a view
 * touches no database (tests/integration/dashboard-boundary.test.ts).
 */
import { loadTransferPools } from "./transfer-pools.ts";
import type { Db } from "../../db/client.ts";
import { dashboardData } from "../data.ts";
import type { TDashboardData } from "../model.ts";
import type { TRunRankings } from "../rankings.ts";
import type { TBase } from "./base.ts";
import type { DashboardCache } from "./cache.ts";
import { generationData, type TAnswer, type TGenerationState, type TLabels } from "./answers.ts";
import { loadRankings } from "./rankings.ts";
import { loadRetest, type TRetestInput } from "./retest.ts";
import { loadTrust, type TTrustInput } from "./trust.ts";

export type TNeeds = { rankings?: boolean; generation?: boolean; retest?: boolean; trust?: boolean };

/** What was loaded for one request: the version's data and cache object, and the parts asked for. */
export type TView = {
  data: TDashboardData;
  cache: DashboardCache;
  /** The project's chunkings, by id. */
  chunkings: TBase["chunkings"];
  /** Each run's rankings by run id (asked for with `rankings`). */
  rankings: Map<number, TRunRankings>;
  /** The Generation section's answers and labels (asked for with `generation`). */
  generation: { state: TGenerationState; answers: TAnswer[]; labels: TLabels } | null;
  /** The retest panel's rows (asked for with `retest`). */
  retest: TRetestInput[];
  /** The Judge trust card's runs, sample grades and juries (asked for with `trust`). */
  trust: TTrustInput | null;
};

const NO_RANKINGS = new Map<number, TRunRankings>();

export async function loadView(db: Db, projectId: number, needs: TNeeds = {}): Promise<TView> {
  const [{ data, cache }, retest] = await Promise.all([
    dashboardData(db, projectId),
    needs.retest ? loadRetest(db, projectId) : [],
  ]);
  // A transfer judge's pool is its target chunking's pooled pairs (read once per pool and depth).
  await loadTransferPools(db, data);
  const [rankings, generation, trust] = await Promise.all([
    needs.rankings ? loadRankings(db, data, cache.lineage) : NO_RANKINGS,
    needs.generation ? generationData(db, projectId, cache.lineage) : null,
    needs.trust ? loadTrust(db, data) : null,
  ]);
  return {
    data,
    cache,
    chunkings: (data.base as TBase).chunkings,
    rankings,
    generation: generation && { state: generation.entry, answers: generation.answers, labels: generation.labels },
    retest,
    trust,
  };
}
