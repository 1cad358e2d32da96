"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TDecisionCardRow } from "@/lib/decisions/routes";
import { dashboardKeys } from "./dashboard";
import { apiFetch } from "./fetcher";

const decisionsKey = (projectId: number) => [...dashboardKeys.project(projectId), "decisions"] as const;

/** The project's decisions with their status (refetched with every panel when the label-set version changes). */
export function useDecisions(projectId: number) {
  return useQuery({
    queryKey: decisionsKey(projectId),
    queryFn: () => apiFetch<{ decisions: TDecisionCardRow[] }>(`/api/dashboard/${projectId}/decisions`),
  });
}

/** Draws the next batch of a decision (lead only); every panel is refreshed afterwards. */
export function useDrawForDecision(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { decision: string; budget: number }) =>
      apiFetch<{ look: number; drawn: number; newQuestions: number; created: number }>(
        `/api/dashboard/${projectId}/decisions`,
        { json: input },
      ),
    onSuccess: () => qc.invalidateQueries({ queryKey: dashboardKeys.project(projectId) }),
  });
}
