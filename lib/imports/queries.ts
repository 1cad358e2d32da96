import type { Db } from "../db/client.ts";
import { parseDelimited } from "../formats/delimited.ts";
import { parseJsonl } from "../formats/jsonl.ts";
import { ErrorList, fileKind, firstChar, readInput, TX_OPTIONS, type ImportInput, type ImportOptions, type ImportResult } from "./input.ts";
import { ZQueryRow, type TQueryRow } from "./schemas.ts";
import { fromRecords, rejectDuplicateIds } from "./rows.ts";

const COLUMNS = ["id", "text", "author", "start", "reference_start", "video", "tags"] as const;

type QueryData = { text: string; author: string | null; referenceStartSeconds: number | null; referenceVideoId: number | null; tags: string[] };

/**
 * Queries from JSONL or TSV (id, text, optional author, reference start and video, tags). The
 * reference video must already be imported. Tags replace the query's previous tags.
 */
export async function importQueries(db: Db, projectId: number, input: ImportInput, opts: ImportOptions = {}): Promise<ImportResult> {
  const { name, bytes, sha256 } = await readInput(input);
  const errors = new ErrorList();
  const ext = fileKind(name);
  const tsv = ext === "tsv" || (ext !== "jsonl" && ext !== "json" && firstChar(bytes) !== "{" && firstChar(bytes) !== "");
  let rows: (TQueryRow & { line: number })[];
  if (tsv) {
    const d = parseDelimited(bytes, name, { delimiter: "\t", columns: COLUMNS, required: ["id", "text"] });
    errors.push(...d.errors);
    rows = fromRecords(d.records, name, ZQueryRow, { numbers: ["start", "reference_start"], lists: ["tags"] }, errors);
  } else {
    const j = parseJsonl(bytes, name, ZQueryRow, "one JSON object per line: id, text, author, start, video, tags");
    errors.push(...j.errors);
    rows = j.rows;
  }
  rejectDuplicateIds(rows, name, errors);
  const videos = new Map((await db.video.findMany({ where: { projectId }, select: { id: true, externalId: true } })).map((v) => [v.externalId, v.id]));
  const wanted = new Map<string, QueryData>();
  for (const r of rows) {
    let videoId: number | null = null;
    if (r.video != null) {
      const v = videos.get(r.video);
      if (v === undefined) {
        errors.push({ file: name, line: r.line, field: "video", message: `unknown video "${r.video}"; expected the id of a video imported into this project (import videos first)` });
        continue;
      }
      videoId = v;
    }
    const tags = [...new Set(r.tags ?? [])].sort();
    wanted.set(r.id, { text: r.text, author: r.author || null, referenceStartSeconds: r.start ?? r.reference_start ?? null, referenceVideoId: videoId, tags });
  }
  errors.throwIfAny();

  const existing = new Map(
    (await db.query.findMany({ where: { projectId }, include: { tags: { select: { tag: true } } } })).map((q) => [q.externalId, { ...q, tagList: q.tags.map((t) => t.tag).sort() }]),
  );
  const create: [string, QueryData][] = [];
  const update: { id: number; d: QueryData; tagsChanged: boolean }[] = [];
  for (const [id, d] of wanted) {
    const old = existing.get(id);
    if (!old) {
      create.push([id, d]);
      continue;
    }
    const tagsChanged = old.tagList.join("\u0000") !== d.tags.join("\u0000");
    if (tagsChanged || old.text !== d.text || old.author !== d.author || old.referenceStartSeconds !== d.referenceStartSeconds || old.referenceVideoId !== d.referenceVideoId)
      update.push({ id: old.id, d, tagsChanged });
  }
  const fields = (d: QueryData) => ({ text: d.text, author: d.author, referenceStartSeconds: d.referenceStartSeconds, referenceVideoId: d.referenceVideoId });
  await db.$transaction(async (tx) => {
    if (create.length) {
      await tx.query.createMany({ data: create.map(([externalId, d]) => ({ projectId, externalId, ...fields(d) })) });
      // All of the project's ids (not an IN list, which SQLite caps at 32,766 parameters).
      const ids = new Map((await tx.query.findMany({ where: { projectId }, select: { id: true, externalId: true } })).map((q) => [q.externalId, q.id]));
      const tags = create.flatMap(([e, d]) => d.tags.map((tag) => ({ queryId: ids.get(e)!, tag })));
      if (tags.length) await tx.queryTag.createMany({ data: tags });
    }
    for (const u of update) {
      await tx.query.update({ where: { id: u.id }, data: fields(u.d) });
      if (u.tagsChanged) {
        await tx.queryTag.deleteMany({ where: { queryId: u.id } });
        if (u.d.tags.length) await tx.queryTag.createMany({ data: u.d.tags.map((tag) => ({ queryId: u.id, tag })) });
      }
    }
    await tx.importRecord.create({ data: { projectId, kind: "queries", fileName: name, sha256, rows: create.length + update.length } });
  }, TX_OPTIONS);
  opts.onProgress?.(rows.length, rows.length);
  return { kind: "queries", file: name, sha256, rows: rows.length, created: create.length, updated: update.length, unchanged: rows.length - create.length - update.length };
}
