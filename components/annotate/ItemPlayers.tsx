"use client";

import type { RefObject } from "react";
import type { TAnnotatorItem } from "@/lib/annotate/view";
import { VideoPlayer, type TMediaElement, type TPlayerControls } from "@/components/player/VideoPlayer";
import type { TMediaProblem } from "@/components/player/MediaNotice";
import type { TPlayerSlots } from "./usePlayerSlots";

/**
 * The annotate page's players (components/annotate/AnnotatePage.tsx): one per slot, the active one
 * in front and the next item's cued invisibly behind it, then the replay and play/pause buttons.
 */
export function ItemPlayers({
  slots,
  itemIn,
  mediaRef,
  controls,
  setMediaProblem,
}: {
  slots: TPlayerSlots;
  itemIn: (id: string | null) => TAnnotatorItem | undefined;
  mediaRef: RefObject<TMediaElement | null>;
  controls: TPlayerControls;
  setMediaProblem: (problem: TMediaProblem | null) => void;
}) {
  return (
    <div className="space-y-2">
      <div className="relative">
        {slots.ids.map((id, slot) => {
          const p = itemIn(id);
          if (!p) return null;
          const active = slot === slots.active;
          return (
            <div
              key={`slot-${slot}`}
              className={active ? undefined : "pointer-events-none absolute inset-0 opacity-0"}
              aria-hidden={active ? undefined : true}
              inert={!active}
            >
              <VideoPlayer
                src={p.video.src}
                allowed={p.video.allowed}
                times={p.chunk}
                cueSeconds={p.chunk.startSeconds}
                cueKey={p.id}
                mediaRef={mediaRef}
                title={p.video.title}
                active={active}
                onProblem={active ? setMediaProblem : undefined}
              />
            </div>
          );
        })}
      </div>
      <div className="flex gap-2 text-xs">
        <button
          type="button"
          className="rounded border border-slate-300 px-2 py-1"
          aria-label="r replay from chunk start"
          onClick={controls.replay}
        >
          r replay
        </button>
        <button
          type="button"
          className="rounded border border-slate-300 px-2 py-1"
          aria-label="Space play/pause: play or pause"
          onClick={controls.toggle}
        >
          Space play/pause
        </button>
      </div>
    </div>
  );
}
