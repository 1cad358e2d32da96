"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "./fetcher.ts";
import { leadKeys } from "./keys.ts";
import type { TProbesPanel } from "../dashboard/probes.ts";
import type { TProbeStart } from "../judge/probe/start.ts";
import type { TProbeKind } from "../judge/probe/perturb.ts";

export type { TProbesPanel, TProbeStart };

const path = (projectId: number) => `/api/lead/projects/${projectId}/judge/probes`;
const probesKey = (projectId: number) => [...leadKeys.judge(projectId), "probes"] as const;
const live = (p: TProbesPanel | undefined) =>
  (p?.sources ?? []).some((s) => s.rows.some((r) => r.status === "running" || r.status === "queued"));

/** The Judge robustness card's figures (lead only); polled every 2 s while a probe is running. */
export function useProbes(projectId: number) {
  return useQuery({
    queryKey: probesKey(projectId),
    queryFn: () => apiFetch<TProbesPanel>(path(projectId)),
    refetchInterval: (q) => (live(q.state.data) ? 2000 : false),
  });
}

/** Starts (or resumes) a run's probes; the runs' list and the card follow. */
export function useStartProbes(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { run: string; sample: number; seed?: number; kinds?: TProbeKind[] }) =>
      apiFetch<TProbeStart>(path(projectId), { json: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: leadKeys.judge(projectId) }),
  });
}
