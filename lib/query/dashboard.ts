"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type { TAgreementPanel, TBreakdownsPanel, THumanPanel } from "../dashboard/agreement.ts";
import type { TCalibrationPanel } from "../dashboard/calibration.ts";
import type { TMeta } from "../dashboard/meta.ts";
import type { TProgressPanel } from "../dashboard/progress.ts";
import type { TPpiPanel } from "../dashboard/ppi.ts";
import type { TSystemsPanel } from "../dashboard/systems.ts";
import type { TChunkingReport } from "../dashboard/chunking-report.ts";
import type { TAssignResult } from "../assignment/assign.ts";
import type { TRetestRow } from "../judge/service.ts";
import type { TTrustPanel } from "../dashboard/trust.ts";
import { apiFetch } from "./fetcher.ts";

/** The viewer's filters as they travel in the page URL and in every panel request. */
export type TDashboardFilters = {
  judge?: string;
  /** "ppi": the systems as judge + human (PPI) estimates, with the human-only and judge-only intervals beside them (the ppi panel). */
  source?: "human" | "judge" | "both" | "ppi";
  tag?: string;
  system?: string;
  baseline?: string;
  gain?: "exponential" | "linear";
  /** Queries-needed advisor: difference to detect and target half-width (decimal strings, as in the URL). */
  delta?: string;
  halfWidth?: string;
};

export const dashboardKeys = {
  all: ["dashboard"] as const,
  projects: () => [...dashboardKeys.all, "projects"] as const,
  project: (projectId: number) => [...dashboardKeys.all, projectId] as const,
  panel: (projectId: number, panel: string, filters: Record<string, string | undefined>) =>
    [...dashboardKeys.project(projectId), panel, filters] as const,
  version: (projectId: number) => [...dashboardKeys.project(projectId), "version"] as const,
};

/** How often the open page asks whether anything changed (also on every return to the tab). */
export const DASHBOARD_REFRESH_MS = 5000;

/** Only the filters a panel depends on, so that changing another one does not refetch it. */
const PANEL_FILTERS: Record<string, (keyof TDashboardFilters)[]> = {
  meta: [],
  agreement: ["tag", "system"],
  human: ["tag", "system"],
  breakdowns: ["judge"],
  calibration: ["judge"],
  progress: [],
  systems: ["source", "judge", "tag", "baseline", "gain"],
  ppi: ["judge", "tag", "baseline", "gain", "delta", "halfWidth"],
  retest: [],
  chunkings: ["gain"],
  trust: ["judge", "gain"],
};

function panelQuery(projectId: number, panel: string, filters: TDashboardFilters) {
  const picked: Record<string, string | undefined> = {};
  const params = new URLSearchParams();
  for (const k of PANEL_FILTERS[panel] ?? []) {
    const v = filters[k];
    if (v) {
      picked[k] = v;
      params.set(k, v);
    }
  }
  const qs = params.toString();
  return {
    queryKey: dashboardKeys.panel(projectId, panel, picked),
    queryFn: () => apiFetch<unknown>(`/api/dashboard/${projectId}/${panel}${qs ? `?${qs}` : ""}`),
    placeholderData: keepPreviousData,
    // Panels are refetched when the label-set version changes (useDashboardRefresh), not on a timer.
    staleTime: Infinity,
  };
}

function usePanel<T>(projectId: number | null, panel: string, filters: TDashboardFilters) {
  const q = panelQuery(projectId ?? 0, panel, filters);
  return useQuery({ ...q, queryFn: q.queryFn as () => Promise<T>, enabled: projectId !== null });
}

export function useDashboardProjects() {
  return useQuery({
    queryKey: dashboardKeys.projects(),
    queryFn: () => apiFetch<{ id: number; name: string }[]>("/api/dashboard/projects"),
  });
}

/**
 * Keeps the open page up to date: polls the project's label-set version (a tiny request: the
 * server runs a dozen aggregate queries and computes nothing) every DASHBOARD_REFRESH_MS and when
 * the window regains focus; when it differs from the one seen before, every panel of the project
 * is refetched (the server recomputes only what the change touched). Returns the version.
 */
export function useDashboardRefresh(projectId: number | null): string | undefined {
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: dashboardKeys.version(projectId ?? 0),
    queryFn: () => apiFetch<{ version: string }>(`/api/dashboard/${projectId}/version`),
    enabled: projectId !== null,
    staleTime: 0,
    refetchInterval: DASHBOARD_REFRESH_MS,
    refetchOnWindowFocus: "always",
  });
  const version = q.data?.version;
  const seen = useRef<{ projectId: number | null; version: string | undefined }>({ projectId, version });
  useEffect(() => {
    const before = seen.current;
    seen.current = { projectId, version };
    if (
      projectId === null ||
      version === undefined ||
      before.projectId !== projectId ||
      before.version === undefined ||
      before.version === version
    )
      return;
    void qc.invalidateQueries({
      queryKey: dashboardKeys.project(projectId),
      predicate: (query) => query.queryKey[2] !== "version",
    });
  }, [qc, projectId, version]);
  return version;
}

export const useDashboardMeta = (projectId: number | null) => usePanel<TMeta>(projectId, "meta", {});
export const useJudgeAgreement = (projectId: number, f: TDashboardFilters) =>
  usePanel<TAgreementPanel>(projectId, "agreement", f);
export const useHumanAgreement = (projectId: number, f: TDashboardFilters) =>
  usePanel<THumanPanel>(projectId, "human", f);
export const useBreakdowns = (projectId: number, f: TDashboardFilters) =>
  usePanel<TBreakdownsPanel>(projectId, "breakdowns", f);
export const useCalibration = (projectId: number, f: TDashboardFilters) =>
  usePanel<TCalibrationPanel>(projectId, "calibration", f);
export const useDashboardProgress = (projectId: number) => usePanel<TProgressPanel>(projectId, "progress", {});
export const useSystems = (projectId: number, f: TDashboardFilters) => usePanel<TSystemsPanel>(projectId, "systems", f);
export const usePpi = (projectId: number, f: TDashboardFilters) => usePanel<TPpiPanel>(projectId, "ppi", f);
export const useChunkingReport = (projectId: number, f: TDashboardFilters) =>
  usePanel<TChunkingReport>(projectId, "chunkings", f);
export const useRetest = (projectId: number) => usePanel<{ runs: TRetestRow[] }>(projectId, "retest", {});
export const useTrust = (projectId: number, f: TDashboardFilters) => usePanel<TTrustPanel>(projectId, "trust", f);

/** Samples more items, or whole questions, for calibration (lead only); every panel is refreshed afterwards. */
export function useSampleForCalibration(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { n: number; unit?: "items" | "questions"; unstableFrom?: string }) =>
      apiFetch<TAssignResult>(`/api/dashboard/${projectId}/sample`, { json: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: dashboardKeys.project(projectId) }),
  });
}
