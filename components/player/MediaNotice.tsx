"use client";

import { formatClock } from "@/lib/annotate/format";

/**
 * Why there is no playing video for this item, in place of the player: the
 * video's title and the chunk's times, so the annotator can grade from the transcript and set the
 * start by clicking one of its times.
 * - none: the video has no media (transcript-only evaluation);
 * - not_found: the server has no file for it (404);
 * - not_allowed: the server refuses the file (outside the media root: 403), or the page may not
 *   play from the URL's host (ASSESSOR_MEDIA_HOSTS does not name it);
 * - network: the browser could not load it (offline, the host is down, or a format it cannot play).
 */
export type TMediaProblem = "none" | "not_found" | "not_allowed" | "network";

const WHY: Record<TMediaProblem, string> = {
  none: "This item has no video: grade it from the transcript.",
  not_found: "The video could not be loaded: the file was not found on the server.",
  not_allowed: "The video could not be loaded: it is not allowed (the server or this page may not play it from there).",
  network: "The video could not be loaded: a network problem, or a format this browser cannot play.",
};

export function MediaNotice({
  problem,
  title,
  times,
}: {
  problem: TMediaProblem;
  title: string;
  times?: { startSeconds: number; endSeconds: number };
}) {
  return (
    <div
      role="status"
      data-testid="media-notice"
      data-problem={problem}
      className={`flex aspect-video w-full flex-col justify-center gap-2 rounded-md border p-4 text-sm ${problem === "none" ? "border-slate-300 bg-slate-50 text-slate-700" : "border-amber-400 bg-amber-50 text-amber-900"}`}
    >
      <p className="font-semibold">{WHY[problem]}</p>
      <p>
        Video: <span className="font-medium">{title}</span>
        {times ? (
          <>
            {" "}
            · chunk{" "}
            <span className="font-mono">
              {formatClock(times.startSeconds)} – {formatClock(times.endSeconds)}
            </span>
          </>
        ) : null}
      </p>
      <p className="text-xs">
        Set the start by clicking a time in the transcript, or with [ and ]; the s key needs a playing video.
      </p>
    </div>
  );
}

/**
 * Why a video failed to load. A file served by the app is asked again with HEAD (same origin: the
 * status tells missing from refused); another host cannot be asked from the page (its CSP and
 * CORS), so its failure is a network one.
 */
export async function diagnoseMedia(src: string): Promise<TMediaProblem> {
  if (!src.startsWith("/")) return "network";
  try {
    const res = await fetch(src, { method: "HEAD", credentials: "same-origin" });
    if (res.status === 404) return "not_found";
    if (res.status === 403) return "not_allowed";
    return "network";
  } catch {
    return "network";
  }
}
