"use client";

import { useEffect, useRef, useState } from "react";
import { VideoPlayer, usePlayer } from "@/components/player/VideoPlayer";
import { formatClock } from "@/lib/annotate/format";
import { useEditQuestion, useQuestionHistory, type TReviewData } from "@/lib/query/questions";
import { Button, ErrorBox, inputClass } from "@/components/lead/ui";
import type { TReviewQuestion } from "@/lib/questions/review";
import { placeLabel } from "@/lib/questions/history";
import { endBeforeStart, parseClock } from "@/lib/questions/places";

/** A place being edited: the typed times, and the stored ones (kept as they are, decimals included, while their text is unchanged). */
type TPlaceDraft = {
  videoId: number | null;
  video: string | null;
  start: string;
  end: string;
  was: { start: number; end: number | null; startText: string; endText: string };
};

const clockText = (s: number | null) => (s === null ? "" : formatClock(s));

/**
 * One question of the review: its answer places with start and end (editable),
 * each playing in a player shown beside it (scrolled into view); its history as readable changes.
 */
export function QuestionCard({
  projectId,
  q,
  videos,
}: {
  projectId: number;
  q: TReviewQuestion;
  videos: TReviewData["videos"];
}) {
  const edit = useEditQuestion(projectId);
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(q.text);
  const [tags, setTags] = useState(q.tags.join(", "));
  const [places, setPlaces] = useState<TPlaceDraft[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [showHistory, setShowHistory] = useState(false);
  const [playing, setPlaying] = useState<{ videoId: number; start: number; key: number } | null>(null);
  const { mediaRef } = usePlayer(playing?.start ?? 0);
  const playerBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (playing) playerBox.current?.scrollIntoView({ block: "nearest" });
  }, [playing]);
  const placesEditable = q.places.every((p) => p.videoId !== null);
  const video = playing ? videos.find((v) => v.id === playing.videoId) : undefined;

  function startEditing() {
    setText(q.text);
    setTags(q.tags.join(", "));
    setPlaces(
      q.places.map((p) => ({
        videoId: p.videoId,
        video: p.video,
        start: clockText(p.start),
        end: clockText(p.end),
        was: { start: p.start, end: p.end, startText: clockText(p.start), endText: clockText(p.end) },
      })),
    );
    setProblem(null);
    setEditing(true);
  }

  function save() {
    const parsed: { videoId: number; start: number; end: number | null }[] = [];
    for (const [i, p] of places.entries()) {
      const start = p.start === p.was.startText ? p.was.start : parseClock(p.start);
      const end = p.end === p.was.endText ? p.was.end : p.end.trim() === "" ? null : parseClock(p.end);
      if (start === null || (p.end.trim() !== "" && end === null))
        return setProblem(`Answer place ${i + 1}: type times as m:ss or seconds.`);
      const reversed = endBeforeStart({ start, end }, i + 1);
      if (reversed) return setProblem(`${reversed} Change one of them.`);
      if (p.videoId !== null) parsed.push({ videoId: p.videoId, start, end });
    }
    setProblem(null);
    const patch = {
      text,
      tags: tags
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean),
      ...(placesEditable ? { places: parsed } : {}),
    };
    edit.mutate({ id: q.id, patch }, { onSuccess: () => setEditing(false) });
  }

  return (
    <li
      className={`rounded border p-3 text-sm ${q.flagged ? "border-amber-300 bg-amber-50" : "border-slate-200"}`}
      data-testid={`review-${q.qid}`}
      data-status={q.status}
    >
      <p className="flex flex-wrap gap-x-3 text-slate-600">
        <span className="font-mono text-slate-900">{q.qid}</span>
        <span>{q.status}</span>
        <span data-testid="author">by {q.author ?? "—"}</span>
        <span>
          overlap {q.overlap === null ? "—" : `${Math.round(q.overlap * 100)}%`}
          {q.flagged ? <span className="ml-1 text-amber-700">flagged</span> : null}
        </span>
        <span>BM25 rank {q.bm25Rank === null ? "—" : `${q.bm25Rank} of ${q.bm25Of}`}</span>
      </p>
      {editing ? (
        <div className="mt-2 space-y-2">
          <input
            className={inputClass}
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-label="question text"
          />
          <input className={inputClass} value={tags} onChange={(e) => setTags(e.target.value)} aria-label="tags" />
          {placesEditable ? (
            places.map((p, i) => (
              <fieldset key={i} className="flex flex-wrap items-center gap-2" data-testid={`edit-place-${i}`}>
                <legend className="sr-only">Answer place {i + 1}</legend>
                <span>{p.video}</span>
                <label>
                  start{" "}
                  <input
                    className={`${inputClass} inline-block w-24`}
                    value={p.start}
                    onChange={(e) =>
                      setPlaces((ps) => ps.map((x, k) => (k === i ? { ...x, start: e.target.value } : x)))
                    }
                    aria-label={`answer place ${i + 1} start`}
                  />
                </label>
                <label>
                  end{" "}
                  <input
                    className={`${inputClass} inline-block w-24`}
                    value={p.end}
                    placeholder="none"
                    onChange={(e) => setPlaces((ps) => ps.map((x, k) => (k === i ? { ...x, end: e.target.value } : x)))}
                    aria-label={`answer place ${i + 1} end`}
                  />
                </label>
              </fieldset>
            ))
          ) : (
            <p className="text-slate-600">Answer places without a video are changed by importing the question again.</p>
          )}
        </div>
      ) : (
        <>
          <p className="mt-1 break-words text-base">{q.text}</p>
          {q.tags.length ? <p className="break-words text-slate-600">tags: {q.tags.join(", ")}</p> : null}
        </>
      )}
      {q.cluster ? (
        <p className="break-words text-xs text-amber-700">
          near-duplicate of {q.cluster.others.join(", ")}
          {q.cluster.size - 1 > q.cluster.others.length
            ? ` and ${(q.cluster.size - 1 - q.cluster.others.length).toLocaleString("en-US")} more`
            : ""}{" "}
          (group {q.cluster.index + 1})
        </p>
      ) : null}
      <p className="mt-1 flex flex-wrap items-center gap-x-2">
        <span className="text-slate-600">answer {q.places.length === 1 ? "place" : "places"}:</span>
        {q.places.length === 0 ? "—" : null}
        {q.places.map((p, i) =>
          p.videoId === null ? (
            <span key={i} data-testid={`place-${i}`}>
              {placeLabel(p)}
            </span>
          ) : (
            <button
              key={i}
              type="button"
              className="text-indigo-700 underline"
              data-testid={`place-${i}`}
              onClick={() => setPlaying({ videoId: p.videoId!, start: p.start, key: Date.now() })}
            >
              {placeLabel(p)}
            </button>
          ),
        )}
      </p>
      {playing ? (
        <div ref={playerBox} className="mt-2 max-w-xl" data-testid="place-player">
          <VideoPlayer
            src={video?.src ?? null}
            allowed={video?.allowed ?? true}
            cueSeconds={playing.start}
            cueKey={`review-${q.id}-${playing.key}`}
            mediaRef={mediaRef}
            title={`answer place of ${q.qid}`}
          />
          <Button variant="secondary" className="mt-1" onClick={() => setPlaying(null)}>
            Close the player
          </Button>
        </div>
      ) : null}
      <div className="mt-2 flex flex-wrap gap-2">
        {q.status !== "accepted" ? (
          <Button variant="secondary" onClick={() => edit.mutate({ id: q.id, patch: { status: "accepted" } })}>
            Accept
          </Button>
        ) : null}
        {q.status !== "rejected" ? (
          <Button variant="secondary" onClick={() => edit.mutate({ id: q.id, patch: { status: "rejected" } })}>
            Reject
          </Button>
        ) : null}
        {editing ? (
          <>
            <Button onClick={save}>Save</Button>
            <Button variant="secondary" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </>
        ) : (
          <Button variant="secondary" onClick={startEditing}>
            Edit
          </Button>
        )}
        <Button variant="secondary" aria-expanded={showHistory} onClick={() => setShowHistory((s) => !s)}>
          History
        </Button>
      </div>
      {problem ? (
        <p className="mt-1 text-red-700" role="alert" data-testid="edit-problem">
          {problem}
        </p>
      ) : null}
      <ErrorBox error={edit.error} />
      {showHistory ? <History projectId={projectId} queryId={q.id} /> : null}
    </li>
  );
}

function History({ projectId, queryId }: { projectId: number; queryId: number }) {
  const h = useQuestionHistory(projectId, queryId);
  if (h.isLoading) return <p className="text-xs">Loading…</p>;
  if (h.error) return <ErrorBox error={h.error} />;
  return (
    <ol className="mt-2 space-y-1 text-xs" data-testid="history">
      {(h.data ?? []).map((e, i) => (
        <li key={i}>
          <span className="text-slate-600">
            {new Date(e.at).toLocaleString("en-GB")}, {e.actor ?? "an import"}
          </span>{" "}
          {e.before === null ? "created it" : e.changes.length ? "changed" : "saved it unchanged"}
          <ul className="ml-4 list-disc">
            {e.changes.map((c) => (
              <li key={c.field} className="break-words">
                {c.field}:{" "}
                {e.before === null ? (
                  <>{c.after ?? "—"}</>
                ) : (
                  <>
                    {c.before ?? "—"} → {c.after ?? "—"}
                  </>
                )}
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}
