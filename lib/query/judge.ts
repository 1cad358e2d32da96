"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "./fetcher.ts";
import { leadKeys } from "./keys.ts";
import type { TJudgeDefaults, TRunSummary } from "../judge/service.ts";
import type { TTrialRow } from "../judge/trial.ts";
import type { TRunSettingsInput } from "../judge/create.ts";

export type { TRunSummary, TTrialRow, TRunSettingsInput };

const base = (projectId: number) => `/api/lead/projects/${projectId}/judge`;
const live = (runs: readonly TRunSummary[] | undefined) =>
  (runs ?? []).some((r) => r.status === "running" || r.status === "queued");

/** The project's judge runs; polled every second while one is running, so progress moves by itself. */
export function useJudgeRuns(projectId: number) {
  return useQuery({
    queryKey: leadKeys.judge(projectId),
    queryFn: () => apiFetch<{ runs: TRunSummary[]; defaults: TJudgeDefaults }>(base(projectId)),
    refetchInterval: (q) => (live(q.state.data?.runs) ? 1000 : false),
  });
}

export function useStartJudgeRun(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (settings: TRunSettingsInput) => apiFetch<TRunSummary>(base(projectId), { json: settings }),
    onSuccess: () => qc.invalidateQueries({ queryKey: leadKeys.judge(projectId) }),
  });
}

export function useJudgeRunAction(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({
      runId,
      action,
      retryFailed,
    }: {
      runId: number;
      action: "cancel" | "resume";
      retryFailed?: boolean;
    }) => apiFetch<TRunSummary>(`${base(projectId)}/${runId}`, { json: { action, retryFailed } }),
    onSettled: () => qc.invalidateQueries({ queryKey: leadKeys.judge(projectId) }),
  });
}

export function usePreviewPrompt(projectId: number) {
  return useMutation({
    mutationFn: (input: { template?: string; only?: string; target?: "chunks" | "answers" }) =>
      apiFetch<{ prompts: { qid: string; docid: string; prompt: string }[] }>(`${base(projectId)}/preview`, {
        json: input,
      }),
  });
}

export function useTryJudge(projectId: number) {
  return useMutation({
    mutationFn: (settings: TRunSettingsInput) =>
      apiFetch<{ rows: TTrialRow[] }>(`${base(projectId)}/try`, { json: settings }),
  });
}
