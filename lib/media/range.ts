/**
 * HTTP Range (RFC 9110 §14) for one byte range of a file of `size` bytes. Only single ranges are
 * served: a multi-range request gets the first range (allowed: a server may ignore ranges it does
 * not want to combine; browsers never send several for media).
 *
 * - null: no Range header, or one we do not understand (serve the whole file with 200).
 * - "unsatisfiable": a syntactically valid range that starts at or beyond the end (416).
 * - { start, end }: inclusive byte offsets, end clipped to size - 1 (206).
 */
export type TByteRange = { start: number; end: number };

export function parseRange(header: string | null, size: number): TByteRange | "unsatisfiable" | null {
  if (!header) return null;
  const m = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!m) return null;
  const first = m[1].split(",")[0].trim();
  const r = /^(\d*)\s*-\s*(\d*)$/.exec(first);
  if (!r || (r[1] === "" && r[2] === "")) return null;
  if (r[1] === "") {
    // Suffix range: the last N bytes.
    const n = Number(r[2]);
    if (n === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(r[1]);
  const end = r[2] === "" ? size - 1 : Math.min(Number(r[2]), size - 1);
  if (r[2] !== "" && Number(r[2]) < start) return null; // invalid: ignore the header
  if (start >= size) return "unsatisfiable";
  return { start, end };
}

const TYPES: Record<string, string> = {
  ".mp4": "video/mp4",
  ".m4v": "video/mp4",
  ".webm": "video/webm",
  ".ogv": "video/ogg",
  ".mov": "video/quicktime",
  ".mp3": "audio/mpeg",
  ".m4a": "audio/mp4",
  ".ogg": "audio/ogg",
  ".opus": "audio/ogg",
  ".wav": "audio/wav",
};

export function mediaType(path: string): string {
  const dot = path.lastIndexOf(".");
  return (dot >= 0 && TYPES[path.slice(dot).toLowerCase()]) || "application/octet-stream";
}
