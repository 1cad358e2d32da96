import { createHash } from "node:crypto";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { checkChunkOptions, chunkCues } from "../formats/chunker.ts";
import { writeChunks, type ChunkData } from "../imports/chunks.ts";
import { decodeCues } from "../imports/transcript.ts";
import { ensureChunking } from "./store.ts";
import { field, joined, say, type Said } from "../terms.ts";

/**
 * `assessor chunking grid`: every size × overlap combination cut from the
 * project's stored transcripts (the cues the transcript import keeps in Transcript, cut by
 * lib/formats/chunker.ts exactly as `import transcript --chunk-seconds S --overlap-seconds O`).
 *
 * - Sizes are seconds; an overlap is seconds ("10") or a share of the size ("25%": 25% of 40 s is
 *   10 s). A combination whose overlap is not below its size is an error.
 * - Naming: `c<size>o<overlap seconds>` (`c20o0`, `c40o10`, `c30o7.5`), numbers as written in
 *   seconds without trailing zeros.
 * - Everything is checked before anything is written: a name held by a chunking with chunks and
 *   other parameters (another size, overlap or method, or imported chunks) refuses the whole grid.
 *   An existing chunking cut by seconds with the same size and overlap, whatever its name (say
 *   `default`, or one made by `import transcript --chunking`), is reused and brought up to date
 *   under its own name (stable chunk ids: the same cut adds nothing), never copied.
 * - One transaction per chunking (all its videos' chunks); `videos` limits the grid to those videos.
 */
export type TGridOptions = { sizes: number[]; overlaps: string[]; videos?: string[] };
export type TGridRow = {
  name: string;
  size: number;
  overlap: number;
  videos: number;
  chunks: number;
  created: number;
  updated: number;
  unchanged: number;
};

const num = (x: number) => String(Number(x.toFixed(6)));
export const gridName = (size: number, overlap: number) => `c${num(size)}o${num(overlap)}`;

/** Overlap seconds of "10" or "25%" for a size; null when not a number ≥ 0. */
export function overlapSeconds(spec: string, size: number): number | null {
  const t = spec.trim();
  const pct = t.endsWith("%");
  const v = Number(pct ? t.slice(0, -1) : t);
  if (t === "" || t === "%" || !Number.isFinite(v) || v < 0) return null;
  return pct ? Number(((v / 100) * size).toFixed(6)) : v;
}

export async function chunkingGrid(db: Db, projectId: number, opts: TGridOptions): Promise<TGridRow[]> {
  if (opts.sizes.length === 0 || opts.overlaps.length === 0)
    throw new AppError("bad_input", say`${field("sizes")} and ${field("overlaps")}: expected at least one value each`);
  const problems: Said[] = [];
  const combos = new Map<string, { size: number; overlap: number }>();
  for (const size of opts.sizes) {
    if (!(Number.isFinite(size) && size > 0))
      problems.push(say`${field("sizes")}: expected seconds above 0, got ${size}`);
    for (const spec of opts.overlaps) {
      const overlap = overlapSeconds(spec, size);
      if (overlap === null) {
        problems.push(say`${field("overlaps")}: expected seconds ≥ 0 or a percentage such as 25%, got "${spec}"`);
        continue;
      }
      const problem = checkChunkOptions({ by: "seconds", size, overlap });
      if (problem) problems.push([`size ${size} s, overlap ${spec}: ${problem}`]);
      else combos.set(gridName(size, overlap), { size, overlap });
    }
  }
  if (problems.length) throw new AppError("bad_input", joined(problems, "; "));

  const where = { projectId, ...(opts.videos?.length ? { video: { externalId: { in: opts.videos } } } : {}) };
  const transcripts = await db.transcript.findMany({
    where,
    select: { videoId: true, sha256: true, cues: true, video: { select: { externalId: true } } },
    orderBy: { video: { externalId: "asc" } },
  });
  if (opts.videos?.length) {
    const have = new Set(transcripts.map((t) => t.video.externalId));
    const missing = opts.videos.filter((v) => !have.has(v));
    if (missing.length)
      throw new AppError(
        "bad_input",
        say`${field("videos")}: no stored transcript for ${missing.join(", ")}: import it with: npx assessor import transcript --video ID FILE`,
      );
  }
  if (transcripts.length === 0)
    throw new AppError(
      "bad_input",
      "no stored transcripts in this project: import them with: npx assessor import transcript FILE|FOLDER (the grid is cut from them)",
    );

  // An existing chunking cut by seconds with the same size and overlap is reused under its own
  // name: the grid name's own chunking first, else the oldest such chunking.
  const sameCut = await db.chunking.findMany({
    where: { projectId, method: "seconds" },
    select: { id: true, name: true, size: true, overlap: true },
    orderBy: { id: "asc" },
  });
  const reuse = new Map<string, string>();
  for (const [name, { size, overlap }] of combos) {
    const same = sameCut.filter((c) => c.size === size && c.overlap === overlap);
    const pick = same.find((c) => c.name === name) ?? same[0];
    if (pick) reuse.set(name, pick.name);
  }
  // Refuse the whole grid when a name is taken by other parameters (and no chunking of the same cut exists).
  const fresh = [...combos.keys()].filter((n) => !reuse.has(n));
  const existing = await db.chunking.findMany({
    where: { projectId, name: { in: fresh } },
    select: { name: true, method: true, size: true, overlap: true, _count: { select: { chunks: true } } },
  });
  const taken = existing.filter(
    (c) =>
      c._count.chunks > 0 &&
      !(c.method === "seconds" && c.size === combos.get(c.name)!.size && c.overlap === combos.get(c.name)!.overlap),
  );
  if (taken.length) {
    const what = (c: (typeof taken)[number]) =>
      c.method === "imported" ? "imported chunks" : `${c.method}, size ${c.size}, overlap ${c.overlap}`;
    throw new AppError(
      "conflict",
      `chunking ${taken.map((c) => `"${c.name}" exists with other parameters (${what(c)})`).join("; ")}: nothing was written; rename or delete it first`,
    );
  }

  const decoded = transcripts.map((t) => ({ videoId: t.videoId, video: t.video.externalId, cues: decodeCues(t.cues) }));
  const sha256 = createHash("sha256")
    .update(transcripts.map((t) => `${t.video.externalId}:${t.sha256}`).join("\n"))
    .digest("hex");
  const rows: TGridRow[] = [];
  for (const [gridded, { size, overlap }] of combos) {
    const name = reuse.get(gridded) ?? gridded;
    const chunks: ChunkData[] = decoded.flatMap((t) =>
      chunkCues(t.video, t.cues, { by: "seconds", size, overlap }).map((c) => ({
        externalId: c.id,
        videoId: t.videoId,
        start: c.start,
        end: c.end,
        text: c.text,
      })),
    );
    const target = await ensureChunking(db, projectId, name, { method: "seconds", size, overlap });
    const { created, updated } = await writeChunks(
      db,
      projectId,
      target.id,
      { kind: "transcript", fileName: `chunking grid ${name}`, sha256 },
      chunks,
      {},
    );
    rows.push({
      name,
      size,
      overlap,
      videos: decoded.length,
      chunks: chunks.length,
      created,
      updated,
      unchanged: chunks.length - created - updated,
    });
  }
  return rows;
}
