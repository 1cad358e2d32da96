import type { Db } from "../db/client.ts";
import { loadItemLabels, ruleSettings, type TItemLabels } from "./load.ts";
import { itemDecision, type TLabelInput, type TRuleSettings } from "./rule.ts";

export type TReferenceStatus = "agreed" | "adjudicated" | "imported";
export type ReferenceLabelRow = {
  queryId: number;
  chunkId: number;
  qid: string;
  docid: string;
  poolItemId: string | null;
  grade: number;
  startSeconds: number | null;
  /** Where the answer ends (the annotators' answer-end key, or the adjudicator's); null when not marked or imported. */
  endSeconds: number | null;
  status: TReferenceStatus;
  /** Annotators who graded the item (0 for imported labels). */
  annotators: number;
  /** The import's source name for imported labels; null for labels made here. */
  source: string | null;
  /**
   * Where the label is in the video: the video's external id, the labelled
   * chunk's start and end (seconds) and its chunking's name. `startSeconds` above is the corrected
   * start (where the answer begins, as the annotators or the import gave it).
   */
  video: string;
  chunkStart: number;
  chunkEnd: number;
  chunking: string;
  /**
   * Provenance: the annotators' flags (union, sorted) and non-empty notes (submission
   * order), and the adjudication's revision (1 = never revised; null when not adjudicated).
   * Imported labels carry none.
   */
  flags: string[];
  notes: string[];
  revision: number | null;
};

type Place = Pick<ReferenceLabelRow, "video" | "chunkStart" | "chunkEnd" | "chunking">;

/** Video, times and chunking of each chunk, looked up in batches. */
async function chunkPlaces(db: Db, chunkIds: number[]): Promise<Map<number, Place & { chunkingId: number }>> {
  const places = new Map<number, Place & { chunkingId: number }>();
  for (let i = 0; i < chunkIds.length; i += 5000) {
    const rows = await db.chunk.findMany({
      where: { id: { in: chunkIds.slice(i, i + 5000) } },
      select: {
        id: true,
        chunkingId: true,
        startSeconds: true,
        endSeconds: true,
        video: { select: { externalId: true } },
        chunking: { select: { name: true } },
      },
    });
    for (const c of rows)
      places.set(c.id, {
        chunkingId: c.chunkingId,
        video: c.video.externalId,
        chunkStart: c.startSeconds,
        chunkEnd: c.endSeconds,
        chunking: c.chunking.name,
      });
  }
  return places;
}

/**
 * The final human label of one pool item, if it has one, under the editing rule (lib/labels/rule.ts):
 * an adjudication wins whatever later edits say; a disputed item has none until adjudicated.
 */
export function finalLabel(
  item: {
    judgements: readonly TLabelInput[];
    adjudication: { grade: number; startSeconds: number | null; endSeconds?: number | null } | null;
    disputed: boolean;
  },
  settings: TRuleSettings,
): { grade: number; startSeconds: number | null; endSeconds: number | null; status: "agreed" | "adjudicated" } | null {
  const a = item.adjudication;
  if (a)
    return { grade: a.grade, startSeconds: a.startSeconds, endSeconds: a.endSeconds ?? null, status: "adjudicated" };
  const d = itemDecision(item.judgements, settings, item.disputed);
  return d.state === "agreed"
    ? { grade: d.grade, startSeconds: d.startSeconds, endSeconds: d.endSeconds, status: "agreed" }
    : null;
}

/**
 * The project's reference label set: one label per (query, chunk).
 *
 * - Human final labels: adjudicated items (the adjudicator's grade and start) and items whose
 *   annotators agree and that were never disputed (lib/labels/rule.ts, `itemDecision`).
 * - Imported reference labels (ReferenceLabel rows) for every other pair. A human final label
 *   wins over an imported one for the same pair: it was made here, blind, under this project's
 *   rule, and usually later. When several imports label the same pair, the latest import wins
 *   (ties: source name in ascending order).
 * Sorted by qid, then docid (plain string order), so exports are deterministic. With `chunkingId`,
 * only the labels of that chunking's chunks.
 */
export async function referenceLabels(
  db: Db,
  projectId: number,
  opts: { chunkingId?: number } = {},
): Promise<ReferenceLabelRow[]> {
  const [settings, items, imported] = await Promise.all([
    ruleSettings(db, projectId),
    loadItemLabels(db, projectId),
    db.referenceLabel.findMany({
      where: { projectId },
      select: {
        source: true,
        queryId: true,
        chunkId: true,
        grade: true,
        startSeconds: true,
        createdAt: true,
        query: { select: { externalId: true } },
        chunk: { select: { externalId: true } },
      },
    }),
  ]);
  const rows = new Map<string, Omit<ReferenceLabelRow, keyof Place>>();
  const poolIdByPair = new Map<string, string>();
  for (const it of items) {
    const key = `${it.queryId}:${it.chunkId}`;
    poolIdByPair.set(key, it.id);
    const f = finalLabel(it, settings);
    if (f)
      rows.set(key, {
        queryId: it.queryId,
        chunkId: it.chunkId,
        qid: it.qid,
        docid: it.docid,
        poolItemId: it.id,
        ...f,
        annotators: it.judgements.length,
        source: null,
        ...provenance(it),
      });
  }
  imported.sort(importPrecedence);
  for (const r of imported) {
    const key = `${r.queryId}:${r.chunkId}`;
    if (rows.has(key)) continue;
    rows.set(key, {
      queryId: r.queryId,
      chunkId: r.chunkId,
      qid: r.query.externalId,
      docid: r.chunk.externalId,
      poolItemId: poolIdByPair.get(key) ?? null,
      grade: r.grade,
      startSeconds: r.startSeconds,
      endSeconds: null,
      status: "imported",
      annotators: 0,
      source: r.source,
      flags: [],
      notes: [],
      revision: null,
    });
  }
  const places = await chunkPlaces(db, [...new Set([...rows.values()].map((r) => r.chunkId))]);
  const out: ReferenceLabelRow[] = [];
  for (const r of rows.values()) {
    const place = places.get(r.chunkId);
    if (!place) continue; // the chunk was deleted meanwhile
    if (opts.chunkingId !== undefined && place.chunkingId !== opts.chunkingId) continue;
    // A grade-0 label has no start, whatever its source: agreed grade-0 items never had one
    // (lib/labels/rule.ts), and adjudications decided before that rule held, or imports, may.
    const startSeconds = r.grade === 0 ? null : r.startSeconds;
    out.push({
      ...r,
      startSeconds,
      endSeconds: r.grade === 0 ? null : r.endSeconds,
      video: place.video,
      chunkStart: place.chunkStart,
      chunkEnd: place.chunkEnd,
      chunking: place.chunking,
    });
  }
  return out.sort(byQidDocid);
}

function provenance(it: TItemLabels): Pick<ReferenceLabelRow, "flags" | "notes" | "revision"> {
  const flags = [...new Set(it.judgements.flatMap((j) => j.flags))].sort();
  const notes = it.judgements.map((j) => j.notes.trim()).filter((n) => n !== "");
  return { flags, notes, revision: it.adjudication?.revision ?? null };
}

/**
 * Which imported label of a pair wins: the latest import first, ties by source name in plain
 * string order (not the database's collation, so SQLite and PostgreSQL agree). The dashboard
 * (lib/dashboard/load/imports.ts) orders imports with this too.
 */
export function importPrecedence(
  a: { createdAt: Date; source: string },
  b: { createdAt: Date; source: string },
): number {
  return b.createdAt.getTime() - a.createdAt.getTime() || (a.source < b.source ? -1 : a.source > b.source ? 1 : 0);
}

export function byQidDocid(a: { qid: string; docid: string }, b: { qid: string; docid: string }): number {
  if (a.qid !== b.qid) return a.qid < b.qid ? -1 : 1;
  if (a.docid !== b.docid) return a.docid < b.docid ? -1 : 1;
  return 0;
}
