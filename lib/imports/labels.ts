import type { Db } from "../db/client.ts";
import { parseJsonl } from "../formats/jsonl.ts";
import { scanQrels } from "../formats/trec.ts";
import type { LocatedError } from "../errors.ts";
import { chunkResolver } from "../chunkings/store.ts";
import { bulkTransaction, type BulkTx } from "../db/bulk.ts";
import { dateValue, inTextList, listParam, notIn } from "../db/dialect.ts";
import { loadIdMap } from "../db/id-index.ts";
import { insertImportRecord } from "./record.ts";
import {
  ErrorList,
  isJsonlLabelFile,
  readInput,
  type ImportInput,
  type ImportOptions,
  type ImportResult,
} from "./input.ts";
import { ZJudgeRow, ZLabelRow } from "./schemas.ts";

/**
 * Existing human labels (reference labels, by source) and LLM-judge labels (by judge), from TREC
 * qrels (`qid iter docid grade`) or JSONL. Each (query, chunk) appears once per file; both must
 * be imported already. A changed label is written with a LabelEvent of its own (the label before
 * and after); the new labels of one import share one LabelEvent naming the file, its sha256 and how
 * many it created (the label rows themselves hold what was imported; a later change records the
 * value it replaces, so no imported value is lost from the history). Identical labels are left
 * alone, so importing a file twice changes nothing the second time. `clip` maps qrels
 * grades outside 0–3 into that range (TREC collections with grade 4 or −1) instead of refusing them.
 */
type LabelRow = {
  qid: string;
  docid: string;
  grade: number;
  start: number | null;
  rationale: string | null;
  /** A judge's probabilities of grade ≥ 1 and ≥ 2 (JSONL judge files only). */
  pGe1: number | null;
  pGe2: number | null;
  line: number;
  jsonl: boolean;
};
type TRowExtras = Pick<LabelRow, "start" | "rationale" | "pGe1" | "pGe2">;
const NO_EXTRAS: TRowExtras = { start: null, rationale: null, pGe1: null, pGe2: null };
type Resolved = LabelRow & { queryId: number; chunkId: number };

/**
 * A number naming a (query, chunk) pair of internal ids, for the maps of one import: exact while
 * ids stay below 2^26 (67 million rows a table), past that a string.
 */
const PAIR_SPAN = 2 ** 26;
const pairKey = (queryId: number, chunkId: number): number | string =>
  queryId < PAIR_SPAN && chunkId < PAIR_SPAN ? queryId * PAIR_SPAN + chunkId : `${queryId}:${chunkId}`;

/**
 * The file's labels with their ids resolved. The id maps are loaded once (queries; chunks: one
 * indexed map per chunking, lib/chunkings/store.ts chunkResolver) before the file is read, and
 * qrels lines are resolved as they are scanned (lib/formats/trec.ts scanQrels), so a 200,000-line
 * file makes one object a row.
 */
async function readLabelRows(
  db: Db,
  projectId: number,
  name: string,
  bytes: Buffer,
  kind: "labels" | "judge",
  clip: boolean,
  chunking?: string,
): Promise<Resolved[]> {
  const errors = new ErrorList();
  const jsonl = isJsonlLabelFile(name, bytes);
  const [queries, chunkOf] = await Promise.all([
    loadIdMap(db, "Query", projectId),
    chunkResolver(db, projectId, chunking),
  ]);
  const resolved: Resolved[] = [];
  const seen = new Map<number | string, number>();
  // Each line once per (query, chunk), by resolved ids; a line that does not resolve is reported and left out.
  const add = (qid: string, docid: string, grade: number, extras: TRowExtras, line: number) => {
    const queryId = queries.get(qid);
    const chunkId = chunkOf(docid);
    if (queryId === undefined)
      return errors.push({
        file: name,
        line,
        field: jsonl ? "query" : "qid",
        message: `unknown query "${qid}"; expected the id of a query imported into this project`,
      });
    if (typeof chunkId === "string")
      return errors.push({ file: name, line, field: jsonl ? "chunk" : "docid", message: chunkId });
    const key = pairKey(queryId, chunkId);
    const first = seen.get(key);
    if (first !== undefined)
      return errors.push(
        jsonl
          ? {
              file: name,
              line,
              field: "chunk",
              message: `chunk "${docid}" is labelled twice for query "${qid}" (first on line ${first}); expected one label per query and chunk`,
            }
          : {
              file: name,
              line,
              field: "docid",
              message: `docid "${docid}" is judged twice for query "${qid}" (first on line ${first})`,
            },
      );
    // P(grade ≥ 2) ≤ P(grade ≥ 1): the event ≥ 2 is part of the event ≥ 1.
    if (extras.pGe1 !== null && extras.pGe2 !== null && extras.pGe2 > extras.pGe1)
      return errors.push({
        file: name,
        line,
        field: "p_ge2",
        message: `expected p_ge2 (the probability of grade ≥ 2) at most p_ge1 (${extras.pGe1}), got ${extras.pGe2}`,
      });
    seen.set(key, line);
    resolved.push({ qid, docid, grade, ...extras, line, jsonl, queryId, chunkId });
  };
  if (jsonl && kind === "labels") {
    const parsed = parseJsonl(bytes, name, ZLabelRow, "one JSON object per line: query, chunk, grade, start");
    errors.push(...parsed.errors);
    for (const r of parsed.rows) add(r.query, r.chunk, r.grade, { ...NO_EXTRAS, start: r.start ?? null }, r.line);
  } else if (jsonl) {
    const what = "one JSON object per line: query, chunk, grade, rationale, p_ge1, p_ge2";
    const parsed = parseJsonl(bytes, name, ZJudgeRow, what);
    errors.push(...parsed.errors);
    for (const r of parsed.rows) {
      const extras = { ...NO_EXTRAS, rationale: r.rationale ?? null, pGe1: r.p_ge1 ?? null, pGe2: r.p_ge2 ?? null };
      add(r.query, r.chunk, r.grade, extras, r.line);
    }
  } else {
    const qrelErrors: LocatedError[] = [];
    scanQrels(bytes, name, { clip }, (qid, docid, grade, line) => add(qid, docid, grade, NO_EXTRAS, line), qrelErrors);
    errors.push(...qrelErrors);
  }
  errors.throwIfAny();
  return resolved;
}

async function poolItemIds(db: Db, projectId: number): Promise<Map<number | string, string>> {
  const items = await db.poolItem.findMany({
    where: { projectId },
    select: { id: true, queryId: true, chunkId: true },
  });
  return new Map(items.map((p) => [pairKey(p.queryId, p.chunkId), p.id]));
}

/** A column a label table stores beside the grade, compared on re-import. */
type TExtraColumn = { field: string; type: "float" | "text"; of: (r: Resolved) => number | string | null };
type TExtraValues = (number | string | null)[];

/**
 * What differs between the two label tables: the table, the column naming a set of labels
 * (`source` of reference labels, `judge` of judge labels) and its value, the extra columns
 * compared and stored (`startSeconds`; `rationale`, `pGe1`, `pGe2`), the kind recorded, and the
 * table's read (its extras in the same order).
 */
type LabelTable = {
  kind: "labels" | "judge";
  table: "ReferenceLabel" | "JudgeLabel";
  event: "reference_import" | "judge_import";
  ownerField: "source" | "judge";
  owner: string;
  extras: TExtraColumn[];
  /** Writes a changed label: its grade and extra columns from the file's row (a typed statement per table). */
  update: (tx: BulkTx, id: number, r: Resolved) => Promise<unknown>;
  findAll: () => Promise<StoredLabel[]>;
};
type StoredLabel = { id: number; queryId: number; chunkId: number; grade: number; extra: TExtraValues };
type Change = { r: Resolved; extra: TExtraValues; old: StoredLabel | undefined };
const sameExtras = (a: TExtraValues, b: TExtraValues) => a.every((v, i) => v === b[i]);

/**
 * Validates a labels file and writes what is new or changed, in one
 * transaction through the bulk path (lib/db/bulk.ts: multi-row statements on SQLite, arrays on
 * PostgreSQL), as runs and chunks are written: Prisma's createMany went row by row.
 */
async function importLabels(
  db: Db,
  projectId: number,
  input: ImportInput,
  opts: ImportOptions & { clip?: boolean; chunking?: string },
  t: LabelTable,
): Promise<ImportResult> {
  const { name, bytes, sha256 } = await readInput(input);
  const rows = await readLabelRows(db, projectId, name, bytes, t.kind, opts.clip ?? false, opts.chunking);
  const existing = new Map((await t.findAll()).map((l) => [pairKey(l.queryId, l.chunkId), l]));
  const pool = await poolItemIds(db, projectId);
  const changes: Change[] = [];
  for (const r of rows) {
    const old = existing.get(pairKey(r.queryId, r.chunkId));
    const extra = t.extras.map((x) => x.of(r));
    if (old && old.grade === r.grade && sameExtras(old.extra, extra)) continue;
    changes.push({ r, extra, old });
  }
  const creates = changes.filter((c) => !c.old);
  const updates = changes.filter((c) => c.old);
  // Key order of the event JSON: owner, qid, docid, grade, the extra columns (a judge's
  // probabilities only when the label has one, so that a label without stays as it was recorded).
  // Pooled pairs that get a label of this source: those labelled by no source before leave the
  // annotation queue (releaseUngraded decides which, in the database).
  const pooledCreates =
    t.kind === "labels" ? [...new Set(creates.flatMap((c) => pool.get(pairKey(c.r.queryId, c.r.chunkId)) ?? []))] : [];
  let released = 0;
  const describe = (r: Resolved, grade: number, extra: TExtraValues) =>
    JSON.stringify({
      [t.ownerField]: t.owner,
      qid: r.qid,
      docid: r.docid,
      grade,
      ...Object.fromEntries(t.extras.flatMap((x, i) => (i === 0 || extra[i] !== null ? [[x.field, extra[i]]] : []))),
    });
  await bulkTransaction(db, async (tx) => {
    const at = dateValue(tx.provider);
    // Before the new labels are written, so that "labelled before" is the state this import found.
    released = await releaseUngraded(tx, projectId, pooledCreates);
    for (const c of updates) await t.update(tx, c.old!.id, c.r);
    await tx.insert(
      t.table,
      [
        { name: "projectId", type: "int" },
        { name: t.ownerField, type: "text" },
        { name: "queryId", type: "int" },
        { name: "chunkId", type: "int" },
        { name: "grade", type: "int" },
        ...t.extras.map((x) => ({ name: x.field, type: x.type })),
        { name: "createdAt", type: "timestamp" },
      ],
      creates.length,
      (i) => [
        projectId,
        t.owner,
        creates[i].r.queryId,
        creates[i].r.chunkId,
        creates[i].r.grade,
        ...creates[i].extra,
        at,
      ],
    );
    // The history: one event a changed label (before and after), one for all the new ones. A
    // 200,000-label import made 200,000 events before, most of PostgreSQL's time on it.
    const events = creates.length ? [...updates, null] : updates;
    await tx.insert(
      "LabelEvent",
      [
        { name: "projectId", type: "int" },
        { name: "poolItemId", type: "text" },
        { name: "kind", type: "text", pgType: '"LabelKind"' },
        { name: "before", type: "text" },
        { name: "after", type: "text" },
        { name: "createdAt", type: "timestamp" },
      ],
      events.length,
      (i) => {
        const c = events[i];
        if (c === null)
          return [
            projectId,
            null,
            t.event,
            null,
            JSON.stringify({ [t.ownerField]: t.owner, file: name, sha256, created: creates.length }),
            at,
          ];
        return [
          projectId,
          pool.get(pairKey(c.r.queryId, c.r.chunkId)) ?? null,
          t.event,
          describe(c.r, c.old!.grade, c.old!.extra),
          describe(c.r, c.r.grade, c.extra),
          at,
        ];
      },
    );
    await insertImportRecord(tx, { projectId, kind: t.kind, fileName: name, sha256, rows: changes.length });
  });
  opts.onProgress?.(rows.length, rows.length);
  return {
    kind: t.kind,
    file: name,
    sha256,
    rows: rows.length,
    created: creates.length,
    updated: updates.length,
    unchanged: rows.length - changes.length,
    ...(t.kind === "labels" ? { released } : {}),
  };
}

/**
 * An imported human label is a reference label: a pool item that gets its first
 * one leaves the annotation queue, so its assignments are released — unless someone has graded it
 * already (a submitted grade is never lost: such an item keeps all its assignments and is finished
 * as usual). Labels that change an existing imported label release nothing, so a re-grade asked
 * for with `assign --include-labelled` survives importing the file again.
 *
 * One statement, run before the new labels are written: of `poolItemIds` (the pooled pairs this
 * import creates a label for), the assignments of items with no reference label of any source yet
 * and no judgement are deleted. The items already labelled are found by one pass over the
 * project's labels (lib/db/dialect.ts notIn), not a look-up per item. Returns the
 * items released.
 */
async function releaseUngraded(tx: BulkTx, projectId: number, poolItemIds: readonly string[]): Promise<number> {
  if (poolItemIds.length === 0) return 0;
  const labelled = `SELECT p."id" FROM "ReferenceLabel" r JOIN "PoolItem" p ON p."projectId" = r."projectId" AND p."queryId" = r."queryId" AND p."chunkId" = r."chunkId" WHERE r."projectId" = ?`;
  const notLabelled = notIn(tx.provider, '"Assignment"."poolItemId"', labelled, 'p."id"');
  const sql = `DELETE FROM "Assignment" WHERE ${inTextList(tx.provider, '"poolItemId"')} AND ${notLabelled} AND NOT EXISTS (SELECT 1 FROM "Judgement" j WHERE j."poolItemId" = "Assignment"."poolItemId") RETURNING "poolItemId"`;
  const rows = await tx.all<{ poolItemId: string }>(sql, [listParam(tx.provider, poolItemIds), projectId]);
  return new Set(rows.map((r) => r.poolItemId)).size;
}

export function importReferenceLabels(
  db: Db,
  projectId: number,
  input: ImportInput,
  opts: ImportOptions & { source: string; clip?: boolean; chunking?: string },
): Promise<ImportResult> {
  const { source } = opts;
  return importLabels(db, projectId, input, opts, {
    kind: "labels",
    event: "reference_import",
    ownerField: "source",
    table: "ReferenceLabel",
    owner: source,
    extras: [{ field: "startSeconds", type: "float", of: (r) => r.start }],
    update: (tx, id, r) =>
      tx.query((k) =>
        k.updateTable("ReferenceLabel").set({ grade: r.grade, startSeconds: r.start }).where("id", "=", id),
      ),
    findAll: async () =>
      (
        await db.referenceLabel.findMany({
          where: { projectId, source },
          select: { id: true, queryId: true, chunkId: true, grade: true, startSeconds: true },
        })
      ).map((l) => ({ id: l.id, queryId: l.queryId, chunkId: l.chunkId, grade: l.grade, extra: [l.startSeconds] })),
  });
}

export function importJudgeLabels(
  db: Db,
  projectId: number,
  input: ImportInput,
  opts: ImportOptions & { judge: string; clip?: boolean; chunking?: string },
): Promise<ImportResult> {
  const { judge } = opts;
  return importLabels(db, projectId, input, opts, {
    kind: "judge",
    event: "judge_import",
    ownerField: "judge",
    table: "JudgeLabel",
    owner: judge,
    extras: [
      { field: "rationale", type: "text", of: (r) => r.rationale },
      { field: "pGe1", type: "float", of: (r) => r.pGe1 },
      { field: "pGe2", type: "float", of: (r) => r.pGe2 },
    ],
    update: (tx, id, r) =>
      tx.query((k) =>
        k
          .updateTable("JudgeLabel")
          .set({ grade: r.grade, rationale: r.rationale, pGe1: r.pGe1, pGe2: r.pGe2 })
          .where("id", "=", id),
      ),
    findAll: async () =>
      (
        await db.judgeLabel.findMany({
          where: { projectId, judge },
          select: { id: true, queryId: true, chunkId: true, grade: true, rationale: true, pGe1: true, pGe2: true },
        })
      ).map((l) => ({
        id: l.id,
        queryId: l.queryId,
        chunkId: l.chunkId,
        grade: l.grade,
        extra: [l.rationale, l.pGe1, l.pGe2],
      })),
  });
}
