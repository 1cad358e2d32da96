"use client";

import type { Dispatch, SetStateAction } from "react";
import type { TAnnotatorAnswer } from "@/lib/answers/view";
import type { TPlayerControls } from "@/components/player/VideoPlayer";
import { usePageKeys } from "@/components/grading/usePageKeys";
import { LABEL_KEYS, labelClaim, moveCursor, type TAnswerForm } from "./form";

/** What the answer keys call, refreshed after every render (the listener itself is added once). */
export type TAnswerKeyHandlers = {
  form: TAnswerForm | undefined;
  data: TAnnotatorAnswer | undefined;
  submit: (f?: TAnswerForm) => void;
  enter: () => void;
  play: (index: number) => void;
  merge: () => void;
  openSplit: () => void;
  back: () => void;
  setForm: (f: TAnswerForm) => void;
  change: (f: TAnswerForm) => void;
  unlock: () => void;
  locked: boolean;
  controls: TPlayerControls;
};

/** The panels the keys open and close: ? help, g guidelines; Esc closes them and the split and merge dialogs. */
export type TAnswerPanels = {
  setHelp: Dispatch<SetStateAction<boolean>>;
  setGuide: Dispatch<SetStateAction<boolean>>;
  setSplit: (split: null) => void;
  setConfirmMerge: (at: null) => void;
};

/** The answer task's keys (ANSWER_KEYS in ./form): one window keydown listener over the latest handlers. */
export function useAnswerKeys(
  handlers: TAnswerKeyHandlers,
  { setHelp, setGuide, setSplit, setConfirmMerge }: TAnswerPanels,
) {
  usePageKeys({
    escape: () => {
      setHelp(false);
      setGuide(false);
      setSplit(null);
      setConfirmMerge(null);
    },
    press: (e) => {
      const h = handlers;
      // Enter on a focused link or button is the browser's (follow it, press it), not the page's.
      if (e.key === "Enter" && e.target instanceof HTMLElement && e.target.closest("a, button")) return false;
      const f = h.form;
      const key = e.key.toLowerCase();
      if (e.key === "?") setHelp((x) => !x);
      else if (key === "g") setGuide((x) => !x);
      else if (e.key === " ") h.controls.toggle();
      else if (key === "u" || e.key === "Backspace") h.back();
      else if (!f || !h.data) return false;
      else if (key === "e") h.unlock();
      else if (key in LABEL_KEYS && e.key.length === 1) h.change(labelClaim(f, LABEL_KEYS[key]));
      else if (key === "j" || e.key === "ArrowDown") h.setForm(moveCursor(f, 1));
      else if (key === "k" || e.key === "ArrowUp") h.setForm(moveCursor(f, -1));
      else if (/^[0-9]$/.test(e.key) && f.cursor >= f.labels.length) {
        const g = Number(e.key);
        if (g > 3) return false;
        if (h.locked) h.change(f);
        else {
          const next = { ...f, relevance: g };
          h.setForm(next);
          h.submit(next);
        }
      } else if (/^[1-9]$/.test(e.key)) h.play(Number(e.key) - 1);
      else if (key === "r") h.controls.replay();
      else if (key === "m") h.merge();
      else if (e.key === "/") h.openSplit();
      else if (e.key === "Enter") h.enter();
      else return false;
      return true;
    },
  });
}
