import { createHash } from "node:crypto";
import type { Db } from "../db/client.ts";
import { referenceLabels, type ReferenceLabelRow } from "../labels/reference.ts";
import { safeCsv } from "../formats/csv-write.ts";
import { DEFAULT_CHUNKING_NAME, findChunking } from "../chunkings/store.ts";
import { AppError } from "../errors.ts";
import { labelPeople, type TLabelPeople } from "./people.ts";
import { field, say } from "../terms.ts";

/**
 * Exports of the reference label set.
 *
 * Every export carries a label-set version: { sha256, created_at, labels, project }.
 * `sha256` identifies the label set, not the file: it is the SHA-256 of the canonical form — the
 * JSONL data lines below (one object per label, sorted by query then chunk, "\n" after each) —
 * so the qrels, JSONL and CSV exports of the same labels carry the same sha256, and it changes
 * whenever any grade, start, end, status, annotator count or source changes. `created_at` is the time
 * of the export (ISO 8601, UTC).
 *
 * Where the version travels (no line inside a CSV or qrels file: spreadsheets and pandas would read
 * a comment line as the header row):
 * - qrels (`qid 0 docid grade`, trec_eval's format) and CSV (the header row first): in the file's
 *   name (`exportFileName`: `<project>.<sha256 first 12>.qrels`, `<project>.labels.<sha12>.csv`),
 *   in a sidecar `<file>.version.json` (`sidecarText`; the page's "version" link, the CLI's --out),
 *   in the HTTP headers of a download, or as one line on stderr when the CLI prints to stdout;
 * - JSONL: the first line is {"label_set_version": {...}}; every later line is one label.
 * The sidecar adds the file's own sha256 (`file_sha256`; for qrels and CSV the same on every
 * download of the same labels, since their content holds no time).
 */
export type TExportFormat = "qrels" | "jsonl" | "csv";
export type TLabelSetVersion = { sha256: string; created_at: string; labels: number; project: string };
/** `note`: set when a qrels export chose its chunking among several (qrelsChunking). */
export type TExport = { content: string; version: TLabelSetVersion; fileSha256: string; note?: string };

export const CSV_COLUMNS = [
  "query",
  "chunk",
  "grade",
  "start",
  "status",
  "annotators",
  "source",
  "video",
  "chunk_start",
  "chunk_end",
  "chunking",
  "flags",
  "notes",
  "revision",
  "end",
  "labelled_by",
  "guideline_revisions",
] as const;

/** In a CSV cell: flags joined by ";", notes by " | " (JSONL keeps both as arrays). */
const FLAG_SEPARATOR = ";";
const NOTE_SEPARATOR = " | ";

const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

const NO_PEOPLE: TLabelPeople = { labelledBy: [], revisions: [] };
const peopleOf = (r: ReferenceLabelRow, people: ReadonlyMap<string, TLabelPeople>) =>
  (r.poolItemId === null ? undefined : people.get(r.poolItemId)) ?? NO_PEOPLE;

type TPeople = ReadonlyMap<string, TLabelPeople>;
const NOBODY: TPeople = new Map();

function jsonRow(r: ReferenceLabelRow, people: TPeople) {
  const p = peopleOf(r, people);
  return {
    query: r.qid,
    chunk: r.docid,
    grade: r.grade,
    start: r.startSeconds,
    status: r.status,
    annotators: r.annotators,
    source: r.source,
    video: r.video,
    chunk_start: r.chunkStart,
    chunk_end: r.chunkEnd,
    chunking: r.chunking,
    flags: r.flags,
    notes: r.notes,
    revision: r.revision,
    end: r.endSeconds,
    labelled_by: p.labelledBy,
    guideline_revisions: p.revisions,
  };
}

/**
 * The canonical form the label-set sha256 is computed over (also the JSONL export's body): its last
 * two fields say who labelled and under which guidelines revision (lib/exports/people.ts), by
 * pseudonymous id; an export with names carries the version of its pseudonymous form.
 */
export function canonicalLines(rows: readonly ReferenceLabelRow[], people: TPeople = NOBODY): string {
  return rows.map((r) => `${JSON.stringify(jsonRow(r, people))}\n`).join("");
}

/** The version record an export carries (sha256 over the canonical lines); the dashboard's cache key is lib/dashboard/load/version.ts `labelSetVersion`. */
export function exportVersion(
  rows: readonly ReferenceLabelRow[],
  project: string,
  now: Date = new Date(),
  people: TPeople = NOBODY,
): TLabelSetVersion {
  return { sha256: sha256(canonicalLines(rows, people)), created_at: now.toISOString(), labels: rows.length, project };
}

/** TREC qrels: `qid 0 docid grade`, one line per label, in the reference order (query, chunk). */
export function qrelsText(rows: readonly ReferenceLabelRow[]): string {
  return rows.map((r) => `${r.qid} 0 ${r.docid} ${r.grade}\n`).join("");
}

/**
 * CSV fields are quoted when they must be (comma, quote, line break) and also when they hold "#" or
 * start or end with whitespace, so that a reader skipping comment lines or trimming fields keeps
 * them whole; null is an empty field. Text cells a spreadsheet would run as a formula (=, +, -, @,
 * TAB, CR first) get a leading ' (lib/formats/csv-write.ts); JSONL and qrels are written as they are.
 */
const CSV_OPTIONS = { quoted_match: [/#/, /^\s|\s$/] };

export function csvText(rows: readonly ReferenceLabelRow[], people: TPeople = NOBODY): string {
  const body = safeCsv(
    rows.map((r) => [
      r.qid,
      r.docid,
      r.grade,
      r.startSeconds,
      r.status,
      r.annotators,
      r.source,
      r.video,
      r.chunkStart,
      r.chunkEnd,
      r.chunking,
      r.flags.join(FLAG_SEPARATOR),
      r.notes.join(NOTE_SEPARATOR),
      r.revision,
      r.endSeconds,
      peopleOf(r, people).labelledBy.join(FLAG_SEPARATOR),
      peopleOf(r, people)
        .revisions.map((v) => v ?? "")
        .join(FLAG_SEPARATOR),
    ]),
    CSV_OPTIONS,
  );
  return `${CSV_COLUMNS.join(",")}\n${body}`;
}

export function jsonlText(
  rows: readonly ReferenceLabelRow[],
  version: TLabelSetVersion,
  people: TPeople = NOBODY,
): string {
  return `${JSON.stringify({ label_set_version: version })}\n${canonicalLines(rows, people)}`;
}

export function renderExport(
  rows: readonly ReferenceLabelRow[],
  format: TExportFormat,
  version: TLabelSetVersion,
  people: TPeople = NOBODY,
): TExport {
  const content =
    format === "qrels"
      ? qrelsText(rows)
      : format === "jsonl"
        ? jsonlText(rows, version, people)
        : csvText(rows, people);
  return { content, version, fileSha256: sha256(content) };
}

/**
 * The chunking a qrels file holds. A qrels file is read against runs, and a run belongs to one
 * chunking: labels of a second chunking would count as relevant chunks the run could never
 * retrieve (wrong recall and nDCG), and an id two chunkings share would be judged twice (trec_eval
 * 10.0 stops, exit 4; `assessor eval` refuses). So: the named chunking; else the project's only
 * chunking with chunks; else, among several, `default` (the chunking of imports that name none),
 * with a note naming the others; else (several, none named `default`) a bad_input error asking
 * for one. The JSONL and CSV exports carry a `chunking` column and keep every chunking.
 */
export async function qrelsChunking(
  db: Db,
  projectId: number,
  name?: string,
): Promise<{ id: number | undefined; note?: string }> {
  if (name !== undefined) return { id: (await findChunking(db, projectId, name)).id };
  const withChunks = await db.chunking.findMany({
    where: { projectId, chunks: { some: {} } },
    select: { id: true, name: true },
    orderBy: { name: "asc" },
  });
  if (withChunks.length <= 1) return { id: withChunks[0]?.id };
  const names = withChunks.map((c) => c.name).join(", ");
  const chosen = withChunks.find((c) => c.name === DEFAULT_CHUNKING_NAME);
  if (!chosen)
    throw new AppError(
      "bad_input",
      say`this project has ${withChunks.length} chunkings (${names}) and a qrels file holds one chunking's labels (the runs it evaluates are of one chunking): choose one with ${field("chunking", "NAME")} (a download: ?chunking=NAME)`,
    );
  return {
    id: chosen.id,
    note: `this project has ${withChunks.length} chunkings (${names}); the qrels hold the labels of "${DEFAULT_CHUNKING_NAME}" only, for its runs: --chunking NAME for another`,
  };
}

/**
 * The reference labels of the project, or with `chunkingId` of one chunking's chunks only. A qrels
 * export without `chunkingId` holds one chunking's labels (qrelsChunking); JSONL and CSV all.
 */
export async function exportLabels(
  db: Db,
  projectId: number,
  format: TExportFormat,
  now: Date = new Date(),
  opts: { chunkingId?: number; names?: boolean } = {},
): Promise<TExport> {
  const chosen =
    format === "qrels" && opts.chunkingId === undefined ? await qrelsChunking(db, projectId) : { id: opts.chunkingId };
  const [project, rows] = await Promise.all([
    db.project.findUniqueOrThrow({ where: { id: projectId }, select: { name: true } }),
    referenceLabels(db, projectId, { chunkingId: chosen.id }),
  ]);
  // The version is computed over the pseudonymous form, so names do not change it (and qrels name the same one).
  const pseudonymous = await labelPeople(db, projectId, rows, false);
  const shown = opts.names ? await labelPeople(db, projectId, rows, true) : pseudonymous;
  const e = renderExport(rows, format, exportVersion(rows, project.name, now, pseudonymous), shown);
  return chosen.note ? { ...e, note: chosen.note } : e;
}

/** The download's file name: the project, the kind, the label set's sha256 (first 12 hex digits). */
export function exportFileName(safeProjectName: string, format: TExportFormat, version: TLabelSetVersion): string {
  const v = version.sha256.slice(0, 12);
  return format === "qrels" ? `${safeProjectName}.${v}.qrels` : `${safeProjectName}.labels.${v}.${format}`;
}

/** The version as one line (the CLI's stderr when it prints qrels or CSV to stdout). */
export function versionLine(v: TLabelSetVersion): string {
  return `label_set_version sha256=${v.sha256} created_at=${v.created_at} labels=${v.labels} project=${v.project}\n`;
}

/** The sidecar written next to an exported file. */
export function sidecarText(e: TExport, format: TExportFormat): string {
  return `${JSON.stringify({ label_set_version: e.version, format, file_sha256: e.fileSha256 }, null, 2)}\n`;
}
