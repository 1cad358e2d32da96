/**
 * The systems table's columns and what they read besides a query's ranking (lib/dashboard/systems.ts
 * computes the table from them): the retrieval measures, judged@10, start error and the time
 * measures, with the reference starts, chunk times per chunking and answer places they need.
 */
import { judgedAt } from "../stats/measures/judged.ts";
import { retrievalColumns } from "../stats/measures/columns.ts";
import type { Gain } from "../stats/measures/ndcg.ts";
import { startError, type ReferenceStart } from "../stats/measures/start-error.ts";
import type { ReferenceSpan } from "../stats/time/index.ts";
import type { RankedQuery } from "../stats/measures/types.ts";
import type { TDashboardData } from "./data.ts";
import { cacheOf, type TCacheHolder } from "./load/cache.ts";
import { chunkTimesByChunking, timeValues, answerPlacesByQuery, type TChunkTimes, type TTimeValues } from "./time.ts";

/** A column of the systems table as the page shows it. */
export type TColumn = { id: string; label: string; level: number | null; lowerIsBetter: boolean };
export type ColumnDef = TColumn & { compute: (q: RankedQuery, ctx: RunCtx) => number | null };
/**
 * What the columns read besides a query's ranking: reference starts, chunk times per chunking
 * (keyed by docid within one chunking: two chunkings may share a docid) and answer places per qid.
 */
export type Ctx = {
  gain: Gain;
  starts: Map<string, ReferenceStart[]>;
  timesByChunking: Map<number, TChunkTimes>;
  places: Map<string, ReferenceSpan[]>;
};
/** The context of one run: its own chunking's chunk times, and its time measures per query (computed once for the five time columns). */
export type RunCtx = Ctx & { chunkTimes: TChunkTimes; time: (q: RankedQuery) => TTimeValues };

const NO_TIMES: TChunkTimes = new Map();

export function runCtx(ctx: Ctx, chunkingId: number): RunCtx {
  const chunkTimes = ctx.timesByChunking.get(chunkingId) ?? NO_TIMES;
  let last: { q: RankedQuery; v: TTimeValues } | null = null;
  const time = (q: RankedQuery) => {
    if (last?.q !== q) last = { q, v: timeValues(q.qid, q.docids ?? [], chunkTimes, ctx.places.get(q.qid) ?? []) };
    return last.v;
  };
  return { ...ctx, chunkTimes, time };
}

export function systemColumns(gain: Gain): ColumnDef[] {
  return [
    ...retrievalColumns(gain).map((c): ColumnDef => ({ ...c, compute: (q) => c.compute(q) })),
    { id: "judged_10", label: "judged@10", level: null, lowerIsBetter: false, compute: (q) => judgedAt(q, 10) },
    {
      id: "start_error",
      label: "Start error (s)",
      level: 1,
      lowerIsBetter: true,
      compute: (q, c) => startError(q, c.starts.get(q.qid), c.chunkTimes, { relevanceLevel: 1 })?.error ?? null,
    },
    // Time measures (lib/stats/time; answer places: lib/dashboard/time.ts), comparable across chunkings.
    {
      id: "span_recall_5",
      label: "Span recall@5",
      level: null,
      lowerIsBetter: false,
      compute: (q, c) => c.time(q).spanRecall5,
    },
    {
      id: "span_recall_10",
      label: "Span recall@10",
      level: null,
      lowerIsBetter: false,
      compute: (q, c) => c.time(q).spanRecall10,
    },
    {
      id: "time_iou_10",
      label: "Time-IoU@10",
      level: null,
      lowerIsBetter: false,
      compute: (q, c) => c.time(q).timeIou10,
    },
    {
      id: "seconds_read_10",
      label: "Seconds read@10",
      level: null,
      lowerIsBetter: true,
      compute: (q, c) => c.time(q).secondsRead10,
    },
    {
      id: "time_start_error",
      label: "Start error, time (s)",
      level: null,
      lowerIsBetter: true,
      compute: (q, c) => c.time(q).startError,
    },
  ];
}

/** Kept per data.base: queries and chunks do not change with labels. */
const startInputsCache = (data: TCacheHolder) =>
  cacheOf(data).carried(
    "systems.startInputsCache",
    () => new WeakMap<object, Pick<Ctx, "starts" | "timesByChunking">>(),
  );

export function startInputs(data: TDashboardData): Omit<Ctx, "gain"> {
  const places = placesByQid(data);
  const kept = startInputsCache(data).get(data.base);
  if (kept) return { ...kept, places };
  const starts = new Map<string, ReferenceStart[]>();
  for (const q of data.queries.values())
    if (q.places.length)
      starts.set(
        q.qid,
        q.places.map((p) => ({ start: p.start, video: p.videoId === null ? null : String(p.videoId) })),
      );
  const timesByChunking = chunkTimesByChunking(data);
  startInputsCache(data).set(data.base, { starts, timesByChunking });
  return { starts, timesByChunking, places };
}

/** Answer places by external qid (what a RankedQuery names), per label-set version. */
const placesByQidCache = (data: TCacheHolder) =>
  cacheOf(data).per("systems.placesByQidCache", () => new WeakMap<TDashboardData, Map<string, ReferenceSpan[]>>());
function placesByQid(data: TDashboardData): Map<string, ReferenceSpan[]> {
  let m = placesByQidCache(data).get(data);
  if (!m) {
    m = new Map();
    for (const [queryId, places] of answerPlacesByQuery(data))
      m.set(data.queries.get(queryId)?.qid ?? String(queryId), places);
    placesByQidCache(data).set(data, m);
  }
  return m;
}
