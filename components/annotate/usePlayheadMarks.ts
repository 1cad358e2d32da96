"use client";

import type { TPlayerControls } from "@/components/player/VideoPlayer";
import { NO_PLAYHEAD } from "./parts";
import { endNotAfter, NO_PLAYHEAD_END } from "./EndControl";
import type { TForm, TNotices } from "./annotateHelpers";

/**
 * The annotate page's times from the player (components/annotate/AnnotatePage.tsx), made afresh
 * each render: the start (`s`) and the end (`e`) at the playhead, and a time picked in the
 * transcript. Nothing changes in a project whose grading is closed (`closedAt`).
 */
export function usePlayheadMarks({
  form,
  closedAt,
  controls,
  setForm,
  notices: { setStartNotice, setEndNotice },
}: {
  form: TForm | undefined;
  closedAt: string | null;
  controls: TPlayerControls;
  setForm: (patch: Partial<TForm>) => void;
  notices: Pick<TNotices, "setStartNotice" | "setEndNotice">;
}) {
  // s: the start from the playhead; without one (no media, or it failed to load) nothing changes and the notice says why.
  const startAtPlayhead = () => {
    if (!form || closedAt !== null) return;
    const t = controls.playhead();
    setStartNotice(t === null ? NO_PLAYHEAD : null);
    if (t !== null) setForm({ start: Math.round(t * 10) / 10 });
  };
  // e: the answer's end from the playhead, only after the start (else the notice says why).
  const endAtPlayhead = () => {
    if (!form || closedAt !== null) return;
    const t = controls.playhead();
    const end = t === null ? null : Math.round(t * 10) / 10;
    setEndNotice(end === null ? NO_PLAYHEAD_END : end > form.start ? null : endNotAfter(form.start));
    if (end !== null && end > form.start) setForm({ end });
  };
  const pickTime = (seconds: number) => {
    setStartNotice(null);
    setForm({ start: seconds });
    controls.seek(seconds);
  };
  return { startAtPlayhead, endAtPlayhead, pickTime };
}
