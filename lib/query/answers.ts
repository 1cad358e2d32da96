"use client";

import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from "@tanstack/react-query";
import { apiFetch } from "./fetcher.ts";
import type { TAnnotatorAnswer, TAnswerProject, TAnswerQueuePage } from "../answers/view.ts";
import type { TAnswerAdjudicateResult, TAnswerAdjudicationItem } from "../answers/adjudicate.ts";
import type { TClaimLabel } from "../answers/labels.ts";

/** Client data of the answer task: the annotator's queue and answers, the adjudicator's queue and decisions. */
export const answerKeys = {
  all: ["answers"] as const,
  projects: () => [...answerKeys.all, "projects"] as const,
  queue: (projectId: number) => [...answerKeys.all, "queue", projectId] as const,
  item: (id: string) => [...answerKeys.all, "item", id] as const,
  adjudicateCounts: () => [...answerKeys.all, "adjudicate", "counts"] as const,
  adjudicateQueue: (projectId: number) => [...answerKeys.all, "adjudicate", "queue", projectId] as const,
};

const itemQuery = (id: string) => ({
  queryKey: answerKeys.item(id),
  queryFn: () => apiFetch<TAnnotatorAnswer>(`/api/annotate/answers/items/${encodeURIComponent(id)}`),
  staleTime: Infinity,
});

export function useAnswerProjects(enabled = true) {
  return useQuery({
    queryKey: answerKeys.projects(),
    queryFn: () => apiFetch<{ projects: TAnswerProject[] }>("/api/annotate/answers/projects"),
    staleTime: 30_000,
    enabled,
  });
}

type TPageParam = { after?: string; projectId?: number };

/** The annotator's answer queue, a page (50) at a time, in their own order. */
export function useAnswerQueue(projectId: number | null) {
  return useInfiniteQuery({
    queryKey: answerKeys.queue(projectId ?? 0),
    queryFn: ({ pageParam }: { pageParam: TPageParam }) => {
      const q = new URLSearchParams();
      const project = pageParam.projectId ?? projectId;
      if (project !== null) q.set("projectId", String(project));
      if (pageParam.after) q.set("after", pageParam.after);
      return apiFetch<TAnswerQueuePage>(`/api/annotate/answers/queue?${q}`);
    },
    initialPageParam: {} as TPageParam,
    getNextPageParam: (last: TAnswerQueuePage): TPageParam | undefined =>
      last.hasAfter && last.items.length
        ? { after: last.items[last.items.length - 1].id, projectId: last.project?.id }
        : undefined,
    staleTime: Infinity,
  });
}

export function useAnswer(id: string | null) {
  return useQuery({ ...itemQuery(id ?? ""), enabled: id !== null });
}

export function prefetchAnswer(qc: QueryClient, id: string): Promise<void> {
  return qc.prefetchQuery(itemQuery(id));
}

/** Marks an answer done in the cached queue pages, without a round trip. */
export function markAnswerDone(qc: QueryClient, queueKey: number, id: string): void {
  qc.setQueryData<InfiniteData<TAnswerQueuePage, TPageParam>>(answerKeys.queue(queueKey), (data) => {
    const hit = data?.pages.flatMap((p) => p.items).find((it) => it.id === id && !it.done);
    if (!data || !hit) return data;
    return {
      ...data,
      pages: data.pages.map((p) => ({
        ...p,
        done: p.done + 1,
        items: p.items.map((it) => (it.id === id ? { ...it, done: true } : it)),
      })),
    };
  });
}

/** A claim edit: the op, the claim set it was made on (`claimVersion` as shown), and a key chosen once (a retry resends it). */
export type TClaimEditBody = {
  op: { kind: "merge"; positions: [number, number] } | { kind: "split"; position: number; at: number };
  version: number;
  idempotencyKey: string;
};
export type TClaimEditAnswer = { version: number; claims: { position: number; text: string }[] };

export function useEditClaims() {
  return useMutation({
    mutationFn: ({ answerId, body }: { answerId: string; body: TClaimEditBody }) =>
      apiFetch<TClaimEditAnswer>(`/api/annotate/answers/items/${encodeURIComponent(answerId)}/claims`, { json: body }),
  });
}

export type TAnswerJudgementBody = {
  answerId: string;
  claimVersion: number;
  claimLabels: TClaimLabel[];
  relevance: number;
  notes: string;
  flags: string[];
  timeSpentMs: number | null;
  /** The guidelines revision the page showed (a submission queued by an older page may lack it). */
  guidelineRevision?: number | null;
  idempotencyKey: string;
};

export function useAnswerAdjudicationCounts() {
  return useQuery({
    queryKey: answerKeys.adjudicateCounts(),
    queryFn: () => apiFetch<{ projectId: number; pending: number }[]>("/api/adjudicate/answers/projects"),
  });
}

export function useAnswerAdjudicationQueue(projectId: number | null) {
  return useQuery({
    queryKey: answerKeys.adjudicateQueue(projectId ?? 0),
    queryFn: () => apiFetch<TAnswerAdjudicationItem[]>(`/api/adjudicate/answers/queue?projectId=${projectId}`),
    enabled: projectId !== null,
    staleTime: Infinity,
  });
}

export type TAnswerDecisionBody = {
  answerId: string;
  claimVersion: number;
  claimLabels: TClaimLabel[];
  relevance: number;
  rationale: string;
  idempotencyKey: string;
  revises?: number;
  /** The guidelines revision the page showed. */
  guidelineRevision?: number;
};

/** A decision; after it (or a 409: someone else decided) the picker's counts are refetched and the project's queue is read afresh on the next visit. */
export function useDecideAnswer(projectId: number | null) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TAnswerDecisionBody) =>
      apiFetch<TAnswerAdjudicateResult>("/api/adjudicate/answers/decisions", { json: body }),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: answerKeys.adjudicateCounts() });
      if (projectId !== null)
        void qc.invalidateQueries({ queryKey: answerKeys.adjudicateQueue(projectId), refetchType: "none" });
    },
  });
}
