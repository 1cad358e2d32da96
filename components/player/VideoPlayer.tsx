"use client";

import ReactPlayer from "react-player";
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type RefObject } from "react";
import { diagnoseMedia, MediaNotice, type TMediaProblem } from "./MediaNotice";

const noSubscription = () => () => {};

/** What the page needs of a player: react-player 3's ref is the media element (or a media-like custom element for YouTube). */
export type TMediaElement = Pick<
  HTMLVideoElement,
  "currentTime" | "paused" | "play" | "pause" | "readyState" | "duration"
>;

export type TPlayerControls = {
  currentTime: () => number;
  /** The playhead, or null when no video is loaded (none, failed, not yet ready): `s` then refuses. */
  playhead: () => number | null;
  seek: (seconds: number) => void;
  play: () => void;
  toggle: () => void;
  /** Seeks to the cue and plays from there. */
  replay: () => void;
};

/** The player's element and the controls the keys call; `cueSeconds` is where replay starts. */
export function usePlayer(cueSeconds: number) {
  const mediaRef = useRef<TMediaElement | null>(null);
  const cueRef = useRef(cueSeconds);
  useEffect(() => {
    cueRef.current = cueSeconds;
  }, [cueSeconds]);
  const controls = useMemo<TPlayerControls>(() => {
    const el = () => mediaRef.current;
    const play = () =>
      void el()
        ?.play()
        ?.catch(() => undefined);
    return {
      currentTime: () => el()?.currentTime ?? 0,
      playhead: () => {
        const m = el();
        return m && m.readyState >= 1 ? m.currentTime : null;
      },
      seek: (t) => {
        const m = el();
        if (m) m.currentTime = Math.max(0, t);
      },
      play,
      toggle: () => {
        const m = el();
        if (!m) return;
        if (m.paused) play();
        else m.pause();
      },
      replay: () => {
        const m = el();
        if (!m) return;
        m.currentTime = cueRef.current;
        play();
      },
    };
  }, []);
  return { mediaRef, controls };
}

/**
 * The video, cued at `cueSeconds` and playing from there. Each (src, cueKey) is cued once: when
 * metadata arrives, and also from the callback ref when the element already has it (in a fast
 * reload `loadedmetadata` can fire before hydration: ../shared/STACK.md "Video").
 * Without media (`src` null), from a host the page may not play from (`allowed` false), or when
 * loading fails, a notice says why with the title and the chunk's `times` (MediaNotice);
 * `onProblem` hears which (null while the video is fine).
 * `active` false: the next item's player, loaded and cued but paused, invisible
 * and inert behind the current one (see AnnotatePage); `mediaRef` is left to the active player.
 * When it becomes active the same element plays from its cue: no new load, seek or decoder start
 * between the key and the first frame.
 */
export function VideoPlayer({
  src,
  cueSeconds,
  cueKey,
  mediaRef,
  title,
  autoPlay = true,
  allowed = true,
  times,
  active = true,
  onProblem,
}: {
  src: string | null;
  cueSeconds: number;
  cueKey: string;
  mediaRef: RefObject<TMediaElement | null>;
  title: string;
  autoPlay?: boolean;
  allowed?: boolean;
  times?: { startSeconds: number; endSeconds: number };
  active?: boolean;
  onProblem?: (problem: TMediaProblem | null) => void;
}) {
  const cuedFor = useRef<string | null>(null);
  const nodeRef = useRef<HTMLVideoElement | null>(null);
  const [failed, setFailed] = useState<{ src: string; problem: TMediaProblem } | null>(null);
  const cue = useCallback(
    (m: TMediaElement | null) => {
      if (!m || m.readyState < 1 || cuedFor.current === cueKey) return;
      cuedFor.current = cueKey;
      m.currentTime = cueSeconds;
      if (autoPlay && active) void m.play()?.catch(() => undefined);
    },
    [cueKey, cueSeconds, autoPlay, active],
  );
  const setRef = useCallback(
    (node: HTMLVideoElement | null) => {
      if (node) nodeRef.current = node;
      if (active) mediaRef.current = node;
      nameFrame(node, title);
      cue(node);
    },
    [mediaRef, cue, title, active],
  );
  // A new item on the same video: no new metadata event, so cue here.
  useEffect(() => cue(nodeRef.current), [cue]);
  // The preloaded player comes to the front: it is the page's player now, and plays from its cue.
  const wasActive = useRef(active);
  useEffect(() => {
    const node = nodeRef.current;
    if (active && !wasActive.current && node) {
      mediaRef.current = node;
      if (autoPlay && cuedFor.current === cueKey && node.paused) void node.play()?.catch(() => undefined);
    }
    // Sent to the back (its slot now loads the item after): it stops.
    if (!active && wasActive.current && node && !node.paused) node.pause();
    wasActive.current = active;
  }, [active, autoPlay, cueKey, mediaRef]);
  const onError = useCallback(() => {
    if (!src) return;
    void diagnoseMedia(src).then((problem) => setFailed({ src, problem }));
  }, [src]);
  const problem: TMediaProblem | null =
    src === null ? "none" : !allowed ? "not_allowed" : failed?.src === src ? failed.problem : null;
  useEffect(() => {
    if (active) onProblem?.(problem);
  }, [active, problem, onProblem]);
  // The player itself only on the client: the annotator's first item comes in the server's HTML
  //, and a media element rendered there would load its media (a YouTube embed:
  // a second iframe) before hydration replaced it.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  if (problem) return active ? <MediaNotice problem={problem} title={title} times={times} /> : null;
  if (!hydrated)
    return (
      <div
        className="aspect-video w-full overflow-hidden rounded-md bg-black"
        aria-label={`Video: ${title}`}
        role="img"
      />
    );
  return (
    <div
      className="aspect-video w-full overflow-hidden rounded-md bg-black"
      data-testid={active ? "player" : "player-next"}
      data-cue={cueSeconds}
    >
      <ReactPlayer
        ref={setRef}
        src={src ?? undefined}
        controls={active}
        preload="auto"
        playsInline
        muted={!active}
        width="100%"
        height="100%"
        aria-label={`Video: ${title}`}
        onLoadedMetadata={(e) => {
          nameFrame(e.currentTarget, title);
          cue(e.currentTarget);
        }}
        onError={onError}
      />
    </div>
  );
}

/** A YouTube video plays in an iframe inside <youtube-video>'s shadow root that has no name of its own (axe frame-title): it gets the video's. */
function nameFrame(node: Element | null, title: string) {
  node?.shadowRoot?.querySelector("iframe")?.setAttribute("title", `Video: ${title}`);
}

/** A hidden, muted element that loads the next item's video at its cue, so it starts without waiting. */
export function PreloadVideo({ src, cueSeconds }: { src: string | null; cueSeconds: number }) {
  if (!src || !src.startsWith("/")) return null;
  return (
    <video aria-hidden="true" tabIndex={-1} className="hidden" muted preload="auto" src={`${src}#t=${cueSeconds}`} />
  );
}
