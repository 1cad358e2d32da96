import type { Db, Prisma } from "../db/client.ts";
import { parseJsonl } from "../formats/jsonl.ts";
import { parseQrels } from "../formats/trec.ts";
import { loadIdIndex, loadIdMap } from "./bulk.ts";
import { ErrorList, fileKind, firstChar, readInput, TX_OPTIONS, type ImportInput, type ImportOptions, type ImportResult } from "./input.ts";
import { ZJudgeRow, ZLabelRow } from "./schemas.ts";

/**
 * Existing human labels (reference labels, by source) and LLM-judge labels (by judge), from TREC
 * qrels (`qid iter docid grade`) or JSONL. Each (query, chunk) appears once per file; both must
 * be imported already. New and changed labels are written with a LabelEvent each; identical
 * ones are left alone, so importing a file twice changes nothing the second time. `clip` maps qrels
 * grades outside 0–3 into that range (TREC collections with grade 4 or −1) instead of refusing them.
 */
type LabelRow = { qid: string; docid: string; grade: number; start: number | null; rationale: string | null; line: number; jsonl: boolean };
type Resolved = LabelRow & { queryId: number; chunkId: number };

async function readLabelRows(db: Db, projectId: number, name: string, bytes: Buffer, kind: "labels" | "judge", clip: boolean): Promise<Resolved[]> {
  const errors = new ErrorList();
  const ext = fileKind(name);
  const jsonl = ext === "jsonl" || ext === "json" || (ext !== "qrels" && ext !== "txt" && firstChar(bytes) === "{");
  const rows: LabelRow[] = [];
  if (jsonl) {
    const what = kind === "labels" ? "one JSON object per line: query, chunk, grade, start" : "one JSON object per line: query, chunk, grade, rationale";
    const parsed = kind === "labels" ? parseJsonl(bytes, name, ZLabelRow, what) : parseJsonl(bytes, name, ZJudgeRow, what);
    errors.push(...parsed.errors);
    const seen = new Map<string, number>();
    for (const r of parsed.rows) {
      const key = `${r.query}\u0000${r.chunk}`;
      const first = seen.get(key);
      if (first !== undefined) {
        errors.push({ file: name, line: r.line, field: "chunk", message: `chunk "${r.chunk}" is labelled twice for query "${r.query}" (first on line ${first}); expected one label per query and chunk` });
        continue;
      }
      seen.set(key, r.line);
      rows.push({ qid: r.query, docid: r.chunk, grade: r.grade, start: "start" in r ? (r.start ?? null) : null, rationale: "rationale" in r ? (r.rationale ?? null) : null, line: r.line, jsonl: true });
    }
  } else {
    const parsed = parseQrels(bytes, name, { clip });
    errors.push(...parsed.errors);
    for (const r of parsed.rows) rows.push({ ...r, start: null, rationale: null, jsonl: false });
  }
  const queries = await loadIdMap(db, "Query", projectId);
  const chunks = await loadIdIndex(db, "Chunk", projectId);
  const resolved: Resolved[] = [];
  for (const r of rows) {
    const queryId = queries.get(r.qid);
    const chunkId = chunks.get(r.docid);
    if (queryId === undefined) errors.push({ file: name, line: r.line, field: r.jsonl ? "query" : "qid", message: `unknown query "${r.qid}"; expected the id of a query imported into this project` });
    else if (chunkId === undefined) errors.push({ file: name, line: r.line, field: r.jsonl ? "chunk" : "docid", message: `unknown chunk "${r.docid}"; expected the id of a chunk imported into this project` });
    else resolved.push({ ...r, queryId, chunkId });
  }
  errors.throwIfAny();
  return resolved;
}

async function poolItemIds(db: Db, projectId: number): Promise<Map<string, string>> {
  const items = await db.poolItem.findMany({ where: { projectId }, select: { id: true, queryId: true, chunkId: true } });
  return new Map(items.map((p) => [`${p.queryId}:${p.chunkId}`, p.id]));
}

export async function importReferenceLabels(db: Db, projectId: number, input: ImportInput, opts: ImportOptions & { source: string; clip?: boolean }): Promise<ImportResult> {
  const creates: Prisma.ReferenceLabelCreateManyInput[] = [];
  const { name, bytes, sha256 } = await readInput(input);
  const rows = await readLabelRows(db, projectId, name, bytes, "labels", opts.clip ?? false);
  const existing = new Map((await db.referenceLabel.findMany({ where: { projectId, source: opts.source } })).map((l) => [`${l.queryId}:${l.chunkId}`, l]));
  const pool = await poolItemIds(db, projectId);
  let created = 0;
  let updated = 0;
  const events: Prisma.LabelEventCreateManyInput[] = [];
  await db.$transaction(async (tx) => {
    for (const r of rows) {
      const key = `${r.queryId}:${r.chunkId}`;
      const old = existing.get(key);
      if (old && old.grade === r.grade && old.startSeconds === r.start) continue;
      const after = { source: opts.source, qid: r.qid, docid: r.docid, grade: r.grade, startSeconds: r.start };
      if (old) {
        await tx.referenceLabel.update({ where: { id: old.id }, data: { grade: r.grade, startSeconds: r.start } });
        updated++;
      } else {
        creates.push({ projectId, source: opts.source, queryId: r.queryId, chunkId: r.chunkId, grade: r.grade, startSeconds: r.start });
        created++;
      }
      events.push({
        projectId,
        poolItemId: pool.get(key) ?? null,
        kind: "reference_import",
        before: old ? JSON.stringify({ source: opts.source, qid: r.qid, docid: r.docid, grade: old.grade, startSeconds: old.startSeconds }) : null,
        after: JSON.stringify(after),
      });
    }
    if (creates.length) await tx.referenceLabel.createMany({ data: creates });
    if (events.length) await tx.labelEvent.createMany({ data: events });
    await tx.importRecord.create({ data: { projectId, kind: "labels", fileName: name, sha256, rows: created + updated } });
  }, TX_OPTIONS);
  opts.onProgress?.(rows.length, rows.length);
  return { kind: "labels", file: name, sha256, rows: rows.length, created, updated, unchanged: rows.length - created - updated };
}

export async function importJudgeLabels(db: Db, projectId: number, input: ImportInput, opts: ImportOptions & { judge: string; clip?: boolean }): Promise<ImportResult> {
  const creates: Prisma.JudgeLabelCreateManyInput[] = [];
  const { name, bytes, sha256 } = await readInput(input);
  const rows = await readLabelRows(db, projectId, name, bytes, "judge", opts.clip ?? false);
  const existing = new Map((await db.judgeLabel.findMany({ where: { projectId, judge: opts.judge } })).map((l) => [`${l.queryId}:${l.chunkId}`, l]));
  const pool = await poolItemIds(db, projectId);
  let created = 0;
  let updated = 0;
  const events: Prisma.LabelEventCreateManyInput[] = [];
  await db.$transaction(async (tx) => {
    for (const r of rows) {
      const key = `${r.queryId}:${r.chunkId}`;
      const old = existing.get(key);
      if (old && old.grade === r.grade && old.rationale === r.rationale) continue;
      if (old) {
        await tx.judgeLabel.update({ where: { id: old.id }, data: { grade: r.grade, rationale: r.rationale } });
        updated++;
      } else {
        creates.push({ projectId, judge: opts.judge, queryId: r.queryId, chunkId: r.chunkId, grade: r.grade, rationale: r.rationale });
        created++;
      }
      events.push({
        projectId,
        poolItemId: pool.get(key) ?? null,
        kind: "judge_import",
        before: old ? JSON.stringify({ judge: opts.judge, qid: r.qid, docid: r.docid, grade: old.grade, rationale: old.rationale }) : null,
        after: JSON.stringify({ judge: opts.judge, qid: r.qid, docid: r.docid, grade: r.grade, rationale: r.rationale }),
      });
    }
    if (creates.length) await tx.judgeLabel.createMany({ data: creates });
    if (events.length) await tx.labelEvent.createMany({ data: events });
    await tx.importRecord.create({ data: { projectId, kind: "judge", fileName: name, sha256, rows: created + updated } });
  }, TX_OPTIONS);
  opts.onProgress?.(rows.length, rows.length);
  return { kind: "judge", file: name, sha256, rows: rows.length, created, updated, unchanged: rows.length - created - updated };
}
