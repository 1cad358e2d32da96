import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { exportLabels, sidecarText, type TExportFormat } from "../exports/labels.ts";
import { fileSafeName } from "../exports/file-name.ts";

/**
 * The lifecycle of what a lead imported: list it in full, export it, delete it.
 *
 * Human labels are what cannot be made again: annotators' grades, adjudications and imported
 * reference labels. Deleting a project that holds any is refused unless forced, and a forced
 * delete first writes the reference label set (qrels and JSONL, each with its version sidecar)
 * to a backup folder, then deletes. Deleting a run removes its entries, packed ranking and pool
 * provenance; the pool items it brought stay, with their labels (they are labels of question and
 * chunk, not of the run), so a run imported by mistake costs nothing that was graded.
 */
export type ProjectContents = {
  videos: number;
  chunks: number;
  queries: number;
  runs: number;
  poolItems: number;
  judgements: number;
  adjudications: number;
  referenceLabels: number;
  judgeLabels: number;
};

export async function projectContents(db: Db, projectId: number): Promise<ProjectContents> {
  const [videos, chunks, queries, runs, poolItems, judgements, adjudications, referenceLabels, judgeLabels] =
    await Promise.all([
      db.video.count({ where: { projectId } }),
      db.chunk.count({ where: { projectId } }),
      db.query.count({ where: { projectId } }),
      db.run.count({ where: { projectId } }),
      db.poolItem.count({ where: { projectId } }),
      db.judgement.count({ where: { poolItem: { projectId } } }),
      db.adjudication.count({ where: { poolItem: { projectId } } }),
      db.referenceLabel.count({ where: { projectId } }),
      db.judgeLabel.count({ where: { projectId } }),
    ]);
  return { videos, chunks, queries, runs, poolItems, judgements, adjudications, referenceLabels, judgeLabels };
}

export const humanLabels = (c: ProjectContents) => c.judgements + c.adjudications + c.referenceLabels;

export function describeContents(c: ProjectContents): string {
  const parts: [number, string][] = [
    [c.videos, "videos"],
    [c.chunks, "chunks"],
    [c.queries, "queries"],
    [c.runs, "runs"],
    [c.poolItems, "pool items"],
    [c.judgements, "annotator grades"],
    [c.adjudications, "adjudications"],
    [c.referenceLabels, "imported reference labels"],
    [c.judgeLabels, "judge labels"],
  ];
  return parts.map(([n, what]) => `${n.toLocaleString("en-US")} ${what}`).join(", ");
}

/** The reference label set written as qrels and JSONL with their sidecars into `dir`; the paths written. */
export async function writeLabelBackup(
  db: Db,
  projectId: number,
  dir: string,
  now: Date = new Date(),
): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const [format, file] of [
    ["qrels", "reference.qrels"],
    ["jsonl", "reference.jsonl"],
  ] as [TExportFormat, string][]) {
    const e = await exportLabels(db, projectId, format, now);
    const path = join(dir, file);
    writeFileSync(path, e.content);
    writeFileSync(`${path}.version.json`, sidecarText(e, format));
    written.push(path, `${path}.version.json`);
  }
  return written;
}

export const defaultBackupDir = (projectName: string, now: Date, base = process.cwd()) =>
  resolve(
    /*turbopackIgnore: true*/ base,
    `assessor-backup-${fileSafeName(projectName)}-${now.toISOString().replace(/[:.]/g, "-")}`,
  );

export type DeleteProjectResult = { name: string; contents: ProjectContents; backup: string[] };

/**
 * Deletes a project and everything in it. Refused (409) when it holds human labels, unless
 * `force`, which first writes them to `backupDir` (nothing is deleted if that fails).
 */
export async function deleteProject(
  db: Db,
  projectId: number,
  opts: { force?: boolean; backupDir?: string; now?: Date } = {},
): Promise<DeleteProjectResult> {
  const project = await db.project.findUnique({ where: { id: projectId }, select: { name: true } });
  if (!project) throw new AppError("not_found", `no project with id ${projectId}`);
  const contents = await projectContents(db, projectId);
  const labels = humanLabels(contents);
  let backup: string[] = [];
  if (labels > 0) {
    if (!opts.force)
      throw new AppError(
        "conflict",
        `project "${project.name}" holds ${labels.toLocaleString("en-US")} human labels (${contents.judgements} annotator grades, ${contents.adjudications} adjudications, ${contents.referenceLabels} imported reference labels) that would be lost: export them first, or force the delete, which writes the reference label set to a backup folder before deleting`,
        { contents },
      );
    const now = opts.now ?? new Date();
    backup = await writeLabelBackup(db, projectId, opts.backupDir ?? defaultBackupDir(project.name, now), now);
  }
  await db.project.delete({ where: { id: projectId } });
  return { name: project.name, contents, backup };
}

export type RunListing = {
  id: number;
  system: string;
  description: string | null;
  entries: number;
  queries: number;
  pooled: number;
  contentHash: string;
  createdAt: Date;
};

/** The project's runs (or the one of `system`) with their sizes; questions are counted only for the runs listed. */
export async function listRuns(db: Db, projectId: number, opts: { system?: string } = {}): Promise<RunListing[]> {
  const where = { projectId, ...(opts.system !== undefined ? { system: opts.system } : {}) };
  const runs = await db.run.findMany({
    where,
    orderBy: { system: "asc" },
    select: {
      id: true,
      system: true,
      description: true,
      contentHash: true,
      createdAt: true,
      _count: { select: { entries: true, provenance: true } },
    },
  });
  const queries = runs.length
    ? await db.runEntry.groupBy({ by: ["runId", "queryId"], where: { runId: { in: runs.map((r) => r.id) } } })
    : [];
  const perRun = new Map<number, number>();
  for (const q of queries) perRun.set(q.runId, (perRun.get(q.runId) ?? 0) + 1);
  return runs.map((r) => ({
    id: r.id,
    system: r.system,
    description: r.description,
    entries: r._count.entries,
    queries: perRun.get(r.id) ?? 0,
    pooled: r._count.provenance,
    contentHash: r.contentHash,
    createdAt: r.createdAt,
  }));
}

/** The run of `system`, or a not-found error naming the project's runs. */
export async function findRunListing(db: Db, projectId: number, system: string): Promise<RunListing> {
  const [run] = await listRuns(db, projectId, { system });
  if (run) return run;
  const names = (
    await db.run.findMany({ where: { projectId }, orderBy: { system: "asc" }, select: { system: true } })
  ).map((r) => r.system);
  throw new AppError(
    "not_found",
    `no run of system "${system}" in this project${names.length ? `; runs: ${names.join(", ")}` : ""}`,
  );
}

/** Deletes one run by system name; its pool items and their labels stay. */
export async function deleteRun(db: Db, projectId: number, system: string): Promise<RunListing> {
  const run = await findRunListing(db, projectId, system);
  await db.run.delete({ where: { id: run.id } });
  return run;
}

export type ChunkRow = { id: string; video: string; start: number; end: number; text: string };

/** Every chunk of the project in the chunk import's JSONL shape, by video then start, in pages. */
export async function* projectChunks(
  db: Db,
  projectId: number,
  opts: { video?: string; pageSize?: number; /** only this chunking's chunks */ chunkingId?: number } = {},
): AsyncGenerator<ChunkRow> {
  const pageSize = opts.pageSize ?? 5000;
  const videos = await db.video.findMany({
    where: { projectId, ...(opts.video ? { externalId: opts.video } : {}) },
    orderBy: { externalId: "asc" },
    select: { id: true, externalId: true },
  });
  if (opts.video && videos.length === 0) throw new AppError("not_found", `no video "${opts.video}" in this project`);
  for (const v of videos) {
    let cursor: number | undefined;
    for (;;) {
      const page = await db.chunk.findMany({
        where: { videoId: v.id, ...(opts.chunkingId !== undefined ? { chunkingId: opts.chunkingId } : {}) },
        orderBy: [{ startSeconds: "asc" }, { id: "asc" }],
        take: pageSize,
        ...(cursor !== undefined ? { skip: 1, cursor: { id: cursor } } : {}),
        select: { id: true, externalId: true, startSeconds: true, endSeconds: true, text: true },
      });
      for (const c of page)
        yield { id: c.externalId, video: v.externalId, start: c.startSeconds, end: c.endSeconds, text: c.text };
      if (page.length < pageSize) break;
      cursor = page[page.length - 1].id;
    }
  }
}
