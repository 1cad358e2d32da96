/**
 * The dashboard's data model: what lib/dashboard/data.ts loads once per label-set version and
 * every panel reads. Types only; lib/dashboard/data.ts re-exports them.
 */
import type { TStageCounts } from "../labels/stage.ts";
import type { DashboardCache } from "./load/cache.ts";

/**
 * Everything the dashboard computes from, read once per label-set version with one narrow query
 * per table and joined in memory (maps keyed by internal ids). Panels (lib/dashboard/*.ts) are
 * pure functions of this object plus the viewer's options; the statistics are lib/stats'.
 */
export type TDashboardProject = {
  id: number;
  name: string;
  calibrationTarget: number;
  minPerGrade: number;
  annotatorsPerItem: number;
  /** The lead closed grading (lib/projects/grading.ts): nothing can be sampled or graded until it is reopened. */
  gradingClosed: boolean;
};

/** An accepted question: its answer places (video id, or null for any video; start in seconds). */
export type TQueryInfo = {
  qid: string;
  tags: string[];
  places: { start: number; end: number | null; videoId: number | null }[];
};
export type TChunkInfo = {
  docid: string;
  videoId: number;
  start: number;
  end: number;
  /** lib/chunkings: a run is evaluated on its own chunking's labels */ chunkingId: number;
};
/** `injection`: a judge's label whose chunk reads like instructions to a model (lib/judge/injection.ts); set only on judge labels. */
export type TLabel = { queryId: number; chunkId: number; grade: number; injection?: boolean };
export type TJudgementRow = {
  poolItemId: string;
  userId: string;
  grade: number;
  startSeconds: number | null;
  /** The annotator's answer end (null or absent: not marked). */
  endSeconds?: number | null;
  timeSpentMs: number | null;
};
/** A final human label (lib/labels/reference.ts ReferenceLabelRow, internal ids only). */
export type TReference = TLabel & {
  startSeconds: number | null;
  /** The answer's end, when the annotators or the adjudicator marked one (imports carry none). */
  endSeconds?: number | null;
  status: "agreed" | "adjudicated" | "imported";
  source: string | null;
};

/** One pool item's human labels as the load keeps them (lib/dashboard/load/item-states.ts). */
export type TItemView = {
  /** In submission order. */
  judgements: readonly TJudgementRow[];
  adjudication: { grade: number; startSeconds: number | null; endSeconds: number | null } | undefined;
  /** The item's final human label (lib/labels/reference.ts finalLabel), null without one. */
  final: TReference | null;
};

export type TDashboardData = {
  version: string;
  /**
   * Identity of what labels do not change (queries, chunks, pool, runs): the same object from one
   * label-set version to the next until one of those changes, so results that depend only on them
   * and on a query's labels can be kept across label changes (lib/dashboard/systems.ts).
   */
  base: object;
  project: TDashboardProject;
  queries: Map<number, TQueryInfo>;
  /** Distinct query tags, sorted. */
  tags: string[];
  chunks: Map<number, TChunkInfo>;
  reference: TReference[];
  /** Pool items and imported labels per stage (lib/labels/stage.ts). */
  stages: TStageCounts;
  /** Judge name → its labels; names sorted. */
  judges: Map<string, TLabel[]>;
  /** Judge name → its latest judge run (lib/judge): status and when it finished (ISO); judges imported from files have none. */
  judgeRuns: Map<string, { status: string; finishedAt: string | null }>;
  /** Judge name → when its last label was written (ISO). */
  judgeLabelledAt: Map<string, string>;
  poolItems: Map<string, { queryId: number; chunkId: number }>;
  /** Pool item id → the runs that contributed it. */
  provenance: Map<string, number[]>;
  /** Assignments per pool item (progress stages). */
  assigned: Map<string, number>;
  /** Assigned items per user. */
  assignedByUser: Map<string, number>;
  judgements: TJudgementRow[];
  /**
   * Since the previous label-set version (`from`): the only queries whose final human labels
   * (`reference`) may differ, judge labels unchanged; null when unknown (then anything may differ).
   */
  referenceChanges: { from: string; queries: Set<number> } | null;
  /** Pool item id → its judgements in submission order. */
  judgementsByItem: Map<string, TJudgementRow[]>;
  adjudicated: Set<string>;
  /**
   * Per pool item (`position`: its index in `states`), its judgements, adjudication and final
   * human label. An item's state is the same object from one label-set version to the next while
   * its inputs do not change. Set by the load; absent in data built by hand.
   */
  itemStates?: { position: ReadonlyMap<string, number>; states: readonly TItemView[] };
  users: Map<string, { name: string; email: string }>;
  runs: { id: number; system: string; contentHash: string; chunkingId: number }[];
  /**
   * The cache object of this load (lib/dashboard/load/cache.ts): what the panels computed from
   * this data. Set by the load; data built by hand gets one on first use (cacheOf).
   */
  cache?: DashboardCache;
};
