"use client";

import { usePageKeys } from "@/components/grading/usePageKeys";

export type TAdjudicatorKeyHandlers = {
  grade: (g: number) => void;
  /** a, b, …: take that annotator's grade and start together. */
  take: (index: number) => void;
  setStartToPlayhead: () => void;
  /** e: the answer ends at the playhead; Shift+E clears the end. */
  setEndToPlayhead: () => void;
  clearEnd: () => void;
  nudgeStart: (seconds: number) => void;
  replay: () => void;
  togglePlay: () => void;
  submit: () => void;
  /** u: reopen the last decision (a revision). */
  reopen: () => void;
  back: () => void;
  rationale: () => void;
  guidelines: () => void;
  help: () => void;
  escape: () => void;
};

/** The adjudicator's keys, listed in the `?` help. */
export const ADJUDICATOR_KEYS: [string, string][] = [
  ["0 – 3", "final grade"],
  ["a / b", "take annotator A's / B's grade, start and end"],
  ["s", "set the start to the playhead"],
  ["[ / ]", "start 1 s earlier / later (Shift: 5 s)"],
  ["e", "the answer ends at the playhead (optional; Shift+E clears it)"],
  ["r", "write the rationale (Esc leaves it)"],
  ["p", "replay from the chunk's start"],
  ["Space", "play / pause"],
  ["Enter", "decide and go to the next item"],
  ["u", "reopen the last decision to revise it"],
  ["Backspace", "back to the previous item"],
  ["g", "guidelines"],
  ["?", "show or hide these keys"],
  ["Esc", "leave the rationale, close a panel"],
];

/**
 * The adjudicator's own key map: like the annotator's (useGradingKeys) for grades, start, play and
 * Enter (and e for the answer's end), plus a/b, r (rationale: replay moves to p), g, and u (reopen, where the annotator's u
 * goes back). No shortcut fires while typing.
 */
export function useAdjudicatorKeys(handlers: TAdjudicatorKeyHandlers) {
  usePageKeys({
    escape: handlers.escape,
    press: (e) => {
      const h = handlers;
      const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
      if (e.code === "BracketLeft" || key === "[" || key === "{") h.nudgeStart(e.shiftKey ? -5 : -1);
      else if (e.code === "BracketRight" || key === "]" || key === "}") h.nudgeStart(e.shiftKey ? 5 : 1);
      else if (/^[0-3]$/.test(key)) h.grade(Number(key));
      else if (key === "a" || key === "b") h.take(key === "a" ? 0 : 1);
      else if (key === "s") h.setStartToPlayhead();
      else if (key === "e") (e.shiftKey ? h.clearEnd : h.setEndToPlayhead)();
      else if (key === "r") h.rationale();
      else if (key === "p") h.replay();
      else if (key === " ") h.togglePlay();
      else if (key === "Enter") h.submit();
      else if (key === "u") h.reopen();
      else if (key === "Backspace") h.back();
      else if (key === "g") h.guidelines();
      else if (key === "?") h.help();
      else return false;
      return true;
    },
  });
}
