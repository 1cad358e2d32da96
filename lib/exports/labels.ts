import { createHash } from "node:crypto";
import type { Db } from "../db/client.ts";
import { referenceLabels, type ReferenceLabelRow } from "../labels/reference.ts";
import { safeCsv } from "../formats/csv-write.ts";

/**
 * Exports of the reference label set.
 *
 * Every export carries a label-set version: { sha256, created_at, labels, project }.
 * `sha256` identifies the label set, not the file: it is the SHA-256 of the canonical form — the
 * JSONL data lines below (one object per label, sorted by query then chunk, "\n" after each) —
 * so the qrels, JSONL and CSV exports of the same labels carry the same sha256, and it changes
 * whenever any grade, start, status, annotator count or source changes. `created_at` is the time
 * of the export (ISO 8601, UTC).
 *
 * Where the version travels:
 * - qrels (`qid 0 docid grade`, trec_eval's format, which has no room for a header): in a sidecar
 *   file `<out>.version.json`, or as one line on stderr when written to stdout;
 * - JSONL: the first line is {"label_set_version": {...}}; every later line is one label;
 * - CSV: the first line is a comment, `# label_set_version sha256=… created_at=… labels=N
 *   project=…` (the name percent-encoded, so the line is one cell), then the header row. Readers skip it with `comment="#"` (pandas, csv-parse) or
 *   `skiprows=1`;
 * - and with --out, every format also gets the sidecar `<out>.version.json`, which adds the
 *   file's own sha256 (`file_sha256`).
 */
export type TExportFormat = "qrels" | "jsonl" | "csv";
export type TLabelSetVersion = { sha256: string; created_at: string; labels: number; project: string };
export type TExport = { content: string; version: TLabelSetVersion; fileSha256: string };

export const CSV_COLUMNS = ["query", "chunk", "grade", "start", "status", "annotators", "source", "video", "chunk_start", "chunk_end", "chunking"] as const;

const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

function jsonRow(r: ReferenceLabelRow) {
  return { query: r.qid, chunk: r.docid, grade: r.grade, start: r.startSeconds, status: r.status, annotators: r.annotators, source: r.source, video: r.video, chunk_start: r.chunkStart, chunk_end: r.chunkEnd, chunking: r.chunking };
}

/** The canonical form the label-set sha256 is computed over (also the JSONL export's body). */
export function canonicalLines(rows: readonly ReferenceLabelRow[]): string {
  return rows.map((r) => `${JSON.stringify(jsonRow(r))}\n`).join("");
}

export function labelSetVersion(rows: readonly ReferenceLabelRow[], project: string, now: Date = new Date()): TLabelSetVersion {
  return { sha256: sha256(canonicalLines(rows)), created_at: now.toISOString(), labels: rows.length, project };
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

export function csvText(rows: readonly ReferenceLabelRow[], version: TLabelSetVersion): string {
  // The project's name is percent-encoded in the comment line: a name holding a comma or a quote
  // would otherwise split the line into cells, the next one free to start with "=" (CSV injection).
  const project = encodeURIComponent(version.project);
  const head = `# label_set_version sha256=${version.sha256} created_at=${version.created_at} labels=${version.labels} project=${project}\n`;
  const body = safeCsv(
    rows.map((r) => [r.qid, r.docid, r.grade, r.startSeconds, r.status, r.annotators, r.source, r.video, r.chunkStart, r.chunkEnd, r.chunking]),
    CSV_OPTIONS,
  );
  return `${head}${CSV_COLUMNS.join(",")}\n${body}`;
}

export function jsonlText(rows: readonly ReferenceLabelRow[], version: TLabelSetVersion): string {
  return `${JSON.stringify({ label_set_version: version })}\n${canonicalLines(rows)}`;
}

export function renderExport(rows: readonly ReferenceLabelRow[], format: TExportFormat, version: TLabelSetVersion): TExport {
  const content = format === "qrels" ? qrelsText(rows) : format === "jsonl" ? jsonlText(rows, version) : csvText(rows, version);
  return { content, version, fileSha256: sha256(content) };
}

/** The reference labels of the project, or with `chunkingId` of one chunking's chunks only. */
export async function exportLabels(db: Db, projectId: number, format: TExportFormat, now: Date = new Date(), opts: { chunkingId?: number } = {}): Promise<TExport> {
  const [project, rows] = await Promise.all([db.project.findUniqueOrThrow({ where: { id: projectId }, select: { name: true } }), referenceLabels(db, projectId, opts)]);
  return renderExport(rows, format, labelSetVersion(rows, project.name, now));
}

/** The sidecar written next to an exported file. */
export function sidecarText(e: TExport, format: TExportFormat): string {
  return `${JSON.stringify({ label_set_version: e.version, format, file_sha256: e.fileSha256 }, null, 2)}\n`;
}
