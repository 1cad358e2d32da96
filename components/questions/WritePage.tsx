"use client";

import { useEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from "react";
import { VideoPlayer, usePlayer } from "@/components/player/VideoPlayer";
import { formatClock } from "@/lib/annotate/format";
import { useSaveQuestion, useWriteContext, useWriteProjects, useWriteTranscript } from "@/lib/query/questions";
import { ErrorBox, inputClass } from "@/components/lead/ui";
import { endBeforeStart } from "@/lib/questions/places";

type TMark = { start: number | null; end: number | null };

/** Keys, shown on screen: all work while no text field has focus; Esc leaves a field. */
export const WRITE_KEYS: [string, string][] = [
  ["v", "choose the video"],
  ["Space", "play / pause"],
  ["m", "mark the answer's start at the playhead"],
  ["M", "mark its end"],
  ["[ / ]", "move the start 1 s earlier / later (never past the end)"],
  ["{ / }", "move the start 5 s earlier / later"],
  ["p", "play from the marked start"],
  ["n", "add another answer place"],
  ["t", "type the question"],
  ["g", "tags (comma-separated)"],
  ["s", "leads: save as draft or accepted"],
  ["Enter", "save"],
];

const round1 = (x: number) => Math.round(x * 10) / 10;

export function WritePage() {
  const projects = useWriteProjects();
  const [projectId, setProjectId] = useState<number | null>(null);
  const list = projects.data ?? [];
  const chosen = projectId ?? (list.length === 1 ? list[0].id : null);
  if (projects.isLoading) return <p className="text-sm text-slate-500">Loading…</p>;
  if (projects.error) return <ErrorBox error={projects.error} />;
  if (list.length === 0)
    return (
      <p className="text-sm text-slate-600">
        No project lets you write questions. Ask the project lead to allow annotators to author.
      </p>
    );
  return (
    <div className="space-y-4">
      {list.length > 1 ? (
        <label className="block text-sm">
          Project{" "}
          <select
            className={inputClass}
            value={chosen ?? ""}
            onChange={(e) => setProjectId(Number(e.target.value) || null)}
            data-testid="write-project"
          >
            <option value="">Choose…</option>
            {list.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {chosen !== null ? <Writer key={chosen} projectId={chosen} /> : null}
    </div>
  );
}

function isTyping(el: EventTarget | null): boolean {
  return (
    el instanceof HTMLElement &&
    (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable)
  );
}

function Writer({ projectId }: { projectId: number }) {
  const ctx = useWriteContext(projectId);
  const save = useSaveQuestion(projectId);
  const [videoId, setVideoId] = useState<number | null>(null);
  const [marks, setMarks] = useState<TMark[]>([]);
  const [current, setCurrent] = useState(0);
  const [text, setText] = useState("");
  const [tags, setTags] = useState("");
  const [accept, setAccept] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const { mediaRef, controls } = usePlayer(0);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const tagsRef = useRef<HTMLInputElement>(null);
  const videoRef = useRef<HTMLSelectElement>(null);
  const data = ctx.data;
  const video = useMemo(() => data?.videos.find((v) => v.id === videoId) ?? data?.videos[0] ?? null, [data, videoId]);
  const transcript = useWriteTranscript(projectId, video?.id ?? null, !!data?.transcriptWhileWriting);

  const places = marks.filter((m): m is { start: number; end: number | null } => m.start !== null);

  function submit() {
    if (!video) return;
    if (!text.trim()) {
      setNotice("Type the question first (t).");
      textRef.current?.focus();
      return;
    }
    if (places.length === 0) {
      setNotice("Mark the answer's start with m first.");
      return;
    }
    const reversed = places.map((p, i) => endBeforeStart(p, i + 1)).find((x) => x !== null);
    if (reversed) {
      setNotice(`${reversed} Mark them again (m, M).`);
      return;
    }
    save.mutate(
      {
        text: text.trim(),
        tags: tags
          .split(",")
          .map((t) => t.trim())
          .filter(Boolean),
        places: places.map((p) => ({ videoId: video.id, start: p.start, end: p.end })),
        status: data?.isLead && accept ? "accepted" : "draft",
      },
      {
        // The tags stay for the next question (often on the same topic); the text and places are cleared.
        onSuccess: (q) => {
          setNotice(`Saved ${q.qid} (${q.status}).`);
          setText("");
          setMarks([]);
          setCurrent(0);
          textRef.current?.blur();
        },
      },
    );
  }

  const submitRef = useRef(submit);
  useEffect(() => {
    submitRef.current = submit;
  });

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (isTyping(e.target)) return;
      // An end before its start is never kept nor dropped: marking one side past
      // the other swaps them, with a message; a nudge past the end is refused, with a message.
      const m = marks[current] ?? { start: null, end: null };
      const put = (next: TMark, message?: string) => {
        setMarks((ms) => {
          const copy = [...ms];
          copy[current] = next;
          return copy;
        });
        if (message) setNotice(message);
      };
      const swapped = (a: number, b: number) =>
        `The end was before the start: swapped, the answer place is now ${formatClock(a)}–${formatClock(b)}.`;
      const nudge = (by: number) => {
        const start = round1(Math.max(0, (m.start ?? controls.currentTime()) + by));
        if (m.end !== null && start > m.end)
          setNotice(`The start cannot move past the end (${formatClock(m.end)}): mark a later end with M first.`);
        else put({ ...m, start });
      };
      const now = round1(controls.currentTime());
      switch (e.key) {
        case "m":
          if (m.end !== null && now > m.end) put({ start: m.end, end: now }, swapped(m.end, now));
          else put({ ...m, start: now });
          break;
        case "M":
          if (m.start !== null && now < m.start) put({ start: now, end: m.start }, swapped(now, m.start));
          else put({ ...m, end: now });
          break;
        case "[":
          nudge(-1);
          break;
        case "]":
          nudge(1);
          break;
        case "{":
          nudge(-5);
          break;
        case "}":
          nudge(5);
          break;
        case "p": {
          const s = marks[current]?.start;
          if (s !== null && s !== undefined) {
            controls.seek(s);
            controls.play();
          }
          break;
        }
        case "n":
          if (marks[current]?.start != null) setCurrent(marks.length);
          break;
        case " ":
          controls.toggle();
          break;
        case "t":
          textRef.current?.focus();
          break;
        case "g":
          tagsRef.current?.focus();
          break;
        case "v":
          videoRef.current?.focus();
          break;
        case "s":
          setAccept((a) => !a);
          break;
        case "Enter":
          submitRef.current();
          break;
        default:
          return;
      }
      e.preventDefault();
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [controls, current, marks]);

  function fieldKeys(e: ReactKeyboardEvent<HTMLElement>) {
    if (e.key === "Escape") (e.currentTarget as HTMLElement).blur();
    else if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      submit();
    }
  }

  if (ctx.isLoading) return <p className="text-sm text-slate-500">Loading…</p>;
  if (ctx.error || !data) return <ErrorBox error={ctx.error} />;
  if (!video) return <p className="text-sm text-slate-600">This project has no videos yet.</p>;
  return (
    <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
      <div className="space-y-3">
        <label className="block text-sm">
          Video (v){" "}
          <select
            ref={videoRef}
            className={inputClass}
            value={video.id}
            data-testid="write-video"
            onKeyDown={(e) => e.key === "Escape" && e.currentTarget.blur()}
            onChange={(e) => {
              setVideoId(Number(e.target.value));
              setMarks([]);
              setCurrent(0);
            }}
          >
            {data.videos.map((v) => (
              <option key={v.id} value={v.id}>
                {v.externalId} — {v.title}
              </option>
            ))}
          </select>
        </label>
        <VideoPlayer
          src={video.src}
          allowed={video.allowed}
          cueSeconds={0}
          cueKey={`write-${video.id}`}
          mediaRef={mediaRef}
          title={video.title}
          autoPlay={false}
        />
        <div className="text-sm" data-testid="write-places">
          Answer places:{" "}
          {marks.length === 0 ? (
            <span className="text-slate-500">none yet — press m at the answer&apos;s start</span>
          ) : (
            marks.map((m, i) => (
              <span
                key={i}
                className={`mr-2 rounded px-2 py-0.5 ${i === current ? "bg-indigo-100" : "bg-slate-100"}`}
                data-testid={`write-place-${i}`}
                data-start={m.start ?? ""}
                data-end={m.end ?? ""}
              >
                {m.start === null ? "?" : formatClock(m.start)}
                {m.end !== null ? `–${formatClock(m.end)}` : ""}
              </span>
            ))
          )}
        </div>
        {data.transcriptWhileWriting ? (
          <details className="rounded border border-slate-200 p-2 text-sm">
            <summary>Transcript (the lead allows it in this project)</summary>
            <div className="max-h-64 overflow-auto">
              {(transcript.data ?? []).map((c, i) => (
                <p key={i}>
                  <span className="text-slate-500">{formatClock(c.start)} </span>
                  {c.text}
                </p>
              ))}
            </div>
          </details>
        ) : (
          <p className="text-xs text-slate-500">
            Transcript hidden while writing: watch, don&apos;t read (questions written while reading favour keyword
            search).
          </p>
        )}
      </div>
      <div className="space-y-3">
        <label className="block text-sm">
          Question (t)
          <textarea
            ref={textRef}
            className={inputClass}
            rows={3}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={fieldKeys}
            data-testid="write-text"
          />
        </label>
        <label className="block text-sm">
          Tags (g), comma-separated
          <input
            ref={tagsRef}
            className={inputClass}
            value={tags}
            onChange={(e) => setTags(e.target.value)}
            onKeyDown={fieldKeys}
            list="write-tags"
            data-testid="write-tags"
          />
          <datalist id="write-tags">
            {data.tags.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
        </label>
        {data.isLead ? (
          <p className="text-sm" data-testid="write-status">
            Saves as <strong>{accept ? "accepted" : "draft"}</strong> (s switches)
          </p>
        ) : (
          <p className="text-sm text-slate-600">Saves as a draft for the lead to review.</p>
        )}
        <button
          type="button"
          className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm text-white"
          onClick={submit}
          disabled={save.isPending}
        >
          Save (Enter)
        </button>
        {notice ? (
          <p className="text-sm" role="status" data-testid="write-notice">
            {notice}
          </p>
        ) : null}
        <ErrorBox error={save.error} />
        <table className="text-xs">
          <tbody>
            {WRITE_KEYS.map(([k, what]) => (
              <tr key={k}>
                <td className="pr-2 font-mono">{k}</td>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div>
          <h3 className="text-sm font-semibold">Your questions</h3>
          <ul className="text-sm" data-testid="write-mine">
            {data.mine.map((q) => (
              <li key={q.id}>
                {q.qid}: {q.text} <span className="text-slate-500">({q.status})</span>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </div>
  );
}
