"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { TGenerationPanel } from "../dashboard/generation.ts";
import { dashboardKeys } from "./dashboard.ts";
import { apiFetch } from "./fetcher.ts";

/** The Generation section's own choices (baseline generator, answer judge) plus the page's nDCG gain. */
export type TGenerationFilters = { answerBaseline?: string; answerJudge?: string; gain?: "exponential" | "linear" };

/** The dashboard's `generation` panel (lib/dashboard/generation.ts), under the project's dashboard key so a refresh covers it. */
export function useGeneration(projectId: number, f: TGenerationFilters) {
  const picked: Record<string, string | undefined> = {};
  const params = new URLSearchParams();
  for (const k of ["answerBaseline", "answerJudge", "gain"] as const) {
    const v = f[k];
    if (v) {
      picked[k] = v;
      params.set(k, v);
    }
  }
  const qs = params.toString();
  return useQuery({
    queryKey: dashboardKeys.panel(projectId, "generation", picked),
    queryFn: () => apiFetch<TGenerationPanel>(`/api/dashboard/${projectId}/generation${qs ? `?${qs}` : ""}`),
    placeholderData: keepPreviousData,
  });
}
