/**
 * The label-transfer rule's inputs and outputs (transfer.ts): labelled spans of chunking A, target
 * chunks of B, the rule's options with their checks, and the length assumed for open reference spans.
 */
import { median } from "../median.ts";
import { EPS, checkSpan } from "./spans.ts";
import type { ReferenceSpan } from "./reference.ts";

export const TRANSFER_RULE_VERSION = 2;

export type LabelledSpan = {
  /** The source label's id (provenance). */
  id: string;
  query: string;
  video: string;
  start: number;
  end: number;
  /** 0–3. */
  grade: number;
};

export type TargetChunk = { id: string; video: string; start: number; end: number };

export type TransferOptions = {
  /** A chunk holding at least this share of a reference span holds the answer (default 0.5). */
  holdShare?: number;
  /** A chunk holding at least this many seconds of a reference span holds part of it (default 1). */
  partSeconds?: number;
  /** A chunk within this many seconds of a reference span is related (default 5). */
  nearSeconds?: number;
  /** A chunk gets 0 when more than 0 and at least this share of its seconds is shown free of any answer (default 0: any second). */
  zeroShare?: number;
  /** Length assumed for an open reference span (start only); null: the median of the closed ones, else 8. */
  openSeconds?: number | null;
};

export const DEFAULT_TRANSFER: Required<TransferOptions> = {
  holdShare: 0.5,
  partSeconds: 1,
  nearSeconds: 5,
  zeroShare: 0,
  openSeconds: null,
};
const DEFAULT_OPEN_SECONDS = 8;

export type TransferRule = "exact" | "answer" | "part" | "near" | "evidence" | "related" | "zero";

export type TransferSource = {
  labelId: string;
  grade: number;
  /** Seconds shared / the labelled span's seconds (1 for an exact match). */
  coverage: number;
  /** Seconds shared / the chunk's seconds. */
  share: number;
  /** The grade this label gave the chunk; null when it gave none. */
  gives: number | null;
};

export type TransferredLabel = {
  query: string;
  chunkId: string;
  grade: number;
  rule: TransferRule;
  /** The reference span that gave the grade (rules answer, part, near); `open` when its end was assumed. */
  reference: { start: number; end: number; open: boolean } | null;
  /** Share of the chunk's seconds shown free of any answer (rule zero); null otherwise. */
  free: number | null;
  sources: TransferSource[];
};

export type Ref = { start: number; end: number; open: boolean; verdict: number };

export function checkOptions(o: Required<TransferOptions>): void {
  const share = (k: string, v: number) => {
    if (!(v > 0 && v <= 1)) throw new RangeError(`transfer option ${k} must be a share in (0, 1], found ${v}`);
  };
  const seconds = (k: string, v: number) => {
    if (!(Number.isFinite(v) && v >= 0)) throw new RangeError(`transfer option ${k} must be seconds ≥ 0, found ${v}`);
  };
  share("holdShare", o.holdShare);
  if (!(o.zeroShare >= 0 && o.zeroShare <= 1))
    throw new RangeError(`transfer option zeroShare must be a share in [0, 1], found ${o.zeroShare}`);
  seconds("partSeconds", o.partSeconds);
  seconds("nearSeconds", o.nearSeconds);
  if (o.openSeconds !== null && !(o.openSeconds > 0 && Number.isFinite(o.openSeconds)))
    throw new RangeError(`transfer option openSeconds must be seconds > 0 or null, found ${o.openSeconds}`);
}

export const isSpan = (s: { start: number; end: number }) => s.start >= 0 && s.end >= s.start && Number.isFinite(s.end);

export function checkLabel(l: LabelledSpan): void {
  if (isSpan(l) && Number.isInteger(l.grade) && l.grade >= 0 && l.grade <= 3) return;
  const what = `label ${l.id} (query ${l.query}, video ${l.video})`;
  checkSpan(l, what);
  throw new RangeError(`${what}: grade must be an integer 0–3, found ${l.grade}`);
}

/** The length assumed for open reference spans: the option, else the median closed length, else 8 s. */
export function openSecondsOf(
  references: ReadonlyMap<string, readonly ReferenceSpan[]>,
  option: number | null,
): number {
  if (option !== null) return option;
  const lengths: number[] = [];
  for (const list of references.values())
    for (const r of list) if (r.end !== null && r.end - r.start > EPS) lengths.push(r.end - r.start);
  return median(lengths) ?? DEFAULT_OPEN_SECONDS;
}
