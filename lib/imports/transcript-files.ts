import { readdir, readFile, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { AppError, saidMessage, ValidationError, type LocatedError } from "../errors.ts";
import { CAPTION_EXTENSIONS, captionFormatOfName } from "../formats/captions.ts";
import { parseDelimited } from "../formats/delimited.ts";
import type { TranscriptFile } from "./transcript.ts";
import { field, say } from "../terms.ts";

/**
 * Which video each transcript file belongs to, for `assessor import transcript FILE|FOLDER…`:
 * - `--video ID` names it when exactly one file is given;
 * - else a mapping file (CSV, or TSV by its extension, header `file,video`; `file` is the file's
 *   name or its path as given) names it;
 * - else the file's name does: the longest of its dot-separated prefixes that is an imported video
 *   (`talk7.en.vtt` → `talk7.en` if that video exists, else `talk7`).
 * A folder stands for its caption files (.vtt, .srt, .json3, .json), in name order.
 */

export async function expandTranscriptPaths(paths: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const p of paths) {
    let s;
    try {
      s = await stat(p);
    } catch {
      throw new AppError("bad_input", `${p}: no such file or folder`);
    }
    if (!s.isDirectory()) {
      files.push(p);
      continue;
    }
    const names = (await readdir(p)).filter((n) => captionFormatOfName(n) !== null).sort();
    if (names.length === 0)
      throw new AppError(
        "bad_input",
        `${p}: the folder holds no caption files (${Object.keys(CAPTION_EXTENSIONS)
          .map((e) => `.${e}`)
          .join(", ")})`,
      );
    files.push(...names.map((n) => join(p, n)));
  }
  return files;
}

/** The video a file's name names: its longest dot-separated prefix that is a known video id. */
export function videoFromFileName(file: string, videos: ReadonlySet<string>): string | null {
  const parts = basename(file).split(".");
  for (let n = parts.length - 1; n >= 1; n--) {
    const candidate = parts.slice(0, n).join(".");
    if (videos.has(candidate)) return candidate;
  }
  return null;
}

async function readMapping(mapFile: string): Promise<Map<string, { video: string; line: number }>> {
  const bytes = await readFile(mapFile);
  const { records, errors } = parseDelimited(bytes, mapFile, {
    delimiter: mapFile.toLowerCase().endsWith(".tsv") ? "\t" : ",",
    columns: ["file", "video"],
    required: ["file", "video"],
  });
  if (errors.length) throw new ValidationError(errors);
  const map = new Map<string, { video: string; line: number }>();
  for (const r of records) map.set(r.values.file ?? "", { video: r.values.video ?? "", line: r.line });
  return map;
}

export async function transcriptFiles(
  paths: string[],
  opts: { video?: string; map?: string },
  videos: ReadonlySet<string>,
): Promise<TranscriptFile[]> {
  const files = await expandTranscriptPaths(paths);
  if (opts.video !== undefined) {
    if (files.length !== 1)
      throw new AppError(
        "bad_input",
        say`${field("video")} names the video of one transcript; ${files.length} files were given (name each file's video with ${field("map")}, or by the file name)`,
      );
    return [{ input: files[0], video: opts.video }];
  }
  const map = opts.map === undefined ? null : await readMapping(opts.map);
  const errors: LocatedError[] = [];
  const out: TranscriptFile[] = [];
  for (const f of files) {
    const mapped = map?.get(f) ?? map?.get(basename(f));
    const video = mapped?.video ?? (map ? null : videoFromFileName(f, videos));
    if (video) out.push({ input: f, video });
    else
      errors.push({
        file: f,
        line: 1,
        field: "video",
        ...(map
          ? { message: `the file is not in ${opts.map} (column file): expected a row naming its video` }
          : saidMessage(
              say`no imported video is named by this file's name (e.g. talk7.vtt for video talk7): name it with ${field("video")} or ${field("map")}`,
            )),
      });
  }
  if (errors.length) throw new ValidationError(errors);
  return out;
}
