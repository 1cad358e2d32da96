"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "./fetcher.ts";
import type { TAdjudicatorItem, TAdjudicatorProject } from "../annotate/adjudicate.ts";

export const adjudicateKeys = {
  all: ["adjudicate"] as const,
  projects: () => [...adjudicateKeys.all, "projects"] as const,
  queue: (projectId: number) => [...adjudicateKeys.all, "queue", projectId] as const,
};

export type TDecisionBody = {
  poolItemId: string;
  grade: number;
  startSeconds: number | null;
  endSeconds: number | null;
  rationale: string;
  idempotencyKey: string;
  revises?: number;
  guidelineRevision?: number;
};
export type TDecision = {
  applied: boolean;
  poolItemId: string;
  grade: number;
  startSeconds: number | null;
  endSeconds: number | null;
  rationale: string;
  revision: number;
};
import type { TStanding } from "../adjudication/decide.ts";
export type { TStanding };

export function useAdjudicatorProjects() {
  return useQuery({
    queryKey: adjudicateKeys.projects(),
    queryFn: () => apiFetch<TAdjudicatorProject[]>("/api/adjudicate/projects"),
  });
}

/** The queue is loaded once per visit: decided items leave it locally, so the order stays put while working. */
export function useAdjudicatorQueue(projectId: number | null) {
  return useQuery({
    queryKey: adjudicateKeys.queue(projectId ?? 0),
    queryFn: () => apiFetch<TAdjudicatorItem[]>(`/api/adjudicate/queue?projectId=${projectId}`),
    enabled: projectId !== null,
    staleTime: Infinity,
  });
}

/** The caller's last decision in the project with its item (`u` when this visit decided nothing yet). */
export function fetchLastDecision(projectId: number) {
  return apiFetch<{ item: (TAdjudicatorItem & { decision: TStanding }) | null }>(
    `/api/adjudicate/last?projectId=${projectId}`,
  );
}

/** A decision; the picker's pending counts are read again after each one, taken or refused (they went stale). */
export function useDecide() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TDecisionBody) => apiFetch<TDecision>("/api/adjudicate/decisions", { json: body }),
    onSettled: () => qc.invalidateQueries({ queryKey: adjudicateKeys.projects() }),
  });
}
