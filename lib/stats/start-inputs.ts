/**
 * Reads the two JSONL files start_error needs, in the importers' formats (one JSON object a line):
 * - queries: `{ "id", "reference_start" (or "start"), "video" }`, else the first of its `places`;
 *   lines without a start are skipped (such queries are not scored for start error);
 * - chunks: `{ "id", "video", "start", "end" }`;
 * - answer places (the time measures, `parseAnswerPlaces`): the same queries file, each line's
 *   `answers` and `places` (lists of `{ "video", "start", "end" }`: a question may be answered in
 *   several places; `places` is what `export questions` writes and `import queries` reads) and its reference start as one more place (`start` or `reference_start`, optional
 *   `end` or `reference_end`, `video`).
 * Query, chunk and video ids may be JSON strings or numbers; they are kept as strings (4103 and
 * "4103" are the same id), as the run and qrels files spell them.
 * Pure: text in, maps and located errors out.
 */
import type { LocatedError } from "../errors.ts";
import type { ChunkTime, ReferenceStart } from "./measures/start-error.ts";
import type { AnswerPlace } from "./time/spans.ts";

type Obj = Record<string, unknown>;

function eachJsonLine(text: string, file: string, errors: LocatedError[], fn: (o: Obj, line: number) => void): void {
  const lines = text.split("\n");
  let any = false;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].trim();
    if (!raw) continue;
    any = true;
    let o: unknown;
    try {
      o = JSON.parse(raw);
    } catch (e) {
      errors.push({
        file,
        line: i + 1,
        message: `expected one JSON object per line (${e instanceof Error ? e.message : String(e)})`,
      });
      continue;
    }
    if (typeof o !== "object" || o === null || Array.isArray(o)) {
      errors.push({ file, line: i + 1, message: "expected a JSON object" });
      continue;
    }
    fn(o as Obj, i + 1);
  }
  if (!any) errors.push({ file, line: 1, message: "the file is empty: expected JSON lines" });
}

function id(o: Obj, keys: string[]): string | null {
  for (const k of keys) {
    const v = o[k];
    if (typeof v === "string" && v.trim()) return v;
    if (typeof v === "number") return String(v);
  }
  return null;
}

function optionalNumber(o: Obj, keys: string[]): { key: string; value: unknown } | null {
  for (const k of keys) if (o[k] !== undefined && o[k] !== null) return { key: k, value: o[k] };
  return null;
}

const isSeconds = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;

/**
 * The video id of a line (`video` or `video_id`) as a string, or null when the line names none.
 * Ids are compared as strings wherever they are read: `"video": 4103` (a JSON number, which the
 * importers accept) is the video "4103", so the different-video check applies to it (it used to be
 * read as "no video", and a chunk of another video was then scored by its start time alone).
 * Anything else (true, an object, a fraction) is an error.
 */
function video(o: Obj, file: string, line: number, errors: LocatedError[]): string | null | undefined {
  for (const key of ["video", "video_id"]) {
    const v = o[key];
    if (v === undefined || v === null) continue;
    if (typeof v === "string" && v.trim()) return v;
    if (typeof v === "number" && Number.isSafeInteger(v)) return String(v);
    errors.push({
      file,
      line,
      field: key,
      message: `expected a video id (a string or an integer), found ${JSON.stringify(v)}`,
    });
    return undefined;
  }
  return null;
}

export function parseReferenceStarts(
  text: string,
  file: string,
): { starts: Map<string, ReferenceStart>; errors: LocatedError[] } {
  const errors: LocatedError[] = [];
  const starts = new Map<string, ReferenceStart>();
  eachJsonLine(text, file, errors, (o, line) => {
    const qid = id(o, ["id", "qid"]);
    if (!qid) return void errors.push({ file, line, field: "id", message: "expected a query id (string)" });
    // Without a reference start, the first of the question's `places` (the tool's own export and import format).
    const first = Array.isArray(o.places)
      ? (o.places as unknown[]).find((p): p is Obj => typeof p === "object" && p !== null && !Array.isArray(p))
      : undefined;
    const from = optionalNumber(o, ["reference_start", "start", "reference_start_seconds"]) ? o : first;
    const s = from && optionalNumber(from, ["reference_start", "start", "reference_start_seconds"]);
    if (!from || !s) return;
    const field = from === o ? s.key : `places[${(o.places as unknown[]).indexOf(first)}].${s.key}`;
    if (!isSeconds(s.value))
      return void errors.push({
        file,
        line,
        field,
        message: `expected seconds as a number ≥ 0, found ${JSON.stringify(s.value)}`,
      });
    const v = video(from, file, line, errors);
    if (v !== undefined) starts.set(qid, { start: s.value, video: v });
  });
  return { starts, errors };
}

export function parseChunkTimes(
  text: string,
  file: string,
): { chunks: Map<string, ChunkTime>; errors: LocatedError[] } {
  const errors: LocatedError[] = [];
  const chunks = new Map<string, ChunkTime>();
  eachJsonLine(text, file, errors, (o, line) => {
    const cid = id(o, ["id", "chunk_id", "docid"]);
    if (!cid) return void errors.push({ file, line, field: "id", message: "expected a chunk id (string)" });
    const start = o.start ?? o.start_seconds;
    if (!isSeconds(start))
      return void errors.push({
        file,
        line,
        field: "start",
        message: `expected the chunk start in seconds (number ≥ 0), found ${JSON.stringify(start)}`,
      });
    const endRaw = o.end ?? o.end_seconds;
    if (endRaw !== undefined && endRaw !== null && (!isSeconds(endRaw) || endRaw < start))
      return void errors.push({
        file,
        line,
        field: "end",
        message: `expected the chunk end in seconds, not before its start, found ${JSON.stringify(endRaw)}`,
      });
    const v = video(o, file, line, errors);
    if (v !== undefined) chunks.set(cid, { video: v, start, end: typeof endRaw === "number" ? endRaw : null });
  });
  return { chunks, errors };
}

/**
 * Answer places per query id from a queries file (see the file comment): `answers` entries first,
 * then the reference start (with its `end`, or an instant when none). A line with neither gives
 * the query no place (not scored by the time measures that need one). An end before its start, a
 * start that is not seconds, or `answers` that is not a list of objects is an error naming the line
 * and field.
 */
export function parseAnswerPlaces(
  text: string,
  file: string,
): { places: Map<string, AnswerPlace[]>; errors: LocatedError[] } {
  const errors: LocatedError[] = [];
  const places = new Map<string, AnswerPlace[]>();
  eachJsonLine(text, file, errors, (o, line) => {
    const qid = id(o, ["id", "qid"]);
    if (!qid) return void errors.push({ file, line, field: "id", message: "expected a query id (string)" });
    const list: AnswerPlace[] = [];
    const place = (p: Obj, field: string, startKeys: string[], endKeys: string[]): void => {
      const s = optionalNumber(p, startKeys);
      if (!s) return;
      if (!isSeconds(s.value))
        return void errors.push({
          file,
          line,
          field: `${field}${s.key}`,
          message: `expected seconds as a number ≥ 0, found ${JSON.stringify(s.value)}`,
        });
      const e = optionalNumber(p, endKeys);
      if (e && (!isSeconds(e.value) || e.value < s.value))
        return void errors.push({
          file,
          line,
          field: `${field}${e.key}`,
          message: `expected the answer's end in seconds, not before its start (${s.value}), found ${JSON.stringify(e.value)}`,
        });
      const v = video(p, file, line, errors);
      if (v !== undefined) list.push({ video: v, start: s.value, end: e ? (e.value as number) : null });
    };
    // `answers`, and `places` as `export questions` writes and `import queries` reads them.
    for (const key of ["answers", "places"]) {
      const answers = o[key];
      if (answers === undefined || answers === null) continue;
      if (!Array.isArray(answers))
        errors.push({ file, line, field: key, message: "expected a list of answer places ({ video, start, end })" });
      else
        answers.forEach((a: unknown, i) => {
          if (typeof a !== "object" || a === null || Array.isArray(a))
            return void errors.push({
              file,
              line,
              field: `${key}[${i}]`,
              message: "expected an answer place { video, start, end }",
            });
          if (optionalNumber(a as Obj, ["start"]) === null)
            return void errors.push({
              file,
              line,
              field: `${key}[${i}].start`,
              message: "expected the answer's start in seconds",
            });
          place(a as Obj, `${key}[${i}].`, ["start"], ["end"]);
        });
    }
    place(o, "", ["reference_start", "start", "reference_start_seconds"], ["reference_end", "end"]);
    places.set(qid, list);
  });
  return { places, errors };
}
