import "server-only";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { AppError } from "../errors.ts";
import { mediaType, parseRange } from "./range.ts";
import { confinedMediaFile } from "./root.ts";

/**
 * Serves a video's file (its `path`: absolute, or relative to the project root where `next start`
 * runs) only from a media root, after resolving symlinks, and only video/audio (lib/media/root.ts);
 * anything else is refused with 403 before the file is opened. Honours Range: 206 with Content-Range for a satisfiable range, 416
 * with `Content-Range: bytes *\/size` otherwise, 200 with the whole file without a Range header.
 * Without this a browser cannot seek (video.seekable stays [0,0]: ../shared/STACK.md).
 */
export async function serveFile(path: string, req: Request): Promise<Response> {
  const confined = await confinedMediaFile(path);
  if ("problem" in confined) {
    if (confined.problem === "missing") throw new AppError("not_found", "the video file is missing on the server");
    throw new AppError(
      "forbidden",
      "the video file is outside the media root (ASSESSOR_MEDIA_ROOT) or not a video or audio file",
    );
  }
  const file = confined.file;
  let size: number;
  let mtime: Date;
  try {
    const s = await stat(/*turbopackIgnore: true*/ file);
    if (!s.isFile()) throw new Error("not a file");
    size = s.size;
    mtime = s.mtime;
  } catch {
    throw new AppError("not_found", "the video file is missing on the server");
  }
  const headers = new Headers({
    "Content-Type": mediaType(file),
    "Accept-Ranges": "bytes",
    "Last-Modified": mtime.toUTCString(),
    // Private: only signed-in users may watch. Cached by the browser so a replay costs nothing.
    "Cache-Control": "private, max-age=3600",
  });
  const range = parseRange(req.headers.get("range"), size);
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  const length = size === 0 ? 0 : end - start + 1;
  headers.set("Content-Length", String(length));
  if (range) headers.set("Content-Range", `bytes ${start}-${end}/${size}`);
  const status = range ? 206 : 200;
  if (req.method === "HEAD" || length === 0) return new Response(null, { status, headers });
  const stream = Readable.toWeb(
    createReadStream(/*turbopackIgnore: true*/ file, { start, end }),
  ) as ReadableStream<Uint8Array>;
  return new Response(stream, { status, headers });
}
