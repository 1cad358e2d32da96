"use client";

import { useInfiniteQuery, useQuery, type InfiniteData, type QueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { apiFetch } from "./fetcher.ts";
import { Outbox, type TOutboxEntry, type TOutboxFailure, type TOutboxResult } from "../offline/outbox.ts";
import type { TAnnotatorItem, TAnnotatorOpening } from "../annotate/view.ts";
import type { TAnnotatorProjects, TQueuePage } from "../annotate/queue.ts";

export const annotateKeys = {
  all: ["annotate"] as const,
  projects: () => [...annotateKeys.all, "projects"] as const,
  queue: (projectId: number) => [...annotateKeys.all, "queue", projectId] as const,
  item: (id: string) => [...annotateKeys.all, "item", id] as const,
};

const itemQuery = (id: string) => ({
  queryKey: annotateKeys.item(id),
  queryFn: () => apiFetch<TAnnotatorItem>(`/api/annotate/items/${encodeURIComponent(id)}`),
  // An item's content does not change while it is being graded; the own label is kept locally.
  staleTime: Infinity,
});

/** The projects the annotator has items in (counts for the picker) and the one to open. */
export function useAnnotatorProjects(enabled = true) {
  // `enabled: false` only reads what another observer loaded (the counts are a heavier read, asked for once the first item is shown).
  return useQuery({
    queryKey: annotateKeys.projects(),
    queryFn: () => apiFetch<TAnnotatorProjects>("/api/annotate/projects"),
    staleTime: Infinity,
    enabled,
  });
}

type TPageParam = { after?: string; before?: string; projectId?: number };

/** Pages held at once: the current one and a few around it (the client never holds the whole queue). */
export const MAX_QUEUE_PAGES = 6;

/**
 * The annotator's queue in one project, a page at a time (GET /api/annotate/queue): the first page
 * starts at the first item not yet graded; `fetchNextPage` / `fetchPreviousPage` walk on with the
 * last / first item id as the cursor.
 */
export function useQueuePages(projectId: number | null) {
  return useInfiniteQuery({
    queryKey: annotateKeys.queue(projectId ?? 0),
    // Without a project: the server's pick (the page names it); later pages name the project.
    queryFn: ({ pageParam }: { pageParam: TPageParam }) => {
      const q = new URLSearchParams();
      const project = pageParam.projectId ?? projectId;
      if (project !== null) q.set("projectId", String(project));
      if (pageParam.after) q.set("after", pageParam.after);
      if (pageParam.before) q.set("before", pageParam.before);
      return apiFetch<TQueuePage>(`/api/annotate/queue?${q}`);
    },
    initialPageParam: {} as TPageParam,
    getNextPageParam: (last: TQueuePage): TPageParam | undefined =>
      last.hasAfter && last.items.length
        ? { after: last.items[last.items.length - 1].id, projectId: last.project?.id }
        : undefined,
    getPreviousPageParam: (first: TQueuePage): TPageParam | undefined =>
      first.hasBefore && first.items.length ? { before: first.items[0].id, projectId: first.project?.id } : undefined,
    maxPages: MAX_QUEUE_PAGES,
    staleTime: Infinity,
  });
}

/**
 * Puts what the server read with the page (lib/annotate/view.ts annotatorOpening) into the cache:
 * the opening queue page of `projectId` (null: the server's pick) and its first item, so the first
 * item is rendered with the page instead of after two more requests. Entries already held (a
 * return to the page within the tab, with grades marked since) are left alone.
 */
export function seedOpening(qc: QueryClient, projectId: number | null, opening: TAnnotatorOpening): void {
  const queueKey = annotateKeys.queue(projectId ?? 0);
  if (qc.getQueryData(queueKey) === undefined) {
    const data: InfiniteData<TQueuePage, TPageParam> = { pages: [opening.page], pageParams: [{}] };
    qc.setQueryData(queueKey, data);
  }
  if (opening.item && qc.getQueryData(annotateKeys.item(opening.item.id)) === undefined)
    qc.setQueryData(annotateKeys.item(opening.item.id), opening.item);
}

export function useAnnotatorItem(id: string | null) {
  return useQuery({ ...itemQuery(id ?? ""), enabled: id !== null });
}

/** Loads an item into the cache ahead of time, so moving to it needs no network. */
export function prefetchItem(qc: QueryClient, id: string): Promise<void> {
  return qc.prefetchQuery(itemQuery(id));
}

/** Marks an item done in the cached queue pages and project counts, without a round trip. */
export function markDone(qc: QueryClient, queueKey: number, projectId: number, id: string): void {
  setDone(qc, queueKey, projectId, id, true);
}

/**
 * Marks an item done (or, after the server refused its only grade, not done) in the cached queue
 * pages and project counts, without a round trip.
 */
export function setDone(qc: QueryClient, queueKey: number, projectId: number, id: string, done: boolean): void {
  let question: number | null = null;
  const step = done ? 1 : -1;
  qc.setQueryData<InfiniteData<TQueuePage, TPageParam>>(annotateKeys.queue(queueKey), (data) => {
    const hit = data?.pages.flatMap((p) => p.items).find((it) => it.id === id && it.done !== done);
    if (!data || !hit) return data;
    question = hit.question;
    const pages = data.pages.map((p) => ({
      ...p,
      items: p.items.map((it) => (it.id === id ? { ...it, done } : it)),
      questions: p.questions.map((q) => (q.index === hit.question ? { ...q, done: q.done + step } : q)),
    }));
    return { ...data, pages };
  });
  if (question === null) return;
  qc.setQueryData<TAnnotatorProjects>(
    annotateKeys.projects(),
    (d) =>
      d && {
        ...d,
        projects: d.projects.map((p) =>
          p.id === projectId
            ? { ...p, done: p.done + step, ...(done ? { lastGradedAt: new Date().toISOString() } : {}) }
            : p,
        ),
      },
  );
}

export type TJudgementBody = {
  poolItemId: string;
  grade: number;
  startSeconds: number | null;
  notes: string;
  flags: string[];
  timeSpentMs: number | null;
  idempotencyKey: string;
};

/**
 * The signed-in user's outbox of submissions (lib/offline/outbox.ts), kept in localStorage under a
 * key that includes the user id (so one person's grades are never sent with another's session).
 * `failed`: grades the server refused, kept (also in localStorage) until the annotator dismisses them.
 */
export function useOutbox(userId: string, onResult?: (r: TOutboxResult) => void) {
  const [pending, setPending] = useState<readonly TOutboxEntry[]>([]);
  const [failed, setFailed] = useState<readonly TOutboxFailure[]>([]);
  const [signedOut, setSignedOut] = useState(false);
  const outboxRef = useRef<Outbox | null>(null);
  const onResultRef = useRef(onResult);
  useEffect(() => {
    onResultRef.current = onResult;
  }, [onResult]);

  useEffect(() => {
    const onChange = (p: readonly TOutboxEntry[], f: readonly TOutboxFailure[], state: { signedOut: boolean }) => {
      setPending(p);
      setFailed(f);
      setSignedOut(state.signedOut);
    };
    const outbox = new Outbox({
      storage: window.localStorage,
      storageKey: `assessor.outbox.${userId}`,
      onChange,
      onResult: (r) => onResultRef.current?.(r),
    });
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

  const submit = useCallback(
    (url: string, itemId: string, body: { idempotencyKey: string } & Record<string, unknown>) => {
      const entry = { key: body.idempotencyKey, url, itemId, body };
      if (outboxRef.current) return outboxRef.current.enqueue(entry);
      // A key pressed before the effect above made the outbox (or between a user switch's cleanup
      // and the next run): the grade is stored all the same, and sent when that outbox starts.
      const kept = new Outbox({ storage: window.localStorage, storageKey: `assessor.outbox.${userId}` });
      kept.stop();
      kept.enqueue(entry);
    },
    [userId],
  );
  const retryNow = useCallback(() => void outboxRef.current?.flush(true), []);
  /** Sends everything now (after signing in again); resolves when the pass is over. */
  const flushNow = useCallback(() => outboxRef.current?.flush(true) ?? Promise.resolve(), []);
  const dismiss = useCallback((key: string) => outboxRef.current?.dismiss(key), []);
  return { pending, failed, signedOut, submit, retryNow, flushNow, dismiss };
}

/** Reads an item from the server again (after a refused grade: what the server holds), updating the cache. */
export function refetchItem(qc: QueryClient, id: string): Promise<TAnnotatorItem> {
  return qc.fetchQuery({ ...itemQuery(id), staleTime: 0 });
}
