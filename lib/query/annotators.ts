"use client";

import { useQuery } from "@tanstack/react-query";
import type { TAnnotatorsMain } from "@/lib/annotators/report";
import type { TAnnotatorsModelPart } from "@/lib/annotators/routes";
import { dashboardKeys } from "./dashboard";
import { apiFetch } from "./fetcher";

/** The query string of the Annotators card (and its CSV download). */
export function annotatorsSearch(q: { judge?: string; fastSeconds?: number; format?: "csv"; part?: "model" }): string {
  const s = new URLSearchParams();
  if (q.judge) s.set("judge", q.judge);
  if (q.fastSeconds !== undefined) s.set("fastSeconds", String(q.fastSeconds));
  if (q.format) s.set("format", q.format);
  if (q.part) s.set("part", q.part);
  const text = s.toString();
  return text ? `?${text}` : "";
}

/** Each annotator's quality, everything but the ability model (refetched with every panel when the label-set version changes). */
export function useAnnotators(projectId: number | null, judge: string | undefined, fastSeconds: number) {
  return useQuery({
    queryKey: [...dashboardKeys.project(projectId ?? 0), "annotators", judge ?? null, fastSeconds] as const,
    queryFn: () =>
      apiFetch<TAnnotatorsMain>(`/api/dashboard/${projectId}/annotators${annotatorsSearch({ judge, fastSeconds })}`),
    enabled: projectId !== null,
  });
}

/**
 * The annotator-ability model (`part=model`: it depends on neither the judge nor the threshold),
 * asked for once the card's main request has answered (`after`): the server fits it in the
 * request's own turn, which would otherwise hold the main request up.
 */
export function useAnnotatorsModel(projectId: number | null, after: boolean) {
  return useQuery({
    queryKey: [...dashboardKeys.project(projectId ?? 0), "annotators-model"] as const,
    queryFn: () =>
      apiFetch<TAnnotatorsModelPart>(`/api/dashboard/${projectId}/annotators${annotatorsSearch({ part: "model" })}`),
    enabled: projectId !== null && after,
  });
}
