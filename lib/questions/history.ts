/**
 * A question's history as readable changes, pure. QueryEvent rows keep the
 * record before and after as JSON in two shapes: the write screen's and the lead's edits
 * (store.ts: places as `{ videoId, start, end }`) and the import's (lib/imports/queries.ts: places
 * as `{ videoId, startSeconds, endSeconds }`, with the author). `readSnapshot` reads either into one
 * shape with the videos named; `historyChanges` lists the fields that changed, each before and
 * after as text for the screen (m:ss times).
 */
import { formatClock } from "../annotate/format.ts";

export type TSnapshotPlace = { video: string | null; start: number; end: number | null };
export type TSnapshot = {
  text: string | null;
  status: string | null;
  author?: string | null;
  tags: string[];
  places: TSnapshotPlace[];
};
export type TFieldChange = {
  field: "text" | "status" | "author" | "tags" | "places";
  before: string | null;
  after: string | null;
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const numOr = (v: unknown, fallback: number | null): number | null =>
  typeof v === "number" && Number.isFinite(v) ? v : fallback;

/** The video ids a stored record names (to look their names up once). */
export function snapshotVideoIds(raw: unknown): number[] {
  if (!isRecord(raw) || !Array.isArray(raw.places)) return [];
  return raw.places.flatMap((p) => (isRecord(p) && typeof p.videoId === "number" ? [p.videoId] : []));
}

/** A stored record (either shape) with its videos named by `videoName`; null stays null (a creation). */
export function readSnapshot(raw: unknown, videoName: (id: number) => string): TSnapshot | null {
  if (!isRecord(raw)) return null;
  const places = Array.isArray(raw.places)
    ? raw.places.filter(isRecord).map((p) => ({
        video: typeof p.videoId === "number" ? videoName(p.videoId) : null,
        start: numOr(p.start ?? p.startSeconds, 0)!,
        end: numOr(p.end ?? p.endSeconds, null),
      }))
    : [];
  const snap: TSnapshot = {
    text: typeof raw.text === "string" ? raw.text : null,
    status: typeof raw.status === "string" ? raw.status : null,
    tags: Array.isArray(raw.tags) ? raw.tags.filter((t): t is string => typeof t === "string") : [],
    places,
  };
  if ("author" in raw) snap.author = typeof raw.author === "string" ? raw.author : null;
  return snap;
}

/** A place as on screen: `video 0:03–0:09`, or `video 0:03` without an end. */
export function placeLabel(p: TSnapshotPlace): string {
  const span = `${formatClock(p.start)}${p.end === null ? "" : `–${formatClock(p.end)}`}`;
  return p.video === null ? span : `${p.video} ${span}`;
}

const show = {
  text: (s: TSnapshot) => s.text,
  status: (s: TSnapshot) => s.status,
  author: (s: TSnapshot) => s.author ?? null,
  tags: (s: TSnapshot) => (s.tags.length ? [...s.tags].sort().join(", ") : null),
  places: (s: TSnapshot) => (s.places.length ? s.places.map(placeLabel).join("; ") : null),
};

/**
 * The fields that differ between two records, in a fixed order (text, status, author, tags,
 * places); for a creation (`before` null) every field that has a value. The author is compared
 * only where both records carry one (the write screen's records do not).
 */
export function historyChanges(before: TSnapshot | null, after: TSnapshot): TFieldChange[] {
  const out: TFieldChange[] = [];
  for (const field of ["text", "status", "author", "tags", "places"] as const) {
    if (field === "author" && (after.author === undefined || (before !== null && before.author === undefined)))
      continue;
    const b = before === null ? null : show[field](before);
    const a = show[field](after);
    if (b !== a) out.push({ field, before: b, after: a });
  }
  return out;
}
