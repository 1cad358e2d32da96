import type { Db } from "../db/client.ts";
import { importTally, TX_OPTIONS, type ImportInput, type ImportOptions, type ImportResult } from "./input.ts";
import { ZQueryRow } from "./schemas.ts";
import type { QuestionStatus as TQuestionStatus } from "../db/client.ts";
import { readIdRows } from "./rows.ts";

const COLUMNS = ["id", "text", "author", "start", "reference_start", "video", "status", "tags"] as const;

/** An answer place as stored: the video's internal id (null: an old start without a video), start, end. */
type Place = { videoId: number | null; startSeconds: number; endSeconds: number | null };
type QueryData = {
  text: string;
  author: string | null;
  status: TQuestionStatus | undefined;
  places: Place[];
  tags: string[];
};

const placesKey = (ps: readonly Place[]) => ps.map((p) => `${p.videoId}:${p.startSeconds}:${p.endSeconds}`).join(",");

/**
 * Queries from JSONL or TSV (id, text, optional author, answer places, status, tags). Answer
 * places are `places: [{video, start, end?}]` (JSONL), or the single `video` and `start` of the
 * older form (both formats); their videos must already be imported. A re-import replaces a
 * query's tags and places; `status` (default accepted for a new question) is kept when not given.
 * Imported questions have no author user (`authorId` null); each changed question appends a
 * QueryEvent (actor null) with its record before and after.
 */
export async function importQueries(
  db: Db,
  projectId: number,
  input: ImportInput,
  opts: ImportOptions = {},
): Promise<ImportResult> {
  const { name, sha256, rows, errors } = await readIdRows(
    input,
    ZQueryRow,
    { ext: "tsv", columns: COLUMNS, required: ["id", "text"], numbers: ["start", "reference_start"], lists: ["tags"] },
    "one JSON object per line: id, text, author, places (or start and video), status, tags",
  );
  const videos = new Map(
    (await db.video.findMany({ where: { projectId }, select: { id: true, externalId: true } })).map((v) => [
      v.externalId,
      v.id,
    ]),
  );
  const wanted = new Map<string, QueryData>();
  for (const r of rows) {
    // The older single form: a start (with or without its video) is one place; a video alone is
    // checked but names no place (there is no start to store).
    const start = r.start ?? r.reference_start;
    const given: { video: string | null; start: number | null; end?: number | null }[] = r.places ?? [
      { video: r.video ?? null, start: start ?? null, end: null },
    ];
    const places: Place[] = [];
    let bad = false;
    given.forEach((p, i) => {
      const v = p.video == null ? null : videos.get(p.video);
      if (v === undefined) {
        bad = true;
        const field = r.places ? `places[${i}].video` : "video";
        errors.push({
          file: name,
          line: r.line,
          field,
          message: `unknown video "${p.video}"; expected the id of a video imported into this project (import videos first)`,
        });
      } else if (p.start !== null) places.push({ videoId: v, startSeconds: p.start, endSeconds: p.end ?? null });
    });
    if (bad) continue;
    const tags = [...new Set(r.tags ?? [])].sort();
    wanted.set(r.id, { text: r.text, author: r.author || null, status: r.status, places, tags });
  }
  errors.throwIfAny();

  const existing = new Map(
    (
      await db.query.findMany({
        where: { projectId },
        include: {
          tags: { select: { tag: true } },
          places: { select: { videoId: true, startSeconds: true, endSeconds: true }, orderBy: { id: "asc" } },
        },
      })
    ).map((q) => [q.externalId, { ...q, tagList: q.tags.map((t) => t.tag).sort() }]),
  );
  const create: [string, QueryData][] = [];
  const update: { id: number; d: QueryData; before: QueryData; tagsChanged: boolean; placesChanged: boolean }[] = [];
  for (const [id, d] of wanted) {
    const old = existing.get(id);
    if (!old) {
      create.push([id, d]);
      continue;
    }
    const tagsChanged = old.tagList.join("\u0000") !== d.tags.join("\u0000");
    const placesChanged = placesKey(old.places) !== placesKey(d.places);
    if (
      tagsChanged ||
      placesChanged ||
      old.text !== d.text ||
      old.author !== d.author ||
      (d.status !== undefined && d.status !== old.status)
    )
      update.push({
        id: old.id,
        d,
        before: { text: old.text, author: old.author, status: old.status, places: old.places, tags: old.tagList },
        tagsChanged,
        placesChanged,
      });
  }
  await db.$transaction(async (tx) => {
    if (create.length) {
      await tx.query.createMany({
        data: create.map(([externalId, d]) => ({
          projectId,
          externalId,
          text: d.text,
          author: d.author,
          status: d.status ?? "accepted",
        })),
      });
      // All of the project's ids (not an IN list, which SQLite caps at 32,766 parameters).
      const ids = new Map(
        (await tx.query.findMany({ where: { projectId }, select: { id: true, externalId: true } })).map((q) => [
          q.externalId,
          q.id,
        ]),
      );
      const tags = create.flatMap(([e, d]) => d.tags.map((tag) => ({ queryId: ids.get(e)!, tag })));
      if (tags.length) await tx.queryTag.createMany({ data: tags });
      const places = create.flatMap(([e, d]) => d.places.map((p) => ({ queryId: ids.get(e)!, ...p })));
      if (places.length) await tx.queryPlace.createMany({ data: places });
    }
    for (const u of update) {
      await tx.query.update({
        where: { id: u.id },
        data: { text: u.d.text, author: u.d.author, ...(u.d.status ? { status: u.d.status } : {}) },
      });
      if (u.tagsChanged) {
        await tx.queryTag.deleteMany({ where: { queryId: u.id } });
        if (u.d.tags.length) await tx.queryTag.createMany({ data: u.d.tags.map((tag) => ({ queryId: u.id, tag })) });
      }
      if (u.placesChanged) {
        await tx.queryPlace.deleteMany({ where: { queryId: u.id } });
        if (u.d.places.length)
          await tx.queryPlace.createMany({ data: u.d.places.map((p) => ({ queryId: u.id, ...p })) });
      }
      const after = { ...u.d, status: u.d.status ?? u.before.status };
      await tx.queryEvent.create({
        data: { queryId: u.id, actorId: null, before: JSON.stringify(u.before), after: JSON.stringify(after) },
      });
    }
    await tx.importRecord.create({
      data: { projectId, kind: "queries", fileName: name, sha256, rows: create.length + update.length },
    });
  }, TX_OPTIONS);
  opts.onProgress?.(rows.length, rows.length);
  return importTally("queries", name, sha256, rows.length, create.length, update.length);
}
