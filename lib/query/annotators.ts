"use client";

import { useQuery } from "@tanstack/react-query";
import type { TAnnotatorsReport } from "@/lib/annotators/report";
import { dashboardKeys } from "./dashboard";
import { apiFetch } from "./fetcher";

/** The query string of the Annotators card (and its CSV download). */
export function annotatorsSearch(q: { judge?: string; fastSeconds?: number; format?: "csv" }): string {
  const s = new URLSearchParams();
  if (q.judge) s.set("judge", q.judge);
  if (q.fastSeconds !== undefined) s.set("fastSeconds", String(q.fastSeconds));
  if (q.format) s.set("format", q.format);
  const text = s.toString();
  return text ? `?${text}` : "";
}

/** Each annotator's quality (refetched with every panel when the label-set version changes). */
export function useAnnotators(projectId: number | null, judge: string | undefined, fastSeconds: number) {
  return useQuery({
    queryKey: [...dashboardKeys.project(projectId ?? 0), "annotators", judge ?? null, fastSeconds] as const,
    queryFn: () =>
      apiFetch<TAnnotatorsReport>(`/api/dashboard/${projectId}/annotators${annotatorsSearch({ judge, fastSeconds })}`),
    enabled: projectId !== null,
  });
}
