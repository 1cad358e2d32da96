"use client";

import type { TAnnotatorQueueItem } from "@/lib/annotate/queue";
import type { useQueuePages } from "@/lib/query/annotate";
import { neighbour, type TForm, type TNotices, type TQueuePlace } from "./annotateHelpers";

type TQueue = ReturnType<typeof useQueuePages>;

/** `pages`: the queue's pages (useQueuePages); `saved`: what the page last sent per item. */
type TMovesArgs = {
  place: TQueuePlace;
  pages: Pick<TQueue, "hasNextPage" | "hasPreviousPage" | "fetchNextPage" | "fetchPreviousPage">;
  pendingIds: ReadonlySet<string>;
  saved: Record<string, TForm>;
  notices: TNotices;
  setAtEnd: (atEnd: boolean) => void;
  setCurrentId: (id: string | null) => void;
};

/**
 * The annotate page's moves in its queue (components/annotate/AnnotatePage.tsx), made afresh each
 * render: `goTo` an item (null: the end card), `forward` without grading, `goOn` after a grade,
 * `back` (the `u` key). Pages are fetched when the move leaves the ones held.
 */
export function useQueueMoves({ place, pages, pendingIds, saved, notices, setAtEnd, setCurrentId }: TMovesArgs) {
  const { flat, pos, activeId, nextId } = place;
  const { hasNextPage, hasPreviousPage, fetchNextPage, fetchPreviousPage } = pages;
  const { setMessage, setStartNotice, setEndNotice } = notices;
  const goTo = (id: string | null) => {
    setMessage(null);
    setStartNotice(null);
    setEndNotice(null);
    if (id === null) setAtEnd(true);
    else {
      setAtEnd(false);
      setCurrentId(id);
    }
  };

  /** The next item without grading (a closed project), from the next page when needed. */
  const forward = () => {
    if (!activeId) return;
    if (nextId !== null || !hasNextPage) goTo(nextId);
    else
      void fetchNextPage().then((r) =>
        goTo(
          neighbour(
            r.data?.pages.flatMap((p) => p.items),
            activeId,
            1,
          ),
        ),
      );
  };

  /**
   * Going on after a grade: the next item not graded after `from` (in the held
   * pages, then the pages after), else the first one not graded among the held pages before it,
   * else the end card. `from` itself counts as graded (this render does not know it yet).
   */
  const goOn = async (from: string) => {
    // `saved` too: a page of the queue fetched while a grade was marked done can bring the old flag back.
    const open = (it: TAnnotatorQueueItem) => it.id !== from && !it.done && !pendingIds.has(it.id) && !(it.id in saved);
    let items: readonly TAnnotatorQueueItem[] = flat;
    let more = hasNextPage;
    for (;;) {
      const found = items.slice(items.findIndex((it) => it.id === from) + 1).find(open);
      if (found) return goTo(found.id);
      if (!more) break;
      const r = await fetchNextPage();
      if (r.isError) return goTo(neighbour(items, from, 1));
      items = r.data?.pages.flatMap((p) => p.items) ?? items;
      more = r.hasNextPage;
    }
    goTo(items.find(open)?.id ?? null);
  };

  // `u`: the previous item, from the page before when this is the first item held.
  const back = () => {
    if (activeId === null) goTo(flat[flat.length - 1]?.id ?? null);
    else if (pos > 0) goTo(flat[pos - 1].id);
    else if (pos === 0 && hasPreviousPage && activeId) {
      const from = activeId;
      void fetchPreviousPage().then((r) => {
        const prev = neighbour(
          r.data?.pages.flatMap((p) => p.items),
          from,
          -1,
        );
        if (prev) goTo(prev);
      });
    }
  };
  return { goTo, forward, goOn, back };
}
