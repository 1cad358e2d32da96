import type { TAnnotatorItem } from "@/lib/annotate/view";
import type { TAnnotatorQueueItem } from "@/lib/annotate/queue";
import { ApiError } from "@/lib/query/fetcher";

/** The annotate page's pure helpers (components/annotate/AnnotatePage.tsx): its form, players and queue. */

/** `end`: where the answer ends (the `e` key), null when not marked. */
export type TForm = { grade: number | null; start: number; end: number | null; notes: string; flags: string[] };

export const sameForm = (a: TForm, b: TForm) =>
  a.grade === b.grade &&
  a.start === b.start &&
  a.end === b.end &&
  a.notes === b.notes &&
  a.flags.length === b.flags.length &&
  a.flags.every((f) => b.flags.includes(f));

export function initialForm(item: TAnnotatorItem): TForm {
  const own = item.own;
  return own
    ? {
        grade: own.grade,
        start: own.startSeconds ?? item.chunk.startSeconds,
        end: own.endSeconds,
        notes: own.notes,
        flags: own.flags,
      }
    : { grade: null, start: item.chunk.startSeconds, end: null, notes: "", flags: [] };
}

/** A video the page's <video> element plays (a file or a URL), so the next item's can be loaded in place; not YouTube (an iframe player per item). */
export const preloadable = (v: TAnnotatorItem["video"]) =>
  v.src !== null && v.allowed && (v.kind === "file" || v.kind === "url");
export const signedOutError = (e: unknown) => e instanceof ApiError && e.status === 401;

/** Where the page is in its held queue: the items, the shown one's position and id (null: the end card), the next one's id. */
export type TQueuePlace = {
  flat: readonly TAnnotatorQueueItem[];
  pos: number;
  activeId: string | null;
  nextId: string | null;
};

/** The page's notices, cleared together on a move: the form's message, and why `s` or `e` did nothing. */
export type TNotices = {
  setMessage: (m: string | null) => void;
  setStartNotice: (m: string | null) => void;
  setEndNotice: (m: string | null) => void;
};

/** The item `step` places from `id` in the held pages, once they are loaded. */
export function neighbour(items: readonly TAnnotatorQueueItem[] | undefined, id: string, step: 1 | -1): string | null {
  const i = items ? items.findIndex((it) => it.id === id) : -1;
  return i >= 0 ? (items?.[i + step]?.id ?? null) : null;
}
