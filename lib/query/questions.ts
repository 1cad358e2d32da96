"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "./fetcher.ts";
import type { TQuestion, TQuestionEvent, TWriteContext, TWriteProject } from "../questions/store.ts";
import type { TReview } from "../questions/review.ts";
import type { TQuestionCreate } from "../questions/schemas.ts";

export const questionKeys = {
  all: ["questions"] as const,
  writeProjects: () => [...questionKeys.all, "write"] as const,
  write: (projectId: number) => [...questionKeys.writeProjects(), projectId] as const,
  transcript: (projectId: number, videoId: number) =>
    [...questionKeys.write(projectId), "transcript", videoId] as const,
  review: (projectId: number) => [...questionKeys.all, "review", projectId] as const,
  reviewPage: (projectId: number, offset: number, clusterOffset: number) =>
    [...questionKeys.review(projectId), "page", offset, clusterOffset] as const,
  history: (projectId: number, queryId: number) => [...questionKeys.review(projectId), "history", queryId] as const,
};

export type TReviewData = TReview & { settings: { transcriptWhileWriting: boolean; annotatorsMayAuthor: boolean } };
export type TQuestionPatch = Partial<Pick<TQuestionCreate, "text" | "tags" | "places" | "status">>;

export function useWriteProjects() {
  return useQuery({
    queryKey: questionKeys.writeProjects(),
    queryFn: () => apiFetch<TWriteProject[]>("/api/write/projects"),
  });
}

export function useWriteContext(projectId: number | null) {
  return useQuery({
    queryKey: questionKeys.write(projectId ?? 0),
    queryFn: () => apiFetch<TWriteContext>(`/api/write/projects/${projectId}`),
    enabled: projectId !== null,
  });
}

export function useWriteTranscript(projectId: number, videoId: number | null, enabled: boolean) {
  return useQuery({
    queryKey: questionKeys.transcript(projectId, videoId ?? 0),
    queryFn: () =>
      apiFetch<{ start: number; end: number; text: string }[]>(
        `/api/write/projects/${projectId}/transcript?video=${videoId}`,
      ),
    enabled: enabled && videoId !== null,
  });
}

export function useSaveQuestion(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TQuestionCreate) =>
      apiFetch<TQuestion>(`/api/write/projects/${projectId}/questions`, { json: body }),
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: questionKeys.write(projectId) }),
        qc.invalidateQueries({ queryKey: questionKeys.review(projectId) }),
      ]),
  });
}

/** One page of the review (questions from `offset`, near-duplicate groups from `clusterOffset`); the previous page stays shown while the next loads. */
export function useReview(projectId: number, offset = 0, clusterOffset = 0) {
  return useQuery({
    queryKey: questionKeys.reviewPage(projectId, offset, clusterOffset),
    queryFn: () =>
      apiFetch<TReviewData>(
        `/api/lead/projects/${projectId}/questions?offset=${offset}&clusterOffset=${clusterOffset}`,
      ),
    placeholderData: keepPreviousData,
  });
}

export function useQuestionHistory(projectId: number, queryId: number | null) {
  return useQuery({
    queryKey: questionKeys.history(projectId, queryId ?? 0),
    queryFn: () => apiFetch<TQuestionEvent[]>(`/api/lead/projects/${projectId}/questions/${queryId}`),
    enabled: queryId !== null,
  });
}

export function useEditQuestion(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: number; patch: TQuestionPatch }) =>
      apiFetch<TQuestion>(`/api/lead/projects/${projectId}/questions/${id}`, { method: "PATCH", json: patch }),
    onSuccess: () => qc.invalidateQueries({ queryKey: questionKeys.review(projectId) }),
  });
}

export function useWritingSettings(projectId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: { transcriptWhileWriting?: boolean; annotatorsMayAuthor?: boolean }) =>
      apiFetch<{ transcriptWhileWriting: boolean; annotatorsMayAuthor: boolean }>(
        `/api/lead/projects/${projectId}/writing`,
        { method: "PATCH", json: patch },
      ),
    onSuccess: () => qc.invalidateQueries({ queryKey: questionKeys.review(projectId) }),
  });
}
