"use client";

import { useEffect, useRef, type Dispatch, type SetStateAction } from "react";
import type { TAnnotatorAnswer } from "@/lib/answers/view";
import type { TPlayerControls } from "@/components/player/VideoPlayer";
import { isTyping } from "@/components/annotate/useGradingKeys";
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
  const ref = useRef(handlers);
  useEffect(() => {
    ref.current = handlers;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const h = ref.current;
      if (e.key === "Escape") {
        if (e.target instanceof HTMLElement && isTyping(e.target)) e.target.blur();
        setHelp(false);
        setGuide(false);
        setSplit(null);
        setConfirmMerge(null);
        return;
      }
      if (isTyping(e.target) || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
      // Enter on a focused link or button is the browser's (follow it, press it), not the page's.
      if (e.key === "Enter" && e.target instanceof HTMLElement && e.target.closest("a, button")) return;
      const f = h.form;
      let handled = true;
      const key = e.key.toLowerCase();
      if (e.key === "?") setHelp((x) => !x);
      else if (key === "g") setGuide((x) => !x);
      else if (e.key === " ") h.controls.toggle();
      else if (key === "u" || e.key === "Backspace") h.back();
      else if (!f || !h.data) handled = false;
      else if (key === "e") h.unlock();
      else if (key in LABEL_KEYS && e.key.length === 1) h.change(labelClaim(f, LABEL_KEYS[key]));
      else if (key === "j" || e.key === "ArrowDown") h.setForm(moveCursor(f, 1));
      else if (key === "k" || e.key === "ArrowUp") h.setForm(moveCursor(f, -1));
      else if (/^[0-9]$/.test(e.key) && f.cursor >= f.labels.length) {
        const g = Number(e.key);
        if (g > 3) handled = false;
        else if (h.locked) h.change(f);
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
      else handled = false;
      if (handled) e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
    // The setters are React's state setters: stable, so the listener is added once, as before.
  }, [setHelp, setGuide, setSplit, setConfirmMerge]);
}
