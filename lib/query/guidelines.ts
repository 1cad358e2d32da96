"use client";

import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "./fetcher.ts";
import { leadKeys } from "./keys.ts";
import type {
  TGuidelineRevisionSummary,
  TGuidelinesDiff,
  TOlderAnswerGuidelines,
  TOlderGuidelines,
} from "../projects/guidelines.ts";

export type TGuidelineRevisions = {
  revisions: TGuidelineRevisionSummary[];
  older: TOlderGuidelines;
  olderAnswers: TOlderAnswerGuidelines;
};

export const guidelinesKey = (projectId: number) => [...leadKeys.project(projectId), "guidelines"] as const;

/** The guidelines' revisions and the older-revision counts (GET …/guidelines). */
export function useGuidelineRevisions(projectId: number) {
  return useQuery({
    queryKey: guidelinesKey(projectId),
    queryFn: () => apiFetch<TGuidelineRevisions>(`/api/lead/projects/${projectId}/guidelines`),
  });
}

/** The line diff between two revisions (GET …/guidelines/diff?from=&to=); off until both are chosen. */
export function useGuidelinesDiff(projectId: number, from: number | null, to: number | null) {
  return useQuery({
    queryKey: [...guidelinesKey(projectId), "diff", from, to],
    queryFn: () => apiFetch<TGuidelinesDiff>(`/api/lead/projects/${projectId}/guidelines/diff?from=${from}&to=${to}`),
    enabled: from !== null && to !== null,
  });
}
