import { createHash } from "node:crypto";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { bulkTransaction, insertStamped } from "../db/bulk.ts";
import { insertImportRecord } from "../imports/record.ts";
import { referenceLabels, type ReferenceLabelRow } from "../labels/reference.ts";
import { referenceSpans, type MarkedStart, type ReferenceSpan } from "../stats/time/reference.ts";
import {
  DEFAULT_TRANSFER,
  TRANSFER_RULE_VERSION,
  openSecondsOf,
  transferLabels,
  type LabelledSpan,
  type TargetChunk,
  type TransferOptions,
  type TransferredLabel,
} from "../stats/time/transfer.ts";
import { buildPool } from "../pooling/build.ts";
import { findChunking } from "./store.ts";
import { field, say } from "../terms.ts";

/**
 * Label transfer as a judge (rule version 2): the human reference
 * labels of chunking `from` (A), as time spans in their videos, and each question's reference spans
 * in time (its answer places and the corrected starts of grade-3 labels in any chunking:
 * lib/stats/time/reference.ts) are carried onto chunking `to` (B) by the pure rule `transferLabels`
 * (lib/stats/time/transfer.ts, where the rule and its parameters are stated) and stored as
 * ordinary JudgeLabel rows under the judge `transfer:A->B`. The dashboard then audits them against
 * blind human labels of B exactly as it audits an LLM judge.
 *
 * - Source: `referenceLabels(db, projectId, { chunkingId: A })` (agreed, adjudicated and imported
 *   human labels of A's chunks): each gives a span (video, chunk start, chunk end) and its grade.
 *   The questions transferred are those with a label of A.
 * - References: per such question, `referenceSpans(its QueryPlace rows, its grade-3 labels'
 *   corrected starts in every chunking)`.
 * - Targets: B's chunks in the videos of those labels and references.
 * - Storage: one transaction deletes the judge's earlier labels (an earlier transfer of the same
 *   pair) and writes the new ones, each with `provenance` (JSON, `TTransferProvenance`, with the
 *   rule's version), plus an ImportRecord (kind "transfer") so that the dashboard sees the change
 *   even when the counts and ids of the table look the same.
 * - `labelled`: labels written; `byGrade`: how many per grade; `unjudged`: the pairs that
 *   `pool --chunking B` then adds at the project's pool depth (`depth`): in B's runs' top K, not
 *   pooled yet and without a transfer label (lib/pooling/build.ts, as a dry run), 0 when B has no run.
 * Identity (A = B) gives A's labels exactly (rule 1, exact spans).
 */
export type TTransferParams = { from: string; to: string } & TransferOptions;
/** `unjudged`: the pairs `pool --chunking B` would then add at the project's pool depth `depth` (0 when B has no run). */
export type TTransferResult = {
  judge: string;
  labelled: number;
  unjudged: number;
  depth: number;
  byGrade: Record<number, number>;
};

/** What one stored transfer label records about where its grade came from. */
export type TTransferProvenance = {
  /** The rule's version (lib/stats/time/transfer.ts TRANSFER_RULE_VERSION). */
  version: number;
  from: string;
  to: string;
  rule: TransferredLabel["rule"];
  /** The parameters, `openSeconds` as used (the median of the closed reference spans when not given). */
  parameters: Omit<Required<TransferOptions>, "openSeconds"> & { openSeconds: number };
  /** The reference span that gave the grade (video time, seconds); `open` when its end was assumed. */
  reference: { start: number; end: number; open: boolean } | null;
  /** Share of the chunk's seconds shown free of any answer (rule zero), else null. */
  free: number | null;
  /** Every labelled span of A the chunk shares seconds with: A's chunk id, its grade, seconds shared, and the shares. */
  sources: { chunk: string; grade: number; seconds: number; coverage: number; share: number; gives: number | null }[];
};

export const transferJudgeName = (from: string, to: string) => `transfer:${from}->${to}`;

const round = (x: number) => Math.round(x * 1e6) / 1e6;

function checkParams(o: Required<TransferOptions>): void {
  const bad = (k: keyof TransferOptions, expected: string, v: number | null) => {
    throw new AppError("bad_input", say`${field(k)}: expected ${expected}, got ${v}`);
  };
  if (!(o.holdShare > 0 && o.holdShare <= 1)) bad("holdShare", "a share in (0, 1]", o.holdShare);
  if (!(o.zeroShare >= 0 && o.zeroShare <= 1)) bad("zeroShare", "a share in [0, 1]", o.zeroShare);
  for (const k of ["partSeconds", "nearSeconds"] as const)
    if (!(Number.isFinite(o[k]) && o[k] >= 0)) bad(k, "seconds ≥ 0", o[k]);
  if (o.openSeconds !== null && !(Number.isFinite(o.openSeconds) && o.openSeconds > 0))
    bad("openSeconds", "seconds > 0", o.openSeconds);
}

/**
 * Reference spans (lib/stats/time/reference.ts) of the given questions, keyed by internal query id,
 * videos by external id: their answer places and the corrected starts of their grade-3 labels, each
 * with the label's answer end when one was marked.
 */
export async function questionReferenceSpans(
  db: Db,
  queryIds: readonly number[],
  labels: readonly ReferenceLabelRow[],
): Promise<Map<number, ReferenceSpan[]>> {
  const starts = new Map<number, MarkedStart[]>();
  for (const l of labels) {
    if (l.grade !== 3 || l.startSeconds === null) continue;
    const list = starts.get(l.queryId);
    const s = { video: l.video, start: l.startSeconds, end: l.endSeconds };
    if (list) list.push(s);
    else starts.set(l.queryId, [s]);
  }
  const places = new Map<number, { video: string | null; start: number; end: number | null }[]>();
  for (let i = 0; i < queryIds.length; i += 500) {
    const rows = await db.queryPlace.findMany({
      where: { queryId: { in: queryIds.slice(i, i + 500) } },
      select: { queryId: true, startSeconds: true, endSeconds: true, video: { select: { externalId: true } } },
      orderBy: { id: "asc" },
    });
    for (const r of rows) {
      const p = { video: r.video?.externalId ?? null, start: r.startSeconds, end: r.endSeconds };
      const list = places.get(r.queryId);
      if (list) list.push(p);
      else places.set(r.queryId, [p]);
    }
  }
  const out = new Map<number, ReferenceSpan[]>();
  for (const q of queryIds) {
    const spans = referenceSpans(places.get(q) ?? [], starts.get(q) ?? []);
    if (spans.length) out.set(q, spans);
  }
  return out;
}

export async function transferJudge(db: Db, projectId: number, params: TTransferParams): Promise<TTransferResult> {
  const [a, b] = [await findChunking(db, projectId, params.from), await findChunking(db, projectId, params.to)];
  const options: Required<TransferOptions> = {
    holdShare: params.holdShare ?? DEFAULT_TRANSFER.holdShare,
    partSeconds: params.partSeconds ?? DEFAULT_TRANSFER.partSeconds,
    nearSeconds: params.nearSeconds ?? DEFAULT_TRANSFER.nearSeconds,
    zeroShare: params.zeroShare ?? DEFAULT_TRANSFER.zeroShare,
    openSeconds: params.openSeconds ?? DEFAULT_TRANSFER.openSeconds,
  };
  checkParams(options);
  const judge = transferJudgeName(a.name, b.name);

  const all = await referenceLabels(db, projectId);
  const labels = all.filter((l) => l.chunking === a.name);
  if (labels.length === 0)
    throw new AppError(
      "bad_input",
      `chunking "${a.name}" has no human reference labels to transfer (label its pool, or import labels for its chunks)`,
    );
  const queryIds = [...new Set(labels.map((l) => l.queryId))];
  const refs = await questionReferenceSpans(db, queryIds, all);
  const references = new Map([...refs].map(([q, list]) => [String(q), list]));
  const used = { ...options, openSeconds: openSecondsOf(references, options.openSeconds) };
  // A label's id is "<queryId>:<chunkId>"; the query key is the internal query id.
  const spans: LabelledSpan[] = labels.map((l) => ({
    id: `${l.queryId}:${l.chunkId}`,
    query: String(l.queryId),
    video: l.video,
    start: l.chunkStart,
    end: l.chunkEnd,
    grade: l.grade,
  }));
  const sourceOf = new Map(
    labels.map((l) => [`${l.queryId}:${l.chunkId}`, { docid: l.docid, seconds: l.chunkEnd - l.chunkStart }]),
  );

  const videos = new Set(labels.map((l) => l.video));
  for (const list of refs.values()) for (const r of list) videos.add(r.video);
  const targets = await targetChunks(db, b.id, [...videos]);
  const derived = transferLabels(spans, targets, used, references);

  const rows: [number, string, number, number, number, string, string][] = derived.map((d) => {
    const provenance: TTransferProvenance = {
      version: TRANSFER_RULE_VERSION,
      from: a.name,
      to: b.name,
      rule: d.rule,
      parameters: used,
      reference: d.reference && {
        start: round(d.reference.start),
        end: round(d.reference.end),
        open: d.reference.open,
      },
      free: d.free === null ? null : round(d.free),
      sources: d.sources.map((s) => {
        const src = sourceOf.get(s.labelId)!;
        return {
          chunk: src.docid,
          grade: s.grade,
          seconds: round(s.coverage * src.seconds),
          coverage: round(s.coverage),
          share: round(s.share),
          gives: s.gives,
        };
      }),
    };
    return [
      projectId,
      judge,
      Number(d.query),
      Number(d.chunkId),
      d.grade,
      `label transfer v${TRANSFER_RULE_VERSION} (${d.rule}) from chunking ${a.name}`,
      JSON.stringify(provenance),
    ];
  });
  rows.sort((x, y) => x[2] - y[2] || x[3] - y[3]);
  const byGrade: Record<number, number> = { 0: 0, 1: 0, 2: 0, 3: 0 };
  for (const r of rows) byGrade[r[4]]++;

  await bulkTransaction(db, async (tx) => {
    await tx.run(`DELETE FROM "JudgeLabel" WHERE "projectId" = ? AND "judge" = ?`, [projectId, judge]);
    await insertStamped(
      tx,
      "JudgeLabel",
      [
        { name: "projectId", type: "int" },
        { name: "judge", type: "text" },
        { name: "queryId", type: "int" },
        { name: "chunkId", type: "int" },
        { name: "grade", type: "int" },
        { name: "rationale", type: "text" },
        { name: "provenance", type: "text" },
      ],
      rows,
    );
    const sha256 = createHash("sha256")
      .update(rows.map((r) => `${r[2]}\t${r[3]}\t${r[4]}`).join("\n"))
      .digest("hex");
    await insertImportRecord(tx, { projectId, kind: "transfer", fileName: judge, sha256, rows: rows.length });
  });
  // What `pool --chunking B` would add now at the project's pool depth (its dry run): B's runs' top-K
  // pairs of accepted questions, not pooled yet, without a transfer label onto B.
  const { poolDepth: depth } = await db.project.findUniqueOrThrow({
    where: { id: projectId },
    select: { poolDepth: true },
  });
  const hasRuns = (await db.run.count({ where: { projectId, chunkingId: b.id } })) > 0;
  const unjudged = hasRuns ? (await buildPool(db, projectId, { depth, chunking: b.name, dryRun: true })).newItems : 0;
  return { judge, labelled: rows.length, unjudged, depth, byGrade };
}

/** B's chunks in the given videos (by external id), video by video, by start. */
async function targetChunks(db: Db, chunkingId: number, videos: string[]): Promise<TargetChunk[]> {
  const out: TargetChunk[] = [];
  for (let i = 0; i < videos.length; i += 500) {
    const rows = await db.chunk.findMany({
      where: { chunkingId, video: { externalId: { in: videos.slice(i, i + 500) } } },
      select: { id: true, startSeconds: true, endSeconds: true, video: { select: { externalId: true } } },
      orderBy: [{ videoId: "asc" }, { startSeconds: "asc" }],
    });
    for (const c of rows)
      out.push({ id: String(c.id), video: c.video.externalId, start: c.startSeconds, end: c.endSeconds });
  }
  return out;
}
