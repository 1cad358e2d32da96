"use client";

import { useQuery, type QueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { apiFetch } from "./fetcher.ts";
import { Outbox, type TOutboxEntry, type TOutboxFailure, type TOutboxResult } from "../offline/outbox.ts";
import type { TAnnotatorItem, TAnnotatorQueue } from "../annotate/view.ts";

export const annotateKeys = {
  all: ["annotate"] as const,
  queue: () => [...annotateKeys.all, "queue"] as const,
  item: (id: string) => [...annotateKeys.all, "item", id] as const,
};

const itemQuery = (id: string) => ({
  queryKey: annotateKeys.item(id),
  queryFn: () => apiFetch<TAnnotatorItem>(`/api/annotate/items/${encodeURIComponent(id)}`),
  // An item's content does not change while it is being graded; the own label is kept locally.
  staleTime: Infinity,
});

export function useAnnotatorQueue() {
  return useQuery({ queryKey: annotateKeys.queue(), queryFn: () => apiFetch<TAnnotatorQueue>("/api/annotate/queue"), staleTime: Infinity });
}

export function useAnnotatorItem(id: string | null) {
  return useQuery({ ...itemQuery(id ?? ""), enabled: id !== null });
}

/** Loads an item into the cache ahead of time, so moving to it needs no network. */
export function prefetchItem(qc: QueryClient, id: string): Promise<void> {
  return qc.prefetchQuery(itemQuery(id));
}

/** Marks an item done in the cached queue, without a round trip. */
export function markDone(qc: QueryClient, id: string): void {
  qc.setQueryData<TAnnotatorQueue>(annotateKeys.queue(), (q) => {
    if (!q) return q;
    let changed = false;
    const groups = q.groups.map((g) => {
      const i = g.items.findIndex((it) => it.id === id && !it.done);
      if (i < 0) return g;
      changed = true;
      const items = g.items.map((it, j) => (j === i ? { ...it, done: true } : it));
      return { ...g, items, done: g.done + 1 };
    });
    return changed ? { ...q, groups, done: q.done + 1 } : q;
  });
}

export type TJudgementBody = { poolItemId: string; grade: number; startSeconds: number | null; notes: string; flags: string[]; timeSpentMs: number | null; idempotencyKey: string };

/**
 * The signed-in user's outbox of submissions (lib/offline/outbox.ts), kept in localStorage under a
 * key that includes the user id (so one person's grades are never sent with another's session).
 * `failed`: grades the server refused, kept (also in localStorage) until the annotator dismisses them.
 */
export function useOutbox(userId: string, onResult?: (r: TOutboxResult) => void) {
  const [pending, setPending] = useState<readonly TOutboxEntry[]>([]);
  const [failed, setFailed] = useState<readonly TOutboxFailure[]>([]);
  const outboxRef = useRef<Outbox | null>(null);
  const onResultRef = useRef(onResult);
  useEffect(() => {
    onResultRef.current = onResult;
  }, [onResult]);

  useEffect(() => {
    const onChange = (p: readonly TOutboxEntry[], f: readonly TOutboxFailure[]) => {
      setPending(p);
      setFailed(f);
    };
    const outbox = new Outbox({ storage: window.localStorage, storageKey: `assessor.outbox.${userId}`, onChange, onResult: (r) => onResultRef.current?.(r) });
    outboxRef.current = outbox;
    setPending(outbox.pending());
    setFailed(outbox.failed());
    void outbox.flush(true);
    const online = () => void outbox.flush(true);
    window.addEventListener("online", online);
    return () => {
      window.removeEventListener("online", online);
      outbox.stop();
      outboxRef.current = null;
    };
  }, [userId]);

  const submit = useCallback((url: string, itemId: string, body: { idempotencyKey: string } & Record<string, unknown>) => {
    outboxRef.current?.enqueue({ key: body.idempotencyKey, url, itemId, body });
  }, []);
  const retryNow = useCallback(() => void outboxRef.current?.flush(true), []);
  const dismiss = useCallback((key: string) => outboxRef.current?.dismiss(key), []);
  return { pending, failed, submit, retryNow, dismiss };
}
