import { createHash } from "node:crypto";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { bulkTransaction, insertImportRecord, sqliteNow } from "../imports/bulk.ts";
import { referenceLabels } from "../labels/reference.ts";
import { DEFAULT_TRANSFER, transferLabels, type LabelledSpan, type TargetChunk, type TransferOptions, type TransferredLabel } from "../stats/time/transfer.ts";
import { findChunking } from "./store.ts";

/**
 * Label transfer as a judge (issue 20 item 3): the human reference labels of chunking `from`
 * (A), as time spans in their videos, are carried onto chunking `to` (B) by the pure rule
 * `transferLabels` (lib/stats/time/transfer.ts, where the rule and its parameters are stated) and
 * stored as ordinary JudgeLabel rows under the judge `transfer:A->B`. The dashboard then audits
 * them against blind human labels of B exactly as it audits an LLM judge.
 *
 * - Source: `referenceLabels(db, projectId, { chunkingId: A })` (agreed, adjudicated and imported
 *   human labels of A's chunks): each gives a span (video, chunk start, chunk end), its grade and
 *   its corrected start.
 * - Targets: B's chunks in the videos those labels lie in, for the same queries.
 * - Storage: one transaction deletes the judge's earlier labels (an earlier transfer of the same
 *   pair) and writes the new ones, each with `provenance` (JSON, `TTransferProvenance`), plus an
 *   ImportRecord (kind "transfer") so that the dashboard sees the change even when the counts and
 *   ids of the table look the same.
 * - `labelled`: labels written; `byGrade`: how many per grade; `unjudged`: (query, chunk) pairs
 *   ranked by B's runs (any rank) that the transfer leaves without a label, 0 when B has no run.
 * Identity (A = B) gives A's labels exactly (rule 1, exact spans).
 */
export type TTransferParams = { from: string; to: string } & TransferOptions;
export type TTransferResult = { judge: string; labelled: number; unjudged: number; byGrade: Record<number, number> };

/** What one stored transfer label records about where its grade came from. */
export type TTransferProvenance = {
  from: string;
  to: string;
  rule: TransferredLabel["rule"];
  parameters: Required<TransferOptions>;
  /** Share of the chunk's seconds judged 0 outside relevant evidence (rule 6), else null. */
  zeroShare: number | null;
  /** Every labelled span of A the chunk touches: A's chunk id, its grade, seconds shared with B's chunk, and the shares. */
  sources: { chunk: string; grade: number; seconds: number; coverage: number; evidenceCoverage: number; share: number; gives: number | null }[];
};

export const transferJudgeName = (from: string, to: string) => `transfer:${from}->${to}`;

const round = (x: number) => Math.round(x * 1e6) / 1e6;

export async function transferJudge(db: Db, projectId: number, params: TTransferParams): Promise<TTransferResult> {
  const [a, b] = [await findChunking(db, projectId, params.from), await findChunking(db, projectId, params.to)];
  const options: Required<TransferOptions> = {
    minCoverage: params.minCoverage ?? DEFAULT_TRANSFER.minCoverage,
    minShare: params.minShare ?? DEFAULT_TRANSFER.minShare,
    zeroShare: params.zeroShare ?? DEFAULT_TRANSFER.zeroShare,
  };
  for (const [k, v] of Object.entries(options)) {
    if (!(v >= 0 && v < 1)) throw new AppError("bad_input", `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: expected a share in [0, 1), got ${v}`);
  }
  const judge = transferJudgeName(a.name, b.name);

  const labels = await referenceLabels(db, projectId, { chunkingId: a.id });
  if (labels.length === 0) throw new AppError("bad_input", `chunking "${a.name}" has no human reference labels to transfer (label its pool, or import labels for its chunks)`);
  // A label's id is "<queryId>:<chunkId>"; the query key is the internal query id.
  const spans: LabelledSpan[] = labels.map((l) => ({
    id: `${l.queryId}:${l.chunkId}`,
    query: String(l.queryId),
    video: l.video,
    start: l.chunkStart,
    end: l.chunkEnd,
    grade: l.grade,
    correctedStart: l.startSeconds,
  }));
  const sourceOf = new Map(labels.map((l) => [`${l.queryId}:${l.chunkId}`, { docid: l.docid, seconds: l.chunkEnd - l.chunkStart }]));

  const targets = await targetChunks(db, b.id, [...new Set(labels.map((l) => l.video))]);
  const derived = transferLabels(spans, targets, options);

  const rows: [number, string, number, number, number, string, string][] = derived.map((d) => {
    const provenance: TTransferProvenance = {
      from: a.name,
      to: b.name,
      rule: d.rule,
      parameters: options,
      zeroShare: d.zeroShare === null ? null : round(d.zeroShare),
      sources: d.sources.map((s) => {
        const src = sourceOf.get(s.labelId)!;
        return { chunk: src.docid, grade: s.grade, seconds: round(s.coverage * src.seconds), coverage: round(s.coverage), evidenceCoverage: round(s.evidenceCoverage), share: round(s.share), gives: s.gives };
      }),
    };
    return [projectId, judge, Number(d.query), Number(d.chunkId), d.grade, `label transfer (${d.rule}) from chunking ${a.name}`, JSON.stringify(provenance)];
  });
  rows.sort((x, y) => x[2] - y[2] || x[3] - y[3]);
  const byGrade: Record<number, number> = { 0: 0, 1: 0, 2: 0, 3: 0 };
  for (const r of rows) byGrade[r[4]]++;

  const unjudged = await bulkTransaction(db, async (tx) => {
    await tx.run(`DELETE FROM "JudgeLabel" WHERE "projectId" = ? AND "judge" = ?`, [projectId, judge]);
    const stamp = tx.provider === "sqlite" ? [{ name: "createdAt", type: "text" as const }] : [];
    const now = sqliteNow();
    await tx.insert(
      "JudgeLabel",
      [
        { name: "projectId", type: "int" },
        { name: "judge", type: "text" },
        { name: "queryId", type: "int" },
        { name: "chunkId", type: "int" },
        { name: "grade", type: "int" },
        { name: "rationale", type: "text" },
        { name: "provenance", type: "text" },
        ...stamp,
      ],
      rows.length,
      (i) => (stamp.length ? [...rows[i], now] : rows[i]),
    );
    const sha256 = createHash("sha256")
      .update(rows.map((r) => `${r[2]}\t${r[3]}\t${r[4]}`).join("\n"))
      .digest("hex");
    await insertImportRecord(tx, { projectId, kind: "transfer", fileName: judge, sha256, rows: rows.length });
    // B's ranked pairs without a transfer label (read inside the transaction: the labels just written).
    const left = await tx.all<{ n: number | bigint }>(
      `SELECT count(*) AS "n" FROM (SELECT DISTINCT e."queryId", e."chunkId" FROM "RunEntry" e JOIN "Run" r ON r."id" = e."runId"
         WHERE r."chunkingId" = ? AND NOT EXISTS (SELECT 1 FROM "JudgeLabel" j WHERE j."projectId" = ? AND j."judge" = ? AND j."queryId" = e."queryId" AND j."chunkId" = e."chunkId")) t`,
      [b.id, projectId, judge],
    );
    return Number(left[0]?.n ?? 0);
  });
  return { judge, labelled: rows.length, unjudged, byGrade };
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
    for (const c of rows) out.push({ id: String(c.id), video: c.video.externalId, start: c.startSeconds, end: c.endSeconds });
  }
  return out;
}
