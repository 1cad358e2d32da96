import { mediaKind, urlAllowed, type TMediaKind } from "./hosts.ts";

/**
 * Where a video plays from: a file served by /api/media (confined to the media roots), YouTube, a
 * URL, or nothing. `src` is null for a video without media (kind "none": transcript only);
 * `allowed` is false for a remote URL whose host ASSESSOR_MEDIA_HOSTS does not name (the page CSP
 * blocks it, so the player says so instead of trying). Nothing here is new to the annotator: the
 * URL itself is the source. Shared by the annotator's view, the adjudicator's and the write screen.
 */
export type TVideoSource = {
  src: string | null;
  kind: TMediaKind;
  title: string;
  durationSeconds: number | null;
  allowed: boolean;
};

export function videoSource(video: {
  id: number;
  url: string | null;
  path: string | null;
  title: string;
  durationSeconds: number | null;
}): TVideoSource {
  const base = { title: video.title, durationSeconds: video.durationSeconds };
  const kind = mediaKind(video);
  if (kind === "file") return { ...base, src: `/api/media/${video.id}`, kind, allowed: true };
  if (kind === "none") return { ...base, src: null, kind, allowed: true };
  const url = video.url ?? "";
  return { ...base, src: url, kind, allowed: kind === "youtube" || urlAllowed(url) };
}
