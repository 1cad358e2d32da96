"use client";

import { formatClock } from "@/lib/annotate/format";
import { TIME_BUTTON, TimeGroup } from "./TimeGroup";

/** What `e` says when there is no playhead to take the end from. */
export const NO_PLAYHEAD_END =
  "No playhead: the video is not playing, so e cannot set the end. Play it to the answer's end first.";

/** What `e` says when the playhead is not after the start (the end must lie after it). */
export const endNotAfter = (start: number) =>
  `The answer's end must be after the start (${formatClock(start)}): play on, then press e again.`;

/**
 * Where the answer ends (optional), beside the corrected start: `e` sets it to the playhead, Shift+E
 * (or the button) clears it. Not marked, the label names only where the answer starts.
 */
export function EndControl({
  value,
  onPlayhead,
  onClear,
  notice = null,
}: {
  value: number | null;
  onPlayhead: () => void;
  onClear: () => void;
  notice?: string | null;
}) {
  const btn = TIME_BUTTON;
  return (
    <TimeGroup
      label="Answer end"
      name="End"
      testId="end"
      seconds={value ?? ""}
      shown={value === null ? "not marked" : formatClock(value)}
      notice={notice}
    >
      <button type="button" className={btn} aria-label="e: end at playhead: the answer ends here" onClick={onPlayhead}>
        e: end at playhead
      </button>
      {value !== null ? (
        <button type="button" className={btn} aria-label="Shift+E: clear the answer end" onClick={onClear}>
          Shift+E: clear
        </button>
      ) : null}
    </TimeGroup>
  );
}
