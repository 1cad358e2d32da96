"use client";

import { usePageKeys } from "@/components/grading/usePageKeys";

export type TGradingKeyHandlers = {
  grade: (g: number) => void;
  setStartToPlayhead: () => void;
  /** e: the answer ends at the playhead; Shift+E clears the end (optional, beside the start). */
  setEndToPlayhead?: () => void;
  clearEnd?: () => void;
  nudgeStart: (seconds: number) => void;
  replay: () => void;
  togglePlay: () => void;
  submit: () => void;
  back?: () => void;
  help: () => void;
  escape?: () => void;
  /** The annotator's flags and notes: f unsure, t transcript error, n the notes field. */
  toggleFlag?: (flag: "unsure" | "transcript_error") => void;
  focusNotes?: () => void;
  /** g: the project's guidelines with the grade meanings. */
  guidelines?: () => void;
};

/**
 * The grading keys: 0–3 grade; s start := playhead; [ ] ∓1 s (Shift ∓5 s); e end :=
 * playhead (Shift+E clears it); r replay;
 * Space play/pause; Enter submit; u or Backspace back; ? help. Escape leaves a text field.
 * Where the page gives the handlers: f unsure, t transcript error, n notes, g guidelines.
 */
export function useGradingKeys(handlers: TGradingKeyHandlers, enabled = true) {
  usePageKeys(
    {
      escape: () => handlers.escape?.(),
      press: (e) => {
        const h = handlers;
        // [ and ] with Shift arrive as { and } on most layouts: use the physical key for those.
        if (e.code === "BracketLeft" || e.key === "[" || e.key === "{") h.nudgeStart(e.shiftKey ? -5 : -1);
        else if (e.code === "BracketRight" || e.key === "]" || e.key === "}") h.nudgeStart(e.shiftKey ? 5 : 1);
        else if (/^[0-3]$/.test(e.key)) h.grade(Number(e.key));
        else if (e.key === "s" || e.key === "S") h.setStartToPlayhead();
        else if (e.key === "e" && h.setEndToPlayhead) h.setEndToPlayhead();
        else if (e.key === "E" && h.clearEnd) h.clearEnd();
        else if (e.key === "r" || e.key === "R") h.replay();
        else if (e.key === " ") h.togglePlay();
        else if (e.key === "Enter") h.submit();
        else if ((e.key === "u" || e.key === "U" || e.key === "Backspace") && h.back) h.back();
        else if (e.key === "?") h.help();
        else if ((e.key === "f" || e.key === "F") && h.toggleFlag) h.toggleFlag("unsure");
        else if ((e.key === "t" || e.key === "T") && h.toggleFlag) h.toggleFlag("transcript_error");
        else if ((e.key === "n" || e.key === "N") && h.focusNotes) h.focusNotes();
        else if ((e.key === "g" || e.key === "G") && h.guidelines) h.guidelines();
        else return false;
        return true;
      },
    },
    { enabled, nativeRegions: true },
  );
}
