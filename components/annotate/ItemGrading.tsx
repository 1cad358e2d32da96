"use client";

import type { RefObject } from "react";
import type { TAnnotatorItem } from "@/lib/annotate/view";
import type { TMediaProblem } from "@/components/player/MediaNotice";
import { FlagBoxes, GradeBar, PlayheadClock, StartControl } from "./parts";
import { NoteField } from "@/components/grading/GradingControls";
import { EndControl } from "./EndControl";
import { ClosedItem, RevisitNote } from "./RevisitNotes";
import type { TForm } from "./annotateHelpers";

/**
 * The annotate page's grading controls for one item (components/annotate/AnnotatePage.tsx): the
 * grade bar, start and end, flags and notes; in a project whose grading is closed, the item's
 * grade read-only instead. `revisited`: the grade given before, or null.
 */
export function ItemGrading({
  closedAt,
  data,
  form,
  revisited,
  onGrade,
  setForm,
  startAtPlayhead,
  startNotice,
  endAtPlayhead,
  endNotice,
  readPlayhead,
  mediaProblem,
  notesRef,
}: {
  closedAt: string | null;
  data: TAnnotatorItem;
  form: TForm;
  revisited: number | null;
  onGrade: (g: number) => void;
  setForm: (patch: Partial<TForm>) => void;
  startAtPlayhead: () => void;
  startNotice: string | null;
  endAtPlayhead: () => void;
  endNotice: string | null;
  readPlayhead: () => number | null;
  mediaProblem: TMediaProblem | null;
  notesRef: RefObject<HTMLTextAreaElement | null>;
}) {
  return closedAt !== null ? (
    <ClosedItem closedAt={closedAt} own={data.own} />
  ) : (
    <>
      {revisited !== null ? <RevisitNote grade={revisited} /> : null}
      <GradeBar value={form.grade} onChoose={onGrade} />
      <div className="flex flex-wrap items-start gap-4">
        <StartControl
          value={form.start}
          chunkStart={data.chunk.startSeconds}
          onChange={(s) => setForm({ start: s })}
          onPlayhead={startAtPlayhead}
          notice={startNotice}
          playhead={
            <PlayheadClock
              read={readPlayhead}
              hasVideo={data.video.src !== null && data.video.allowed && mediaProblem === null}
            />
          }
        />
        <EndControl
          value={form.end}
          onPlayhead={endAtPlayhead}
          onClear={() => setForm({ end: null })}
          notice={endNotice}
        />
        <FlagBoxes value={form.flags} onChange={(flags) => setForm({ flags })} />
      </div>
      <label className="block text-sm">
        <span className="sr-only">Notes</span>
        <NoteField
          fieldRef={notesRef}
          label="Notes"
          placeholder="Notes (n to write, Esc to leave)"
          value={form.notes}
          onChange={(notes) => setForm({ notes })}
          small={false}
        />
      </label>
    </>
  );
}
