/**
 * Questions as written and reviewed in Assessor: list, create, edit with history. The
 * CLI (import/export), the write screen and the review list all read and write these records.
 */
import type { Db, QuestionStatus } from "../db/client.ts";
import { AppError, isUniqueViolation } from "../errors.ts";
import { videoSource, type TVideoSource } from "../media/source.ts";
import { num, numOrNull, rows, str } from "../db/read.ts";
import { historyChanges, readSnapshot, snapshotVideoIds, type TFieldChange, type TSnapshot } from "./history.ts";

export type TPlace = { videoId: number | null; video: string | null; start: number; end: number | null };
export type TQuestion = {
  id: number;
  qid: string;
  text: string;
  status: QuestionStatus;
  /** The author user's name, else the imported free-text author, else null. */
  author: string | null;
  authorId: string | null;
  tags: string[];
  places: TPlace[];
  createdAt: string;
  updatedAt: string;
};

const iso = (v: unknown): string =>
  (v instanceof Date ? v : new Date(typeof v === "number" ? v : String(v))).toISOString();

/**
 * Every question of the project (optionally of one status or author), by external id. Plain SQL
 * (lib/db/read.ts `rows`): thousands of questions with their tags and places in three reads,
 * no per-row objects and no IN list of ids.
 */
export async function listQuestions(
  db: Db,
  projectId: number,
  opts: { status?: QuestionStatus; authorId?: string } = {},
): Promise<TQuestion[]> {
  let where = `q."projectId" = ?`;
  const params: unknown[] = [projectId];
  if (opts.status) {
    where += ` AND q."status" = ?`;
    params.push(opts.status);
  }
  if (opts.authorId) {
    where += ` AND q."authorId" = ?`;
    params.push(opts.authorId);
  }
  const [qRows, tagRows, placeRows] = await Promise.all([
    rows(
      db,
      `SELECT q."id", q."externalId", q."text", q."status", q."author", q."authorId", u."name", q."createdAt", q."updatedAt" FROM "Query" q LEFT JOIN "User" u ON u."id" = q."authorId" WHERE ${where} ORDER BY q."externalId"`,
      params,
    ),
    rows(
      db,
      `SELECT t."queryId", t."tag" FROM "QueryTag" t JOIN "Query" q ON q."id" = t."queryId" WHERE ${where} ORDER BY t."tag"`,
      params,
    ),
    rows(
      db,
      `SELECT p."queryId", p."videoId", v."externalId", p."startSeconds", p."endSeconds" FROM "QueryPlace" p JOIN "Query" q ON q."id" = p."queryId" LEFT JOIN "Video" v ON v."id" = p."videoId" WHERE ${where} ORDER BY p."id"`,
      params,
    ),
  ]);
  const byId = new Map<number, TQuestion>();
  const out: TQuestion[] = [];
  for (const r of qRows) {
    const q: TQuestion = {
      id: num(r[0]),
      qid: str(r[1]),
      text: str(r[2]),
      status: str(r[3]) as QuestionStatus,
      author: r[6] !== null && r[6] !== undefined ? str(r[6]) : r[4] !== null && r[4] !== undefined ? str(r[4]) : null,
      authorId: r[5] === null || r[5] === undefined ? null : str(r[5]),
      tags: [],
      places: [],
      createdAt: iso(r[7]),
      updatedAt: iso(r[8]),
    };
    byId.set(q.id, q);
    out.push(q);
  }
  for (const t of tagRows) byId.get(num(t[0]))?.tags.push(str(t[1]));
  for (const p of placeRows)
    byId.get(num(p[0]))?.places.push({
      videoId: numOrNull(p[1]),
      video: p[2] === null || p[2] === undefined ? null : str(p[2]),
      start: num(p[3]),
      end: numOrNull(p[4]),
    });
  return out;
}

export type TQuestionInput = {
  text: string;
  tags: string[];
  places: { videoId: number; start: number; end: number | null }[];
  status: QuestionStatus;
};

/** The record kept in the history (QueryEvent before/after). */
function snapshot(q: {
  text: string;
  status: string;
  tags: string[];
  places: { videoId: number | null; start: number; end: number | null }[];
}) {
  return {
    text: q.text,
    status: q.status,
    tags: [...q.tags].sort(),
    places: q.places.map((p) => ({ videoId: p.videoId, start: p.start, end: p.end })),
  };
}

async function checkVideos(db: Db, projectId: number, places: TQuestionInput["places"]): Promise<void> {
  const ids = [...new Set(places.map((p) => p.videoId))];
  if (ids.length === 0) return;
  const found = await db.video.count({ where: { projectId, id: { in: ids } } });
  if (found !== ids.length)
    throw new AppError("bad_input", "places: expected videos of this project", { field: "places" });
  for (const p of places)
    if (p.end !== null && p.end < p.start)
      throw new AppError("bad_input", "places: expected the answer end at or after its start", { field: "places" });
}

/** A new external id for a written question: w<n>, the first not yet taken in the project. */
async function nextQid(db: Db, projectId: number, prefix: string): Promise<string> {
  const taken = new Set(
    (
      await db.query.findMany({
        where: { projectId, externalId: { startsWith: prefix } },
        select: { externalId: true },
      })
    ).map((q) => q.externalId),
  );
  let n = taken.size + 1;
  while (taken.has(`${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}

/** Writes a new question by `authorId` (the write screen); the history's first event has no "before". */
export async function createQuestion(
  db: Db,
  projectId: number,
  authorId: string,
  input: TQuestionInput,
): Promise<TQuestion> {
  await checkVideos(db, projectId, input.places);
  const tags = [...new Set(input.tags.map((t) => t.trim()).filter(Boolean))].sort();
  for (let attempt = 0; ; attempt++) {
    const externalId = await nextQid(db, projectId, "w");
    try {
      const id = await db.$transaction(async (tx) => {
        const q = await tx.query.create({
          data: { projectId, externalId, text: input.text.trim(), status: input.status, authorId },
        });
        if (tags.length) await tx.queryTag.createMany({ data: tags.map((tag) => ({ queryId: q.id, tag })) });
        if (input.places.length)
          await tx.queryPlace.createMany({
            data: input.places.map((p) => ({
              queryId: q.id,
              videoId: p.videoId,
              startSeconds: p.start,
              endSeconds: p.end,
            })),
          });
        await tx.queryEvent.create({
          data: { queryId: q.id, actorId: authorId, before: null, after: JSON.stringify(snapshot({ ...input, tags })) },
        });
        return q.id;
      });
      return (await listQuestions(db, projectId)).find((q) => q.id === id)!;
    } catch (e) {
      // Two writers took the same id at once: try the next one.
      if (attempt < 5 && isUniqueViolation(e)) continue;
      throw e;
    }
  }
}

/** Edits a question (text, tags, places, status), appending one QueryEvent with before and after. */
export async function updateQuestion(
  db: Db,
  projectId: number,
  queryId: number,
  actorId: string,
  patch: Partial<TQuestionInput>,
): Promise<TQuestion> {
  const old = (await listQuestions(db, projectId)).find((q) => q.id === queryId);
  if (!old) throw new AppError("not_found", `no question ${queryId} in this project`);
  if (patch.places) await checkVideos(db, projectId, patch.places);
  const next = {
    text: patch.text?.trim() ?? old.text,
    status: patch.status ?? old.status,
    tags: patch.tags ? [...new Set(patch.tags.map((t) => t.trim()).filter(Boolean))].sort() : old.tags,
    places: patch.places ?? old.places.map((p) => ({ videoId: p.videoId, start: p.start, end: p.end })),
  };
  const before = snapshot(old);
  const after = snapshot(next);
  if (JSON.stringify(before) === JSON.stringify(after)) return old;
  await db.$transaction(async (tx) => {
    await tx.query.update({ where: { id: queryId }, data: { text: next.text, status: next.status } });
    if (patch.tags) {
      await tx.queryTag.deleteMany({ where: { queryId } });
      if (next.tags.length) await tx.queryTag.createMany({ data: next.tags.map((tag) => ({ queryId, tag })) });
    }
    if (patch.places) {
      await tx.queryPlace.deleteMany({ where: { queryId } });
      if (patch.places.length)
        await tx.queryPlace.createMany({
          data: patch.places.map((p) => ({ queryId, videoId: p.videoId, startSeconds: p.start, endSeconds: p.end })),
        });
    }
    await tx.queryEvent.create({
      data: { queryId, actorId, before: JSON.stringify(before), after: JSON.stringify(after) },
    });
  });
  return (await listQuestions(db, projectId)).find((q) => q.id === queryId)!;
}

export type TQuestionEvent = {
  at: string;
  actor: string | null;
  before: TSnapshot | null;
  after: TSnapshot;
  changes: TFieldChange[];
};

/** A question's edit history, oldest first: each record read into one shape (videos named) and its changes (history.ts). */
export async function questionHistory(db: Db, projectId: number, queryId: number): Promise<TQuestionEvent[]> {
  const events = await db.queryEvent.findMany({
    where: { queryId, query: { projectId } },
    include: { actor: { select: { name: true } } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const raw = events.map((e) => ({
    e,
    before: e.before === null ? null : (JSON.parse(e.before) as unknown),
    after: JSON.parse(e.after) as unknown,
  }));
  const ids = [...new Set(raw.flatMap((r) => [...snapshotVideoIds(r.before), ...snapshotVideoIds(r.after)]))];
  const names = new Map(
    (ids.length
      ? await db.video.findMany({ where: { id: { in: ids } }, select: { id: true, externalId: true } })
      : []
    ).map((v) => [v.id, v.externalId]),
  );
  const videoName = (id: number) => names.get(id) ?? `deleted video ${id}`;
  return raw.map(({ e, before, after }) => {
    const b = readSnapshot(before, videoName);
    const a = readSnapshot(after, videoName) ?? { text: null, status: null, tags: [], places: [] };
    return {
      at: e.createdAt.toISOString(),
      actor: e.actor?.name ?? null,
      before: b,
      after: a,
      changes: historyChanges(b, a),
    };
  });
}

/**
 * Who may write questions in a project: leads always; annotators when the project allows it
 * (Project.annotatorsMayAuthor). Everyone else: 403.
 */
export async function requireAuthor(
  db: Db,
  projectId: number,
  user: { role: string },
): Promise<{ transcriptWhileWriting: boolean }> {
  const p = await db.project.findUnique({
    where: { id: projectId },
    select: { annotatorsMayAuthor: true, transcriptWhileWriting: true },
  });
  if (!p) throw new AppError("not_found", `no project with id ${projectId}`);
  if (user.role === "lead" || (user.role === "annotator" && p.annotatorsMayAuthor))
    return { transcriptWhileWriting: p.transcriptWhileWriting };
  throw new AppError("forbidden", "you may not write questions in this project");
}

export type TWriteProject = { id: number; name: string };
export type TWriteVideo = TVideoSource & { id: number; externalId: string };
export type TWriteContext = {
  project: TWriteProject;
  /** The writer's role decides what Enter saves: annotators draft, leads choose. */
  isLead: boolean;
  transcriptWhileWriting: boolean;
  videos: TWriteVideo[];
  tags: string[];
  /** The writer's own questions, newest first (annotators never see others' drafts). */
  mine: TQuestion[];
};

/** Projects the user may write questions in (leads: all; annotators: those that allow it). */
export async function writeProjects(db: Db, user: { role: string }): Promise<TWriteProject[]> {
  if (user.role !== "lead" && user.role !== "annotator") return [];
  return db.project.findMany({
    where: user.role === "lead" ? {} : { annotatorsMayAuthor: true },
    select: { id: true, name: true },
    orderBy: { name: "asc" },
  });
}

export async function writeContext(
  db: Db,
  projectId: number,
  user: { id: string; role: string },
): Promise<TWriteContext> {
  const { transcriptWhileWriting } = await requireAuthor(db, projectId, user);
  const [project, videos, tagRows, mine] = await Promise.all([
    db.project.findUniqueOrThrow({ where: { id: projectId }, select: { id: true, name: true } }),
    db.video.findMany({
      where: { projectId },
      select: { id: true, externalId: true, title: true, durationSeconds: true, url: true, path: true },
      orderBy: { externalId: "asc" },
    }),
    // Tags of accepted questions and the writer's own: no other author's draft leaks through its tags.
    db.queryTag.findMany({
      where: { query: { projectId, OR: [{ status: "accepted" }, { authorId: user.id }] } },
      select: { tag: true },
      distinct: ["tag"],
      orderBy: { tag: "asc" },
    }),
    listQuestions(db, projectId, { authorId: user.id }),
  ]);
  return {
    project,
    isLead: user.role === "lead",
    transcriptWhileWriting,
    videos: videos.map((v) => ({ id: v.id, externalId: v.externalId, ...videoSource(v) })),
    tags: tagRows.map((t) => t.tag),
    mine: mine.sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
  };
}

/** The transcript of one video while writing: only where the project allows it (403 otherwise). */
export async function writeTranscript(
  db: Db,
  projectId: number,
  videoId: number,
  user: { id: string; role: string },
): Promise<{ start: number; end: number; text: string }[]> {
  const { transcriptWhileWriting } = await requireAuthor(db, projectId, user);
  if (!transcriptWhileWriting)
    throw new AppError("forbidden", "the transcript is hidden while writing in this project (watch, don't read)");
  const chunking = await db.chunking.findFirst({ where: { projectId }, orderBy: { id: "asc" }, select: { id: true } });
  if (!chunking) return [];
  const chunks = await db.chunk.findMany({
    where: { chunkingId: chunking.id, videoId, video: { projectId } },
    select: { startSeconds: true, endSeconds: true, text: true },
    orderBy: { startSeconds: "asc" },
  });
  return chunks.map((c) => ({ start: c.startSeconds, end: c.endSeconds, text: c.text }));
}
