import type { Db } from "../db/client.ts";
import {
  importTally,
  type ErrorList,
  TX_OPTIONS,
  type ImportInput,
  type ImportOptions,
  type ImportResult,
} from "./input.ts";
import { ZVideoRow, type TVideoRow } from "./schemas.ts";
import { readIdRows } from "./rows.ts";
import { confinedMediaFile, mediaPathProblem } from "../media/root.ts";
import { MEDIA_HOSTS_VAR, urlMediaProblem } from "../media/hosts.ts";
import type { LocatedError } from "../errors.ts";

const COLUMNS = ["id", "title", "url", "path", "duration"] as const;

/**
 * Videos from JSONL or CSV (id, title, url or path or neither, duration): new ids are created,
 * changed ones updated. Media that will not play is imported with a warning naming the line: a
 * path to a file that is not there (yet), a URL on a host ASSESSOR_MEDIA_HOSTS does not allow.
 */
export async function importVideos(
  db: Db,
  projectId: number,
  input: ImportInput,
  opts: ImportOptions = {},
): Promise<ImportResult> {
  const { name, sha256, rows, errors } = await readIdRows(
    input,
    ZVideoRow,
    { ext: "csv", columns: COLUMNS, required: ["id", "title"], numbers: ["duration"] },
    "one JSON object per line: id, title, url or path, duration",
  );
  const warnings = await checkMedia(rows, name, errors);
  errors.throwIfAny();

  const existing = new Map((await db.video.findMany({ where: { projectId } })).map((v) => [v.externalId, v]));
  const data = (r: TVideoRow) => ({
    title: r.title,
    url: r.url ?? null,
    path: r.path ?? null,
    durationSeconds: r.duration ?? null,
  });
  const create: TVideoRow[] = [];
  const update: { id: number; row: TVideoRow }[] = [];
  for (const r of rows) {
    const old = existing.get(r.id);
    if (!old) create.push(r);
    else {
      const d = data(r);
      if (
        old.title !== d.title ||
        old.url !== d.url ||
        old.path !== d.path ||
        old.durationSeconds !== d.durationSeconds
      )
        update.push({ id: old.id, row: r });
    }
  }
  await db.$transaction(async (tx) => {
    if (create.length)
      await tx.video.createMany({ data: create.map((r) => ({ projectId, externalId: r.id, ...data(r) })) });
    for (const u of update) await tx.video.update({ where: { id: u.id }, data: data(u.row) });
    await tx.importRecord.create({
      data: { projectId, kind: "videos", fileName: name, sha256, rows: create.length + update.length },
    });
  }, TX_OPTIONS);
  opts.onProgress?.(rows.length, rows.length);
  return { ...importTally("videos", name, sha256, rows.length, create.length, update.length), warnings };
}

/**
 * Self-hosted paths must name a video or audio file inside the media root (lib/media/root.ts),
 * checked here for the web upload and the CLI alike, and again when served. A file that exists
 * already is checked after resolving symlinks too; a missing one only by its name, and warned
 * about. A URL on a host the page's CSP does not allow is warned about (lib/media/hosts.ts).
 */
async function checkMedia(
  rows: (TVideoRow & { line: number })[],
  file: string,
  errors: ErrorList,
): Promise<LocatedError[]> {
  const warnings: LocatedError[] = [];
  const blocked: { line: number; url: string; problem: string }[] = [];
  for (const r of rows) {
    if (r.url) {
      const problem = urlMediaProblem(r.url);
      if (problem) blocked.push({ line: r.line, url: r.url, problem });
    }
    if (!r.path) continue;
    const problem = mediaPathProblem(r.path);
    if (problem) {
      errors.push({ file, line: r.line, field: "path", message: problem });
      continue;
    }
    const confined = await confinedMediaFile(r.path);
    if ("problem" in confined && confined.problem === "outside")
      errors.push({
        file,
        line: r.line,
        field: "path",
        message: `expected a file inside the media root, not a link out of it: ${r.path}`,
      });
    else if ("problem" in confined)
      warnings.push({
        file,
        line: r.line,
        field: "path",
        message: `the file ${r.path} is not there: the video will not play until it is (assessor media check lists every video)`,
      });
  }
  if (blocked.length === 1) warnings.push({ file, line: blocked[0].line, field: "url", message: blocked[0].problem });
  else if (blocked.length > 1) warnings.push(blockedHostsWarning(file, blocked));
  return warnings;
}

/** One warning for every URL on a host the CSP does not allow (the same advice once, with the count), at the first such line. */
function blockedHostsWarning(file: string, blocked: readonly { line: number; url: string }[]): LocatedError {
  const byOrigin = new Map<string, number>();
  for (const b of blocked) {
    let origin = b.url;
    try {
      origin = new URL(b.url).origin;
    } catch {
      // the schema has checked it is an http(s) URL
    }
    byOrigin.set(origin, (byOrigin.get(origin) ?? 0) + 1);
  }
  const lines = blocked.map((b) => b.line);
  const shown = lines.length > 10 ? `${lines.slice(0, 10).join(", ")}, …` : lines.join(", ");
  const origins = [...byOrigin.keys()];
  return {
    file,
    line: lines[0],
    field: "url",
    message: `${blocked.length} videos (lines ${shown}) have URLs on hosts ${MEDIA_HOSTS_VAR} does not allow (${[...byOrigin].map(([o, n]) => `${o}: ${n}`).join(", ")}): the browser will refuse to play them until ${MEDIA_HOSTS_VAR} names ${origins.join(", ")} (comma-separated origins or hosts)`,
  };
}
