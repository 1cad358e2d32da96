/**
 * `assessor import query-log FILE`: a query log (JSONL or CSV with a header:
 * `text`, `time`, optional `user` and `count`) read as a stream, normalised and deduplicated
 * (query-log.ts), optionally sampled, and written as draft questions tagged `log` (author null),
 * for a person to complete with answer places by watching. A query whose normalised text equals
 * an existing question's is skipped. Any bad line: located errors, nothing written.
 */
import { createReadStream } from "node:fs";
import { basename } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { parse } from "csv-parse";
import type { Db } from "../db/client.ts";
import type { LocatedError } from "../errors.ts";
import { mulberry32 } from "../stats/random.ts";
import { ErrorList, fileKind, sha256File, TX_OPTIONS } from "../imports/input.ts";
import {
  LogDeduper,
  frequencySample,
  normaliseQuery,
  stratifiedSample,
  type TLogEntry,
  type TSampleStrategy,
} from "./query-log.ts";

export const LOG_TAG = "log";

type Row = { text?: unknown; time?: unknown; user?: unknown; count?: unknown };

/** Checks one line's fields; returns the error or null and feeds the deduper. */
function take(row: Row, file: string, line: number, log: LogDeduper): LocatedError | null {
  if (typeof row.text !== "string" || row.text.trim() === "")
    return { file, line, field: "text", message: "expected the query text as a non-empty string" };
  if (row.text.includes("\u0000"))
    return { file, line, field: "text", message: "expected text without NUL characters" };
  if (typeof row.time !== "string" && typeof row.time !== "number")
    return {
      file,
      line,
      field: "time",
      message: "expected the time the query was issued (ISO 8601 text or epoch seconds)",
    };
  if (typeof row.time === "string" && Number.isNaN(Date.parse(row.time)) && !/^\d+(\.\d+)?$/.test(row.time))
    return {
      file,
      line,
      field: "time",
      message: `expected an ISO 8601 time or epoch seconds, found "${row.time.slice(0, 40)}"`,
    };
  let count = 1;
  if (row.count !== undefined && row.count !== null && row.count !== "") {
    count = typeof row.count === "number" ? row.count : Number(row.count);
    if (!Number.isInteger(count) || count < 1)
      return { file, line, field: "count", message: "expected count as an integer ≥ 1" };
  }
  if (row.user !== undefined && row.user !== null && typeof row.user !== "string" && typeof row.user !== "number")
    return { file, line, field: "user", message: "expected user as a string" };
  log.add(row.text, count, row.user === undefined || row.user === null ? null : String(row.user));
  return null;
}

/**
 * Calls `onLine` with each line of a file (split at "\n", a "\r" before it dropped) and its
 * number, read as a stream in large blocks, the lines of a block handled synchronously: readline's
 * per-line events (a promise a line) cost more than the rest of a million-line import.
 */
async function forEachLine(path: string, onLine: (text: string, line: number) => void): Promise<void> {
  const decoder = new StringDecoder("utf8");
  let rest = "";
  let line = 0;
  const emit = (text: string, from: number, to: number) =>
    onLine(to > from && text.charCodeAt(to - 1) === 13 ? text.slice(from, to - 1) : text.slice(from, to), ++line);
  for await (const block of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    const text = rest + decoder.write(block);
    let start = 0;
    for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", start)) {
      emit(text, start, nl);
      start = nl + 1;
    }
    rest = text.slice(start);
  }
  rest += decoder.end();
  if (rest !== "") emit(rest, 0, rest.length);
}

export async function readQueryLog(path: string): Promise<{ log: LogDeduper; errors: ErrorList }> {
  const file = basename(path);
  const log = new LogDeduper();
  const errors = new ErrorList();
  const ext = fileKind(file);
  if (ext === "csv") {
    const parser = createReadStream(path).pipe(
      parse({ columns: true, bom: true, skip_empty_lines: true, relax_column_count: false, info: true }),
    );
    try {
      for await (const rec of parser as AsyncIterable<{ record: Row; info: { lines: number } }>) {
        const e = take(rec.record, file, rec.info.lines, log);
        if (e) errors.push(e);
      }
    } catch (e) {
      const line = e !== null && typeof e === "object" && "lines" in e && typeof e.lines === "number" ? e.lines : 1;
      errors.push({
        file,
        line,
        message: `unreadable CSV: ${e instanceof Error ? e.message : String(e)}; expected a header text,time[,user][,count]`,
      });
    }
  } else {
    await forEachLine(path, (text, line) => {
      if (text.trim() === "") return;
      let row: unknown;
      try {
        row = JSON.parse(text);
      } catch {
        errors.push({ file, line, message: "expected one JSON object per line: text, time, optional user and count" });
        return;
      }
      if (row === null || typeof row !== "object" || Array.isArray(row)) {
        errors.push({ file, line, message: "expected one JSON object per line: text, time, optional user and count" });
        return;
      }
      const e = take(row as Row, file, line, log);
      if (e) errors.push(e);
    });
  }
  return { log, errors };
}

export type TLogImportResult = {
  file: string;
  lines: number;
  distinct: number;
  sampled: number;
  created: number;
  skippedExisting: number;
};

export async function importQueryLog(
  db: Db,
  projectId: number,
  path: string,
  opts: { sample?: number; strategy?: TSampleStrategy; seed?: number } = {},
): Promise<TLogImportResult> {
  const { log, errors } = await readQueryLog(path);
  errors.throwIfAny();
  const entries = log.entries();
  let chosen: TLogEntry[] = entries;
  if (opts.sample !== undefined) {
    const rng = mulberry32(opts.seed ?? 1);
    chosen =
      (opts.strategy ?? "frequency") === "frequency"
        ? frequencySample(entries, opts.sample, rng)
        : stratifiedSample(entries, opts.sample, rng);
  }
  const existing = await db.query.findMany({ where: { projectId }, select: { externalId: true, text: true } });
  const known = new Set(existing.map((q) => normaliseQuery(q.text)));
  const taken = new Set(existing.map((q) => q.externalId));
  const fresh = chosen.filter((e) => !known.has(e.key));
  const { sha256 } = await sha256File(path);
  let n = 0;
  const ids = fresh.map(() => {
    let id: string;
    do id = `log${++n}`;
    while (taken.has(id));
    return id;
  });
  await db.$transaction(async (tx) => {
    for (let i = 0; i < fresh.length; i += 5000) {
      const slice = fresh.slice(i, i + 5000);
      await tx.query.createMany({
        data: slice.map((e, j) => ({ projectId, externalId: ids[i + j], text: e.text, status: "draft" as const })),
      });
    }
    const created = await tx.query.findMany({
      where: { projectId, externalId: { startsWith: "log" }, status: "draft" },
      select: { id: true, externalId: true },
    });
    const mine = new Set(ids);
    const tags = created.filter((q) => mine.has(q.externalId)).map((q) => ({ queryId: q.id, tag: LOG_TAG }));
    for (let i = 0; i < tags.length; i += 5000) await tx.queryTag.createMany({ data: tags.slice(i, i + 5000) });
    await tx.importRecord.create({
      data: { projectId, kind: "queries", fileName: basename(path), sha256, rows: fresh.length },
    });
  }, TX_OPTIONS);
  return {
    file: basename(path),
    lines: log.lines,
    distinct: entries.length,
    sampled: chosen.length,
    created: fresh.length,
    skippedExisting: chosen.length - fresh.length,
  };
}
