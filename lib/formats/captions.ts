/**
 * Caption files as cues (start and end in seconds, plain text): WebVTT, SRT and YouTube's json3.
 * Tags (`<c>`, `<b>`, inline `<00:00:01.000>` timestamps) are removed and the few HTML entities
 * captions use are decoded. Empty cues are dropped. Cues come back sorted by start time (stable).
 *
 * A cue whose end is before its start is handled by the repair policy: `fail` (the default) reports
 * every such cue as an error; `clip` keeps it with its end set to its start (its text stays at its
 * start time) and `skip` drops it, each reporting a warning at the cue's line. Unreadable
 * timestamps are always errors: there is no time to repair them to.
 */
import type { LocatedError } from "../errors.ts";
import { emptyFile, lines, toText } from "./text.ts";
import { MAX_SECONDS } from "../bounds.ts";

/** Times past lib/bounds.ts MAX_SECONDS are refused. */
const MAX_MS = MAX_SECONDS * 1000;

export type Cue = { start: number; end: number; text: string; line: number };
export type CaptionFormat = "vtt" | "srt" | "json3";
/** What to do with a cue whose end precedes its start. */
export type CueRepair = "fail" | "clip" | "skip";
export const CUE_REPAIRS: readonly CueRepair[] = ["fail", "clip", "skip"];

type Parsed = { cues: Cue[]; errors: LocatedError[]; warnings: LocatedError[] };

/** A backwards cue (end before start) as the policy says: an error, a clipped cue, or nothing. */
function backwards(
  p: Parsed,
  repair: CueRepair,
  cue: Cue,
  times: { start: string; end: string },
  file: string,
): Cue | null {
  const at = { file, line: cue.line, field: "end" };
  if (repair === "fail") {
    p.errors.push({
      ...at,
      message: `expected the end (${times.end}) not before the start (${times.start}) (repair policy "clip" sets such an end to the start, "skip" drops the cue)`,
    });
    return null;
  }
  if (repair === "skip") {
    p.warnings.push({ ...at, message: `cue skipped: its end (${times.end}) is before its start (${times.start})` });
    return null;
  }
  p.warnings.push({
    ...at,
    message: `cue clipped: its end (${times.end}) was before its start (${times.start}); the end is now the start`,
  });
  return { ...cue, end: cue.start };
}

const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&nbsp;": " ",
  "&quot;": '"',
  "&#39;": "'",
  "&lrm;": "",
  "&rlm;": "",
};

function cleanText(s: string): string {
  return s
    .replace(/<[^>]*>/g, "")
    .replace(/&(amp|lt|gt|nbsp|quot|#39|lrm|rlm);/g, (m) => ENTITIES[m] ?? m)
    .replace(/\s+/g, " ")
    .trim();
}

/** `hh:mm:ss.ttt`, `mm:ss.ttt` (WebVTT) or `hh:mm:ss,ttt` (SRT) → seconds, or NaN. */
export function parseTimestamp(s: string): number {
  const m = /^(?:(\d+):)?([0-5]?\d):([0-5]\d)[.,](\d{1,3})$/.exec(s.trim());
  if (!m) return NaN;
  const ms = Number(m[4].padEnd(3, "0"));
  const t = Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]) + ms / 1000;
  return t <= MAX_SECONDS ? t : NaN; // lib/bounds.ts: no time past 10^7 s
}

const ARROW = /^\s*(\S+)\s+-->\s+(\S+)/;

/** WebVTT and SRT share a block structure: optional id line, timing line, text lines, blank line. */
function parseBlocks(text: string, file: string, format: "vtt" | "srt", repair: CueRepair): Parsed {
  const parsed: Parsed = { cues: [], errors: [], warnings: [] };
  const { cues, errors } = parsed;
  const expected = format === "vtt" ? "hh:mm:ss.ttt or mm:ss.ttt" : "hh:mm:ss,ttt";
  let cur: Cue | null = null;
  let skipping = false; // inside a NOTE, STYLE or REGION block (WebVTT), or a block already reported
  let first = true;
  // The line before the timing line in this block: the cue's identifier, if a timing line follows.
  let pending: { line: number; text: string } | null = null;
  const missingArrow = (line: number, found: string) => {
    errors.push({
      file,
      line,
      field: "timing",
      message: `expected a cue timing line "start --> end" (${expected}), found "${found.trim().slice(0, 80)}"`,
    });
    skipping = true;
  };
  // A cue timing line without its arrow ("00:01.000 00:04.000") is reported where it is, not taken for an identifier.
  const looksLikeTiming = (l: string) => /^\s*(\d+:)?\d{1,2}:\d{2}[.,]\d{1,3}(\s|$)/.test(l);
  const flush = () => {
    if (pending && !skipping) missingArrow(pending.line, pending.text);
    pending = null;
    if (cur) {
      cur.text = cleanText(cur.text);
      if (cur.text) cues.push(cur);
    }
    cur = null;
  };
  for (const { line, text: l } of lines(text)) {
    if (first && format === "vtt") {
      first = false;
      if (!/^WEBVTT(\s|$)/.test(l))
        errors.push({ file, line, message: 'expected the header "WEBVTT" on the first line' });
      skipping = true; // header block may carry metadata lines until the first blank line
      continue;
    }
    first = false;
    if (l.trim() === "") {
      flush();
      skipping = false;
      continue;
    }
    if (skipping) continue;
    if (cur) {
      (cur as Cue).text += `\n${l}`;
      continue;
    }
    if (format === "vtt" && /^(NOTE|STYLE|REGION)(\s|$)/.test(l)) {
      skipping = true;
      continue;
    }
    const m = ARROW.exec(l);
    if (!m) {
      if (pending)
        missingArrow(
          looksLikeTiming(pending.text) ? pending.line : line,
          looksLikeTiming(pending.text) ? pending.text : l,
        );
      else if (looksLikeTiming(l)) missingArrow(line, l);
      else pending = { line, text: l }; // a cue identifier (SRT's sequence number) precedes the timing line
      continue;
    }
    pending = null;
    const start = parseTimestamp(m[1]);
    const end = parseTimestamp(m[2]);
    if (Number.isNaN(start)) {
      errors.push({ file, line, field: "start", message: `expected a timestamp ${expected}, found "${m[1]}"` });
      skipping = true;
    } else if (Number.isNaN(end)) {
      errors.push({ file, line, field: "end", message: `expected a timestamp ${expected}, found "${m[2]}"` });
      skipping = true;
    } else if (end < start) {
      cur = backwards(parsed, repair, { start, end, text: "", line }, { start: m[1], end: m[2] }, file);
      if (!cur) skipping = true;
    } else cur = { start, end, text: "", line };
  }
  flush();
  return parsed;
}

type Json3 = { events?: unknown };

function parseJson3(text: string, file: string): Parsed {
  const cues: Cue[] = [];
  const errors: LocatedError[] = [];
  const warnings: LocatedError[] = [];
  let doc: Json3;
  /** A problem with the document (json3 has no lines to point at: line 1), `field` where in it. */
  const problem = (field: string | undefined, message: string): LocatedError => ({
    file,
    line: 1,
    ...(field === undefined ? {} : { field }),
    message,
  });
  try {
    doc = JSON.parse(text) as Json3;
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return {
      cues,
      warnings,
      errors: [problem(undefined, `expected YouTube json3 captions (a JSON object with "events"): ${why}`)],
    };
  }
  if (typeof doc !== "object" || doc === null || !Array.isArray(doc.events))
    return {
      cues,
      warnings,
      errors: [problem("events", 'expected YouTube json3 captions: a JSON object with an "events" array')],
    };
  const goodMs = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= MAX_MS;
  const msProblem = (f: string, v: unknown) =>
    problem(f, `expected a non-negative number of milliseconds up to ${MAX_MS}, found ${JSON.stringify(v)}`);
  (doc.events as unknown[]).forEach((ev, i) => {
    if (typeof ev !== "object" || ev === null) return;
    const e = ev as { tStartMs?: unknown; dDurationMs?: unknown; segs?: unknown };
    if (!Array.isArray(e.segs)) return; // window-style events carry no text
    const field = (f: string) => `events[${i}].${f}`;
    if (!goodMs(e.tStartMs)) {
      errors.push(msProblem(field("tStartMs"), e.tStartMs));
      return;
    }
    const dur = e.dDurationMs ?? 0;
    if (!goodMs(dur)) {
      errors.push(msProblem(field("dDurationMs"), e.dDurationMs));
      return;
    }
    const t = cleanText(
      (e.segs as unknown[])
        .map((s) =>
          typeof s === "object" && s !== null && typeof (s as { utf8?: unknown }).utf8 === "string"
            ? (s as { utf8: string }).utf8
            : "",
        )
        .join(""),
    );
    if (t) cues.push({ start: e.tStartMs / 1000, end: (e.tStartMs + dur) / 1000, text: t, line: 1 });
  });
  return { cues, errors, warnings };
}

/** Caption file extensions (lower case, without the dot) and the format each names. */
export const CAPTION_EXTENSIONS: Readonly<Record<string, CaptionFormat>> = {
  vtt: "vtt",
  srt: "srt",
  json3: "json3",
  json: "json3",
};

/** The format a file's extension names, or null (not a caption extension). */
export function captionFormatOfName(name: string): CaptionFormat | null {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return ext !== undefined && Object.hasOwn(CAPTION_EXTENSIONS, ext) ? CAPTION_EXTENSIONS[ext] : null;
}

/** The format by file extension, else by looking at the first characters. */
export function sniffCaptionFormat(name: string, text: string): CaptionFormat | null {
  const byExt = captionFormatOfName(name);
  if (byExt) return byExt;
  const head = text.trimStart();
  if (head.startsWith("WEBVTT")) return "vtt";
  if (head.startsWith("{")) return "json3";
  if (/^\d+\s*\r?\n\s*\S+\s+-->/.test(head)) return "srt";
  return null;
}

export function parseCaptions(
  input: string | Uint8Array,
  file: string,
  format?: CaptionFormat,
  repair: CueRepair = "fail",
): { cues: Cue[]; errors: LocatedError[]; warnings: LocatedError[]; format: CaptionFormat | null } {
  const t = toText(input, file);
  if (t.error) return { cues: [], errors: [t.error], warnings: [], format: null };
  if (t.text.trim() === "")
    return {
      cues: [],
      errors: [emptyFile(file, "captions (WebVTT, SRT or YouTube json3)")],
      warnings: [],
      format: null,
    };
  const f = format ?? sniffCaptionFormat(file, t.text);
  if (!f)
    return {
      cues: [],
      errors: [
        {
          file,
          line: 1,
          message:
            "expected captions in WebVTT (.vtt), SRT (.srt) or YouTube json3 (.json3); could not tell which this file is",
        },
      ],
      warnings: [],
      format: null,
    };
  const r = f === "json3" ? parseJson3(t.text, file) : parseBlocks(t.text, file, f, repair);
  if (r.errors.length === 0 && r.cues.length === 0)
    r.errors.push(emptyFile(file, "at least one caption cue with text"));
  const cues = r.cues
    .map((c, i) => ({ c, i }))
    .sort((a, b) => a.c.start - b.c.start || a.i - b.i)
    .map((x) => x.c);
  return { cues, errors: r.errors, warnings: r.warnings, format: f };
}
