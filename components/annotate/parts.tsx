"use client";

import { useEffect, useState, type ReactNode } from "react";
import { FLAGS, GRADES, formatClock } from "@/lib/annotate/format";
import { TIME_BUTTON, TimeGroup } from "./TimeGroup";

export type TSegment = { text: string; startSeconds: number; endSeconds: number };

/** The grade buttons, each with its meaning; the chosen one is pressed (aria-pressed). */
export function GradeBar({
  value,
  onChoose,
  highlight,
}: {
  value: number | null;
  onChoose: (g: number) => void;
  highlight?: number[];
}) {
  return (
    <div role="group" aria-label="Grade" className="grid grid-cols-2 gap-2 sm:grid-cols-4">
      {GRADES.map((g) => (
        <button
          key={g.grade}
          type="button"
          aria-pressed={value === g.grade}
          aria-label={`Grade ${g.grade}: ${g.meaning}`}
          onClick={() => onChoose(g.grade)}
          className={`rounded-md border px-3 py-2 text-left text-sm ${value === g.grade ? "border-indigo-700 bg-indigo-700 text-white" : highlight?.includes(g.grade) ? "border-amber-500 bg-amber-50" : "border-slate-300 bg-white hover:bg-slate-50"}`}
        >
          <kbd className="mr-1 font-mono font-bold">{g.grade}</kbd> {g.meaning}
        </button>
      ))}
    </div>
  );
}

/** Corrected start: m:ss, with the buttons that the [ ] s keys mirror; `notice` is said politely (why `s` did nothing); `playhead`: the clock shown beside `s` (PlayheadClock). */
export function StartControl({
  value,
  chunkStart,
  onChange,
  onPlayhead,
  notice = null,
  playhead,
}: {
  value: number;
  chunkStart: number;
  onChange: (s: number) => void;
  onPlayhead: () => void;
  notice?: string | null;
  playhead?: ReactNode;
}) {
  const btn = TIME_BUTTON;
  return (
    <TimeGroup
      label="Corrected start"
      name="Start"
      testId="start"
      seconds={value}
      shown={formatClock(value)}
      notice={notice}
    >
      <button
        type="button"
        className={btn}
        aria-label="−5 s: start 5 seconds earlier"
        onClick={() => onChange(Math.max(0, value - 5))}
      >
        −5 s
      </button>
      <button
        type="button"
        className={btn}
        aria-label="−1 s: start 1 second earlier"
        onClick={() => onChange(Math.max(0, value - 1))}
      >
        −1 s
      </button>
      <button type="button" className={btn} aria-label="+1 s: start 1 second later" onClick={() => onChange(value + 1)}>
        +1 s
      </button>
      <button
        type="button"
        className={btn}
        aria-label="+5 s: start 5 seconds later"
        onClick={() => onChange(value + 5)}
      >
        +5 s
      </button>
      {playhead}
      <button type="button" className={btn} aria-label="s: at playhead: set start to playhead" onClick={onPlayhead}>
        s: at playhead
      </button>
      {value !== chunkStart ? (
        <button
          type="button"
          className={btn}
          aria-label="Reset start to chunk start"
          onClick={() => onChange(chunkStart)}
        >
          reset ({formatClock(chunkStart)})
        </button>
      ) : null}
    </TimeGroup>
  );
}

/**
 * The playhead's time (m:ss) beside the start control, so `s` is not a blind press: read from the
 * player four times a second (live while playing; also for YouTube, whose element has no reliable
 * timeupdate), "no video" when the item has none or it failed to load, "–:––" while it loads.
 */
export function PlayheadClock({ read, hasVideo }: { read: () => number | null; hasVideo: boolean }) {
  const [t, setT] = useState<number | null>(null);
  useEffect(() => {
    const tick = () => setT(read());
    tick();
    const timer = setInterval(tick, 250);
    return () => clearInterval(timer);
  }, [read]);
  const text = t !== null ? formatClock(t) : hasVideo ? "–:––" : "no video";
  return (
    <span className="mx-1 text-xs text-slate-700">
      playhead{" "}
      <output
        aria-label="Playhead time"
        data-testid="playhead"
        data-seconds={t ?? ""}
        className="font-mono font-semibold"
      >
        {text}
      </output>
    </span>
  );
}

/** What `s` says when there is no playhead to take the start from. */
export const NO_PLAYHEAD =
  "No playhead: the video is not playing, so s cannot set the start. Click a time in the transcript, or use [ and ].";

export function FlagBoxes({ value, onChange }: { value: string[]; onChange: (flags: string[]) => void }) {
  return (
    <fieldset className="flex gap-3 text-sm">
      <legend className="sr-only">Flags</legend>
      {FLAGS.map((f) => (
        <span key={f.id} className="flex items-center gap-1">
          <label className="flex items-center gap-1">
            <input
              type="checkbox"
              checked={value.includes(f.id)}
              onChange={(e) => onChange(e.target.checked ? [...value, f.id] : value.filter((x) => x !== f.id))}
            />
            {f.label}
          </label>
          <kbd title={`key ${f.key}`} className="font-mono text-xs text-slate-500">
            {f.key}
          </kbd>
        </span>
      ))}
    </fieldset>
  );
}

/**
 * The chunk's text with the neighbouring transcript, collapsed, before and after. With
 * `onPickTime`, every time shown is a button that sets the start to it (the
 * start control without a playhead): the chunk's start and end, each neighbouring segment's
 * start, and each transcript cue that starts inside the chunk (`cues`, when the video's transcript
 * was imported), with the cue's text as its title.
 */
export function Transcript({
  chunk,
  before,
  after,
  cues = [],
  onPickTime,
}: {
  chunk: TSegment;
  before: TSegment[];
  after: TSegment[];
  cues?: TSegment[];
  onPickTime?: (seconds: number) => void;
}) {
  const [open, setOpen] = useState({ before: false, after: false });
  const time = (seconds: number, what: string, className: string) =>
    onPickTime ? (
      <button
        type="button"
        className={`${className} rounded underline decoration-dotted hover:bg-indigo-100`}
        aria-label={`Set start to ${what} ${formatClock(seconds)}`}
        data-seconds={seconds}
        onClick={() => onPickTime(seconds)}
      >
        {formatClock(seconds)}
      </button>
    ) : (
      <span className={className}>{formatClock(seconds)}</span>
    );
  const seg = (s: TSegment, i: number) => (
    <p key={i} className="text-sm text-slate-500">
      {time(s.startSeconds, "transcript time", "mr-1 font-mono text-xs")}
      {s.text}
    </p>
  );
  return (
    <section aria-label="Transcript" className="space-y-2">
      {before.length > 0 ? (
        <div>
          <button
            type="button"
            className="text-xs text-indigo-700 underline"
            aria-expanded={open.before}
            onClick={() => setOpen((o) => ({ ...o, before: !o.before }))}
          >
            {open.before ? "Hide" : "Show"} transcript before
          </button>
          {open.before ? <div className="mt-1 space-y-1">{before.map(seg)}</div> : null}
        </div>
      ) : null}
      <div className="rounded-md border border-slate-200 bg-slate-50 p-3">
        <p className="mb-1 font-mono text-xs text-slate-500">
          Chunk {time(chunk.startSeconds, "chunk start", "")} – {time(chunk.endSeconds, "chunk end", "")}
        </p>
        <p data-testid="chunk-text" className="whitespace-pre-wrap text-sm leading-relaxed">
          {chunk.text}
        </p>
        {onPickTime && cues.length > 0 ? (
          <ol
            aria-label="Transcript cues"
            className="mt-2 space-y-0.5 border-t border-slate-200 pt-2 text-xs text-slate-600"
          >
            {cues.map((c, i) => (
              <li key={i}>
                <button
                  type="button"
                  className="mr-1 rounded font-mono underline decoration-dotted hover:bg-indigo-100"
                  aria-label={`Set start to cue ${formatClock(c.startSeconds)}`}
                  data-seconds={c.startSeconds}
                  title={c.text}
                  onClick={() => onPickTime(c.startSeconds)}
                >
                  {formatClock(c.startSeconds)}
                </button>
                {c.text}
              </li>
            ))}
          </ol>
        ) : null}
      </div>
      {after.length > 0 ? (
        <div>
          <button
            type="button"
            className="text-xs text-indigo-700 underline"
            aria-expanded={open.after}
            onClick={() => setOpen((o) => ({ ...o, after: !o.after }))}
          >
            {open.after ? "Hide" : "Show"} transcript after
          </button>
          {open.after ? <div className="mt-1 space-y-1">{after.map(seg)}</div> : null}
        </div>
      ) : null}
    </section>
  );
}

export const KEYS: [string, string][] = [
  ["0 – 3", "grade"],
  ["s", "set the start to the playhead"],
  ["[ / ]", "start 1 s earlier / later (Shift: 5 s)"],
  ["r", "replay from the chunk's start"],
  ["Space", "play / pause"],
  ["Enter", "submit and go to the next item"],
  ["u or Backspace", "back to the previous item"],
  ["?", "show or hide these keys"],
  ["Esc", "leave the notes field"],
];

/**
 * The annotator's keys: the shared ones and the flags, notes and guidelines;
 * with auto-advance a grade key also submits (the header's checkbox turns it off).
 */
export const annotatorKeys = (autoAdvance: boolean): [string, string][] => [
  [
    "0 – 3",
    autoAdvance
      ? "grade, submit and go to the next item (auto-advance is on: header checkbox)"
      : "grade (auto-advance is off: header checkbox)",
  ],
  ...KEYS.slice(1, 3),
  ["e", "the answer ends at the playhead (optional; Shift+E clears it)"],
  ...KEYS.slice(3, -2),
  ["f", "flag or unflag: unsure"],
  ["t", "flag or unflag: transcript error"],
  ["n", "write a note (Esc leaves the field)"],
  ["g", "guidelines and grade meanings"],
  ...KEYS.slice(-2),
];

export function KeyHelp({
  open,
  onClose,
  keys = KEYS,
}: {
  open: boolean;
  onClose: () => void;
  keys?: [string, string][];
}) {
  if (!open) return null;
  return (
    <div
      role="dialog"
      aria-modal="false"
      aria-label="Keyboard shortcuts"
      className="fixed right-4 top-16 z-10 w-80 rounded-md border border-slate-300 bg-white p-4 shadow-lg"
    >
      <h2 className="mb-2 font-semibold">Keyboard shortcuts</h2>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        {keys.map(([k, what]) => (
          <div key={k} className="contents">
            <dt className="font-mono font-semibold">{k}</dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <button type="button" className="mt-3 rounded border border-slate-300 px-2 py-1 text-sm" onClick={onClose}>
        Close
      </button>
    </div>
  );
}

export function Meter({ label, done, total }: { label: string; done: number; total: number }) {
  return (
    <div className="flex items-center gap-2 text-xs text-slate-600">
      <span>{label}</span>
      <progress aria-label={label} max={Math.max(total, 1)} value={done} className="h-2 w-24" />
      <span className="font-mono">
        {done}/{total}
      </span>
    </div>
  );
}
