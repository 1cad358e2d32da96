"use client";

import type { RefObject } from "react";
import type { TAnswerContextView } from "@/lib/answers/view";
import { formatClock } from "@/lib/annotate/format";
import { VideoPlayer, type TMediaElement } from "@/components/player/VideoPlayer";

/** One chunk of an answer's context in the player, cued at its start (`cueKey`: a new cue when it changes). */
export function ContextPlayer({
  ctx,
  cueKey,
  mediaRef,
  autoPlay,
}: {
  ctx: TAnswerContextView;
  cueKey: string;
  mediaRef: RefObject<TMediaElement | null>;
  autoPlay: boolean;
}) {
  return (
    <VideoPlayer
      src={ctx.video.src}
      allowed={ctx.video.allowed}
      times={ctx}
      cueSeconds={ctx.startSeconds}
      cueKey={cueKey}
      mediaRef={mediaRef}
      title={ctx.video.title}
      autoPlay={autoPlay}
    />
  );
}

/** The context the model was given: the chunk shown in the player, then every chunk (a click plays it). */
export function AnswerContext({
  answerId,
  context,
  chunkIndex,
  autoPlay,
  mediaRef,
  onPlay,
}: {
  answerId: string;
  context: TAnswerContextView[];
  chunkIndex: number;
  autoPlay: boolean;
  mediaRef: RefObject<TMediaElement | null>;
  onPlay: (index: number) => void;
}) {
  const ctx = context[chunkIndex];
  return (
    <div className="space-y-2">
      {ctx ? (
        <ContextPlayer ctx={ctx} cueKey={`${answerId}:${chunkIndex}`} mediaRef={mediaRef} autoPlay={autoPlay} />
      ) : (
        <p className="text-sm text-slate-600">The model was given no context for this answer.</p>
      )}
      <ol aria-label="Context" className="space-y-1">
        {context.map((c, i) => (
          <li key={c.position}>
            <button
              type="button"
              data-testid="context-chunk"
              aria-current={i === chunkIndex ? "true" : undefined}
              className={`w-full rounded border p-2 text-left text-xs ${i === chunkIndex ? "border-indigo-600 bg-indigo-50" : "border-slate-200"}`}
              onClick={() => onPlay(i)}
            >
              <span className="font-mono font-semibold">{i + 1}</span> · {c.video.title} {formatClock(c.startSeconds)}–
              {formatClock(c.endSeconds)}
              <span className="mt-1 block whitespace-pre-wrap text-slate-800">{c.text}</span>
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}
