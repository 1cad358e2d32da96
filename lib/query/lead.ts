"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "./fetcher.ts";
import { leadKeys } from "./keys.ts";
import type { TProjectSummary } from "../lead/projects.ts";
import type { TAnnotatorProgress } from "../lead/progress.ts";
import type { TProjectSettings } from "../projects/settings.ts";
import type { TRole } from "../auth/permissions.ts";
import type { TFuse, TFuseResult } from "../runs/fuse.ts";
import type { DeleteProjectResult, RunListing } from "../projects/lifecycle.ts";
import type { ChunkingSummary } from "../chunkings/store.ts";
import type { TFlaggedItem } from "../labels/flags.ts";
import type { TPoolResult } from "../pooling/build.ts";
import type { TAssignResult } from "../assignment/assign.ts";

export type TProjectDetail = TProjectSettings & {
  id: number;
  name: string;
  guidelines: string;
  gradingClosedAt: string | null;
  runs: { id: number; system: string; description: string | null }[];
};
export type TUserRow = { id: string; email: string; name: string; role: TRole; active: boolean; createdAt: string };

const base = (projectId: number) => `/api/lead/projects/${projectId}`;

export function useProjects() {
  return useQuery({ queryKey: leadKeys.projects(), queryFn: () => apiFetch<TProjectSummary[]>("/api/lead/projects") });
}

export function useCreateProject() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => apiFetch<{ id: number; name: string }>("/api/lead/projects", { json: { name } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: leadKeys.projects() }),
  });
}

export function useProject(projectId: number) {
  return useQuery({ queryKey: leadKeys.project(projectId), queryFn: () => apiFetch<TProjectDetail>(base(projectId)) });
}

export function useUpdateSettings(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: Partial<TProjectSettings> & { guidelines?: string }) =>
      apiFetch<TProjectDetail>(base(projectId), { method: "PATCH", json: patch }),
    onSuccess: (data) =>
      qc.setQueryData(leadKeys.project(projectId), (old: TProjectDetail | undefined) =>
        old ? { ...old, ...data } : data,
      ),
  });
}

/** Closes or reopens grading in the project (POST …/grading; lib/projects/grading.ts). */
export function useSetGradingClosed(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (closed: boolean) =>
      apiFetch<{ closedAt: string | null }>(`${base(projectId)}/grading`, { json: { closed } }),
    onSuccess: (data) =>
      qc.setQueryData(leadKeys.project(projectId), (old: TProjectDetail | undefined) =>
        old ? { ...old, gradingClosedAt: data.closedAt } : old,
      ),
  });
}

export function useProgress(projectId: number) {
  return useQuery({
    queryKey: leadKeys.progress(projectId),
    queryFn: () => apiFetch<TAnnotatorProgress[]>(`${base(projectId)}/progress`),
  });
}

export type TStageCounts = Record<string, number>;

export function useStatus(projectId: number) {
  return useQuery({
    queryKey: leadKeys.status(projectId),
    queryFn: () => apiFetch<TStageCounts>(`${base(projectId)}/status`),
  });
}

/** After anything that changes a project's data: its counts, status and progress. */
export function useInvalidateProject(projectId: number) {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: leadKeys.project(projectId) }),
      qc.invalidateQueries({ queryKey: leadKeys.projects() }),
    ]);
}

export function useBuildPool(projectId: number) {
  const invalidate = useInvalidateProject(projectId);
  return useMutation({
    mutationFn: (input: { depth: number; runs?: string[]; chunking?: string; dryRun?: boolean }) =>
      apiFetch<TPoolResult>(`${base(projectId)}/pool`, { json: input }),
    onSuccess: invalidate,
  });
}

/** Fuses stored runs into a new run; the project is invalidated so the new run is listed (pool panel). */
export function useFuseRuns(projectId: number) {
  const invalidate = useInvalidateProject(projectId);
  return useMutation({
    mutationFn: (input: TFuse) => apiFetch<TFuseResult>(`${base(projectId)}/fuse`, { json: input }),
    onSuccess: invalidate,
  });
}

export function useAssign(projectId: number) {
  const invalidate = useInvalidateProject(projectId);
  return useMutation({
    mutationFn: (input: {
      perItem: number;
      annotators?: string[];
      sample?: number;
      seed?: number;
      dryRun?: boolean;
      includeLabelled?: boolean;
      answers?: boolean;
    }) => apiFetch<TAssignResult>(`${base(projectId)}/assign`, { json: input }),
    onSuccess: invalidate,
  });
}

export function useUsers() {
  return useQuery({ queryKey: leadKeys.users(), queryFn: () => apiFetch<TUserRow[]>("/api/lead/users") });
}

export function useCreateUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; name: string; role: TRole; password: string }) =>
      apiFetch<TUserRow>("/api/lead/users", { json: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: leadKeys.users() }),
  });
}

export function useUpdateUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...patch }: { id: string; active?: boolean; password?: string }) =>
      apiFetch<TUserRow>(`/api/lead/users/${encodeURIComponent(id)}`, { method: "PATCH", json: patch }),
    onSuccess: () => qc.invalidateQueries({ queryKey: leadKeys.users() }),
  });
}

/** The project's runs with their sizes (`assessor run list`); dates arrive as ISO strings. */
export function useRuns(projectId: number) {
  return useQuery({
    queryKey: leadKeys.runs(projectId),
    queryFn: () => apiFetch<(Omit<RunListing, "createdAt"> & { createdAt: string })[]>(`${base(projectId)}/runs`),
  });
}

export function useChunkings(projectId: number) {
  return useQuery({
    queryKey: leadKeys.chunkings(projectId),
    queryFn: () => apiFetch<ChunkingSummary[]>(`${base(projectId)}/chunkings`),
  });
}

export function useDeleteRun(projectId: number) {
  const invalidate = useInvalidateProject(projectId);
  return useMutation({
    mutationFn: (system: string) =>
      apiFetch<RunListing>(`${base(projectId)}/runs/${encodeURIComponent(system)}`, { method: "DELETE" }),
    onSuccess: invalidate,
  });
}

export function useDeleteProject(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { confirm: string; force?: boolean }) =>
      apiFetch<DeleteProjectResult>(base(projectId), { method: "DELETE", json: input }),
    // The project is gone: drop its queries (a refetch would only find a 404) and refresh the list.
    onSuccess: async () => {
      qc.removeQueries({ queryKey: leadKeys.project(projectId) });
      await qc.invalidateQueries({ queryKey: leadKeys.projects(), exact: true });
    },
  });
}

/** Items with an annotator's flag or note. */
export function useFlaggedItems(projectId: number) {
  return useQuery({
    queryKey: leadKeys.flags(projectId),
    queryFn: () => apiFetch<TFlaggedItem[]>(`${base(projectId)}/flags`),
  });
}
