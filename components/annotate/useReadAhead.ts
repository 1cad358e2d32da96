"use client";

import { useQuery, type QueryClient } from "@tanstack/react-query";
import { useEffect, useState, type RefObject } from "react";
import type { TAnnotatorItem } from "@/lib/annotate/view";
import type { TQueuePlace } from "./annotateHelpers";
import { annotateKeys, prefetchItem } from "@/lib/query/annotate";
import { apiFetch } from "@/lib/query/fetcher";

const PREFETCH_AHEAD = 5;
/** How long the first item is on screen before the background reads start. */
const SETTLE_MS = 300;

/**
 * The annotate page's reads ahead (components/annotate/AnnotatePage.tsx): the next item, the few
 * after it and the queue's next page, once the first item has been on screen a moment. `settled`:
 * that moment has passed; `next`: the next item's read. `shownAtRef` is set when the item changes.
 */
export function useReadAhead({
  qc,
  shown,
  place,
  shownAtRef,
  pages,
}: {
  qc: QueryClient;
  shown: boolean;
  place: TQueuePlace;
  shownAtRef: RefObject<number>;
  pages: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
}) {
  const { activeId, pos, nextId, flat } = place;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  // Reads in the background (the next items, the project counts) start once the first item has
  // been on screen a moment: started at once, a reload left them running on the server in front of
  // the next page's first item.
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    if (!shown || settled) return;
    const t = setTimeout(() => setSettled(true), SETTLE_MS);
    return () => clearTimeout(t);
  }, [shown, settled]);
  const next = useQuery({
    queryKey: annotateKeys.item(nextId ?? ""),
    queryFn: () => apiFetch<TAnnotatorItem>(`/api/annotate/items/${encodeURIComponent(nextId ?? "")}`),
    enabled: nextId !== null && settled,
    staleTime: Infinity,
  });

  // The next few items are loaded ahead (their data stays cached), so moving on needs no network
  // and a short loss of connection does not stop the work.
  useEffect(() => {
    shownAtRef.current = performance.now();
    if (pos < 0 || !settled) return;
    for (const f of flat.slice(pos + 2, pos + 1 + PREFETCH_AHEAD)) void prefetchItem(qc, f.id);
  }, [activeId, pos, flat, qc, settled, shownAtRef]);
  // The next page is asked for while a few items of this one are left.
  useEffect(() => {
    if (pos >= 0 && flat.length - pos <= PREFETCH_AHEAD + 1 && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [pos, flat.length, hasNextPage, isFetchingNextPage, fetchNextPage]);
  return { settled, next };
}
