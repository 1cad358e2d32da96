import { realpathSync } from "node:fs";
import { realpath } from "node:fs/promises";
import { delimiter, isAbsolute, relative, resolve, sep } from "node:path";
import { mediaType } from "./range.ts";

/**
 * Where self-hosted media may live. A video's `path` is served only when it names a video or
 * audio file inside one of these folders, after symlinks are resolved; otherwise a lead could
 * make the media route read any file the server can (/etc/passwd, data/.secret).
 *
 * ASSESSOR_MEDIA_ROOT: one folder or several separated by the platform's path delimiter (":"),
 * absolute or relative to the project root. Default: the repository's demo/media and media/.
 */
export function mediaRoots(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string[] {
  const configured = env.ASSESSOR_MEDIA_ROOT?.split(delimiter)
    .map((p) => p.trim())
    .filter(Boolean);
  const roots = configured?.length ? configured : ["demo/media", "media"];
  return roots.map((r) => resolve(/*turbopackIgnore: true*/ cwd, r));
}

/** Media types served: video and audio only (by extension, lib/media/range.ts). */
export function isMediaType(path: string): boolean {
  const type = mediaType(path);
  return type.startsWith("video/") || type.startsWith("audio/");
}

function inside(file: string, root: string): boolean {
  const rel = relative(root, file);
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}

function describeRoots(roots: string[]): string {
  return `${roots.join(", ")} (set ASSESSOR_MEDIA_ROOT to change)`;
}

/** The real path of each existing root (a root that is itself a symlink counts as its target). */
function realRoots(roots: string[]): string[] {
  const out: string[] = [];
  for (const r of roots) {
    out.push(r);
    try {
      out.push(realpathSync(/*turbopackIgnore: true*/ r));
    } catch {
      // a root that does not exist confines nothing more than its name
    }
  }
  return out;
}

/**
 * Why a video path may not be served, or null when it may. Lexical check only (the file may not
 * exist yet at import): the path, resolved against the project root, must stay inside a media
 * root and name a video or audio file.
 */
export function mediaPathProblem(
  path: string,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): string | null {
  const roots = mediaRoots(env, cwd);
  const file = resolve(/*turbopackIgnore: true*/ cwd, path);
  if (!roots.some((r) => inside(file, r)))
    return `expected a file inside the media root ${describeRoots(roots)}, not ${file}`;
  if (!isMediaType(file))
    return `expected a video or audio file (.mp4, .webm, .ogv, .mov, .mp3, .m4a, .ogg, .opus, .wav), not ${path}`;
  return null;
}

/**
 * The file to serve for a video's `path`, with symlinks resolved and checked again against the
 * roots' real paths; null when it is missing, outside every media root, or not a media type.
 */
export async function confinedMediaFile(
  path: string,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): Promise<{ file: string } | { problem: "outside" | "missing" }> {
  if (mediaPathProblem(path, env, cwd)) return { problem: "outside" };
  let real: string;
  try {
    real = await realpath(/*turbopackIgnore: true*/ resolve(/*turbopackIgnore: true*/ cwd, path));
  } catch {
    return { problem: "missing" };
  }
  const roots = realRoots(mediaRoots(env, cwd));
  if (!roots.some((r) => inside(real, r)) || !isMediaType(real)) return { problem: "outside" };
  return { file: real };
}
