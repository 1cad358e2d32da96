import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { Db } from "../db/client.ts";
import { mediaHosts, mediaKind, urlMediaProblem, type TMediaKind } from "./hosts.ts";
import { confinedMediaFile, mediaPathProblem } from "./root.ts";

/**
 * `assessor media check`: whether each video of a project can play.
 * - file: the path is inside a media root (after symlinks), names a video or audio file and
 *   exists: "ok" with its size; else "missing" or "outside" (the media route refuses it, 403);
 * - youtube: "ok" (played in YouTube's frame; not fetched);
 * - url: "not_allowed" when ASSESSOR_MEDIA_HOSTS does not name its host (the page CSP blocks it),
 *   else "ok", or with `probe` the answer to a HEAD request: "ok" (2xx/3xx, or a 405 from a host
 *   that refuses HEAD) or "unreachable" with the status or network error;
 * - none: "ok" (transcript only).
 * Any status other than "ok" is a problem: the command exits 1.
 */
export type TMediaStatus = "ok" | "missing" | "outside" | "not_allowed" | "unreachable";
export type TMediaCheck = {
  video: string;
  title: string;
  kind: TMediaKind;
  status: TMediaStatus;
  detail: string;
  bytes: number | null;
};

const PROBE_MS = 10_000;

async function probe(url: string): Promise<{ status: TMediaStatus; detail: string }> {
  try {
    const res = await fetch(url, { method: "HEAD", redirect: "follow", signal: AbortSignal.timeout(PROBE_MS) });
    if (res.ok || res.status === 405) return { status: "ok", detail: `HEAD ${res.status}` };
    return { status: "unreachable", detail: `HEAD ${res.status} ${res.statusText}`.trim() };
  } catch (e) {
    return {
      status: "unreachable",
      detail: `network: ${e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e)}`,
    };
  }
}

export async function checkVideo(
  v: { externalId: string; title: string; url: string | null; path: string | null },
  opts: { probe?: boolean } = {},
): Promise<TMediaCheck> {
  const kind = mediaKind(v);
  const base = { video: v.externalId, title: v.title, kind, bytes: null };
  if (kind === "none") return { ...base, status: "ok", detail: "no media: transcript only" };
  if (kind === "youtube") return { ...base, status: "ok", detail: `${v.url} (YouTube, not fetched)` };
  if (kind === "url") {
    const url = v.url ?? "";
    const problem = urlMediaProblem(url);
    if (problem) return { ...base, status: "not_allowed", detail: problem };
    if (!opts.probe) return { ...base, status: "ok", detail: `${url} (host allowed; not fetched: --probe to try it)` };
    const p = await probe(url);
    return { ...base, ...p, detail: `${url}: ${p.detail}` };
  }
  const path = v.path ?? "";
  const file = resolve(/*turbopackIgnore: true*/ process.cwd(), path);
  const lexical = mediaPathProblem(path);
  if (lexical) return { ...base, status: "outside", detail: lexical };
  const confined = await confinedMediaFile(path);
  if ("problem" in confined)
    return confined.problem === "missing"
      ? { ...base, status: "missing", detail: `${file}: no such file` }
      : { ...base, status: "outside", detail: `${file}: a link out of the media root` };
  const s = await stat(/*turbopackIgnore: true*/ confined.file);
  if (!s.isFile()) return { ...base, status: "missing", detail: `${file}: not a file` };
  return { ...base, status: "ok", detail: `${confined.file} (inside the media root)`, bytes: s.size };
}

/** Every video of the project, in id order, and the ASSESSOR_MEDIA_HOSTS entries ignored as malformed. */
export async function checkMedia(
  db: Db,
  projectId: number,
  opts: { probe?: boolean } = {},
): Promise<{ videos: TMediaCheck[]; ignoredHosts: string[] }> {
  const videos = await db.video.findMany({
    where: { projectId },
    orderBy: { externalId: "asc" },
    select: { externalId: true, title: true, url: true, path: true },
  });
  const out: TMediaCheck[] = [];
  for (const v of videos) out.push(await checkVideo(v, opts));
  return { videos: out, ignoredHosts: mediaHosts().ignored };
}
