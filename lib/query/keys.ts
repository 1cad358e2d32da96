/**
 * TanStack Query key factories, one per resource family, so that invalidation after a mutation
 * names exactly what changed (formbricks lib/query.ts style).
 */
export const leadKeys = {
  all: ["lead"] as const,
  projects: () => [...leadKeys.all, "projects"] as const,
  project: (projectId: number) => [...leadKeys.projects(), projectId] as const,
  progress: (projectId: number) => [...leadKeys.project(projectId), "progress"] as const,
  status: (projectId: number) => [...leadKeys.project(projectId), "status"] as const,
  flags: (projectId: number) => [...leadKeys.project(projectId), "flags"] as const,
  judge: (projectId: number) => [...leadKeys.project(projectId), "judge"] as const,
  runs: (projectId: number) => [...leadKeys.project(projectId), "runs"] as const,
  chunkings: (projectId: number) => [...leadKeys.project(projectId), "chunkings"] as const,
  users: () => [...leadKeys.all, "users"] as const,
};
