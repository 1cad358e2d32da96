"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import type { TAnnotatorItem } from "@/lib/annotate/view";
import type { TAnnotatorQueueItem } from "@/lib/annotate/queue";
import {
  annotateKeys,
  markDone,
  prefetchItem,
  refetchItem,
  setDone,
  useAnnotatorItem,
  useAnnotatorProjects,
  useOutbox,
  useQueuePages,
} from "@/lib/query/annotate";
import { ApiError, apiFetch } from "@/lib/query/fetcher";
import type { TOutboxResult } from "@/lib/offline/outbox";
import { newIdempotencyKey } from "@/lib/offline/key";
import { VideoPlayer, usePlayer } from "@/components/player/VideoPlayer";
import type { TMediaProblem } from "@/components/player/MediaNotice";
import { PlayerKeysFooter, SubmitRow } from "@/components/grading/GradingControls";
import { useStoredFlag } from "./useStoredFlag";
import { annotatorKeys, FlagBoxes, GradeBar, NO_PLAYHEAD, PlayheadClock, StartControl, Transcript } from "./parts";
import { EndControl, endNotAfter, NO_PLAYHEAD_END } from "./EndControl";
import { GuidelinesPanel } from "./Guidelines";
import { FailedGrades } from "./FailedGrades";
import { SignInAgain } from "./SignInAgain";
import { useGradingKeys } from "./useGradingKeys";
import { AnnotateHeader, OutboxStatus } from "./AnnotateHeader";
import { ClosedItem, CLOSED_MESSAGE, RevisitNote } from "./RevisitNotes";
import { EndOfQueue } from "./EndOfQueue";

/** `end`: where the answer ends (the `e` key), null when not marked. */
type TForm = { grade: number | null; start: number; end: number | null; notes: string; flags: string[] };

const sameForm = (a: TForm, b: TForm) =>
  a.grade === b.grade &&
  a.start === b.start &&
  a.end === b.end &&
  a.notes === b.notes &&
  a.flags.length === b.flags.length &&
  a.flags.every((f) => b.flags.includes(f));

function initialForm(item: TAnnotatorItem): TForm {
  const own = item.own;
  return own
    ? {
        grade: own.grade,
        start: own.startSeconds ?? item.chunk.startSeconds,
        end: own.endSeconds,
        notes: own.notes,
        flags: own.flags,
      }
    : { grade: null, start: item.chunk.startSeconds, end: null, notes: "", flags: [] };
}

/** A video the page's <video> element plays (a file or a URL), so the next item's can be loaded in place; not YouTube (an iframe player per item). */
const preloadable = (v: TAnnotatorItem["video"]) =>
  v.src !== null && v.allowed && (v.kind === "file" || v.kind === "url");
const signedOutError = (e: unknown) => e instanceof ApiError && e.status === 401;

/** The item `step` places from `id` in the held pages, once they are loaded. */
function neighbour(items: readonly TAnnotatorQueueItem[] | undefined, id: string, step: 1 | -1): string | null {
  const i = items ? items.findIndex((it) => it.id === id) : -1;
  return i >= 0 ? (items?.[i + step]?.id ?? null) : null;
}

const AUTO_ADVANCE_KEY = "assessor.autoAdvance";
const PREFETCH_AHEAD = 5;
/** How long the first item is on screen before the background reads start. */
const SETTLE_MS = 300;
const noSubscription = () => () => {};

/**
 * /annotate: the annotator's queue in one project, one item at a time, keyboard first (keys:
 * useGradingKeys). The queue comes a page at a time (useQueuePages): the current item, the next few
 * and the pages around them; positions and counts are the server's. `projectBar`: the project's
 * name and picker (components/annotate/AnnotateProjects.tsx).
 *
 * Nothing silent: a refused grade is listed with its item (FailedGrades) and the
 * item shows what the server holds (refetched); an ended session (401 from a grade, the queue or an
 * item) is said at once with a sign-in form in place (SignInAgain), the outbox is kept and sent
 * after signing in, then the page goes to the first item not graded; the playhead's time is shown
 * beside the start control; each new item's top is scrolled into view; the guidelines are a panel
 * beside the item (below it on narrow screens). The next item's video is loaded and cued in a
 * second, invisible player that comes to the front when the item does.
 */
export function AnnotatePage({
  userId,
  email = "",
  projectId,
  projectBar,
}: {
  userId: string;
  email?: string;
  projectId: number | null;
  projectBar?: (project: { id: number; name: string }) => ReactNode;
}) {
  const qc = useQueryClient();
  const queue = useQueuePages(projectId);

  const pages = queue.data?.pages;
  const flat = useMemo(() => pages?.flatMap((p) => p.items) ?? [], [pages]);
  const questions = useMemo(
    () => new Map(pages?.flatMap((p) => p.questions.map((q) => [q.index, q] as const)) ?? []),
    [pages],
  );
  const [currentId, setCurrentId] = useState<string | null>(null);
  const [atEnd, setAtEnd] = useState(false);
  const [forms, setForms] = useState<Record<string, TForm>>({});
  // What this page last sent per item: a form equal to it (or to the server's own grade) is not sent again.
  const [saved, setSaved] = useState<Record<string, TForm>>({});
  const [help, setHelp] = useState(false);
  const [guide, setGuide] = useState(false);
  const notesRef = useRef<HTMLTextAreaElement>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [startNotice, setStartNotice] = useState<string | null>(null);
  const [endNotice, setEndNotice] = useState<string | null>(null);
  // On until the annotator turns it off: one key per judgement; the choice stays.
  const [autoAdvance, setAutoAdvance] = useStoredFlag(AUTO_ADVANCE_KEY, true);
  const shownAt = useRef(0);

  // Start at the first item not yet done; when all are done, the end card (never a
  // graded item that Enter would send again). Grades still in the outbox count as done (the
  // server's page may not know them yet).
  const onResultRef = useRef<(r: TOutboxResult) => void>(() => undefined);
  const outbox = useOutbox(
    userId,
    useCallback((r: TOutboxResult) => onResultRef.current(r), []),
  );
  const pendingIds = useMemo(() => new Set(outbox.pending.map((e) => e.itemId)), [outbox.pending]);
  const firstId = useMemo(
    () => flat.find((f) => !f.done && !pendingIds.has(f.id) && !(f.id in saved))?.id ?? null,
    [flat, pendingIds, saved],
  );
  const activeId = atEnd ? null : (currentId ?? firstId);
  const pos = flat.findIndex((f) => f.id === activeId);
  const nextId = pos >= 0 && pos + 1 < flat.length ? flat[pos + 1].id : null;
  const item = useAnnotatorItem(activeId);
  // The first item comes with the server's HTML; `data-ready` says the keys work (the page is hydrated).
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  // Reads in the background (the next items, the project counts) start once the first item has
  // been on screen a moment: started at once, a reload left them running on the server in front of
  // the next page's first item.
  const shown = Boolean(item.data && item.data.id === activeId);
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    if (!shown || settled) return;
    const t = setTimeout(() => setSettled(true), SETTLE_MS);
    return () => clearTimeout(t);
  }, [shown, settled]);
  const next = useQuery({
    queryKey: annotateKeys.item(nextId ?? ""),
    queryFn: () => apiFetch<TAnnotatorItem>(`/api/annotate/items/${encodeURIComponent(nextId ?? "")}`),
    enabled: nextId !== null && settled,
    staleTime: Infinity,
  });

  // The next few items are loaded ahead (their data stays cached), so moving on needs no network
  // and a short loss of connection does not stop the work.
  useEffect(() => {
    shownAt.current = performance.now();
    if (pos < 0 || !settled) return;
    for (const f of flat.slice(pos + 2, pos + 1 + PREFETCH_AHEAD)) void prefetchItem(qc, f.id);
  }, [activeId, pos, flat, qc, settled]);
  // The next page is asked for while a few items of this one are left.
  const { hasNextPage, hasPreviousPage, isFetchingNextPage, fetchNextPage, fetchPreviousPage } = queue;
  useEffect(() => {
    if (pos >= 0 && flat.length - pos <= PREFETCH_AHEAD + 1 && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [pos, flat.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const placeOf = useCallback(
    (id: string) => {
      const f = flat.find((x) => x.id === id);
      return f ? { question: f.question, item: f.index, text: questions.get(f.question)?.text ?? "" } : null;
    },
    [flat, questions],
  );

  const data = item.data && item.data.id === activeId ? item.data : undefined;
  // Project counts (picker, meters) once the first item is on screen: they never delay it.
  // On the end card (the queue read, nothing to show).
  const ended = queue.data !== undefined && activeId === null;
  const counts = useAnnotatorProjects(settled || ended).data?.projects.find(
    (p) => p.id === queue.data?.pages[0]?.project?.id,
  );
  // At the end card with every grade delivered, the counts are read again: counted locally, a count
  // read from the server while grades were on their way could leave "1 not graded yet" when all are.
  const pendingCount = outbox.pending.length;
  useEffect(() => {
    if (ended && pendingCount === 0) void qc.invalidateQueries({ queryKey: annotateKeys.projects() });
  }, [ended, pendingCount, qc]);
  const form: TForm | undefined = activeId && data ? (forms[activeId] ?? initialForm(data)) : undefined;
  const setForm = (patch: Partial<TForm>) => {
    if (!activeId || !form) return;
    if (closedAt !== null) return setMessage(CLOSED_MESSAGE);
    setForms((f) => ({ ...f, [activeId]: { ...form, ...patch } }));
  };
  const { mediaRef, controls } = usePlayer(data?.chunk.startSeconds ?? 0);
  const [mediaProblem, setMediaProblem] = useState<TMediaProblem | null>(null);
  const [slots, setSlots] = useState<{ active: 0 | 1; ids: [string | null, string | null] }>({
    active: 0,
    ids: [null, null],
  });
  const shownProjectId = queue.data?.pages[0]?.project?.id ?? null;
  // Grading closed by the lead (lib/projects/grading.ts): every item read-only, keys move only.
  const closedAt = data?.gradingClosedAt ?? queue.data?.pages[0]?.project?.gradingClosedAt ?? null;

  // A refused grade: the local form is dropped and the item read again, so it shows what the server
  // holds (its own earlier grade, or none: then it counts as not done again).
  useEffect(() => {
    onResultRef.current = (r) => {
      if (r.ok) return;
      const id = r.entry.itemId;
      const without = (all: Record<string, TForm>) => {
        const rest = { ...all };
        delete rest[id];
        return rest;
      };
      setForms(without);
      setSaved(without);
      void refetchItem(qc, id)
        .then((fresh) => {
          if (!fresh.own && shownProjectId !== null) setDone(qc, projectId ?? 0, shownProjectId, id, false);
        })
        .catch(() => undefined);
    };
  }, [qc, projectId, shownProjectId]);

  // Signed out: a grade answered 401, or the queue or an item could not be read for that reason.
  const signedOut = outbox.signedOut || signedOutError(queue.error) || signedOutError(item.error);
  const { flushNow } = outbox;
  // The queue from the server again, from where the annotator left off (the grades just sent included).
  const restart = useCallback(async () => {
    await flushNow();
    setCurrentId(null);
    setAtEnd(false);
    await qc.resetQueries({ queryKey: annotateKeys.queue(projectId ?? 0) });
    await qc.refetchQueries({ queryKey: annotateKeys.all, type: "active" });
  }, [flushNow, qc, projectId]);
  const afterSignIn = useCallback(async () => {
    // Another person signed in here: their page, not this one (the outbox belongs to this user).
    const session = (await (await fetch("/api/auth/session", { credentials: "same-origin" })).json()) as {
      user?: { id?: string };
    } | null;
    if (session?.user?.id !== userId) {
      window.location.reload();
      return;
    }
    await restart();
  }, [userId, restart]);

  // Each new item starts with its top (the project and the question) on screen, at any zoom.
  const articleRef = useRef<HTMLElement>(null);
  const shownItem = data?.id ?? null;
  useEffect(() => {
    const el = articleRef.current;
    if (!shownItem || !el) return;
    const question = el.querySelector("[data-testid=question]") ?? el;
    const top = el.getBoundingClientRect().top;
    if (top < 0 || question.getBoundingClientRect().bottom > window.innerHeight) el.scrollIntoView({ block: "start" });
  }, [shownItem]);

  const goTo = (id: string | null) => {
    setMessage(null);
    setStartNotice(null);
    setEndNotice(null);
    if (id === null) setAtEnd(true);
    else {
      setAtEnd(false);
      setCurrentId(id);
    }
  };

  /** The next item without grading (a closed project), from the next page when needed. */
  const forward = () => {
    if (!activeId) return;
    if (nextId !== null || !hasNextPage) goTo(nextId);
    else
      void fetchNextPage().then((r) =>
        goTo(
          neighbour(
            r.data?.pages.flatMap((p) => p.items),
            activeId,
            1,
          ),
        ),
      );
  };

  /**
   * Going on after a grade: the next item not graded after `from` (in the held
   * pages, then the pages after), else the first one not graded among the held pages before it,
   * else the end card. `from` itself counts as graded (this render does not know it yet).
   */
  const goOn = async (from: string) => {
    // `saved` too: a page of the queue fetched while a grade was marked done can bring the old flag back.
    const open = (it: TAnnotatorQueueItem) => it.id !== from && !it.done && !pendingIds.has(it.id) && !(it.id in saved);
    let items: readonly TAnnotatorQueueItem[] = flat;
    let more = hasNextPage;
    for (;;) {
      const found = items.slice(items.findIndex((it) => it.id === from) + 1).find(open);
      if (found) return goTo(found.id);
      if (!more) break;
      const r = await fetchNextPage();
      if (r.isError) return goTo(neighbour(items, from, 1));
      items = r.data?.pages.flatMap((p) => p.items) ?? items;
      more = r.hasNextPage;
    }
    goTo(items.find(open)?.id ?? null);
  };

  const submit = (override?: Partial<TForm>) => {
    if (!activeId || !form || !data) return;
    if (closedAt !== null) {
      if (override?.grade !== undefined) setMessage(CLOSED_MESSAGE);
      else forward();
      return;
    }
    const f = { ...form, ...override };
    if (f.grade === null) {
      setMessage("Choose a grade first (keys 0–3).");
      return;
    }
    // The server refuses an end that is not after the start (422): said here, nothing sent.
    if (f.end !== null && !(f.end > f.start)) {
      setMessage(`${endNotAfter(f.start)} Shift+E clears the end.`);
      return;
    }
    // A graded item changes only on an edit: unchanged, nothing is sent (its time spent stays) and the page goes on.
    const before = saved[activeId] ?? (data.own ? initialForm(data) : null);
    // A second look the lead asked for (the guidelines changed) counts once submitted, even unchanged.
    const secondLook = data.regrade && saved[activeId] === undefined;
    if (before && sameForm(f, before) && !secondLook) {
      setForms((all) => ({ ...all, [activeId]: f }));
      void goOn(activeId);
      return;
    }
    const body = {
      poolItemId: activeId,
      grade: f.grade,
      startSeconds: f.start,
      endSeconds: f.end,
      notes: f.notes,
      flags: f.flags,
      timeSpentMs: Math.round(performance.now() - shownAt.current),
      idempotencyKey: newIdempotencyKey(),
      // The guidelines revision this item was shown with (g), recorded with the grade.
      guidelineRevision: data.guidelineRevision,
    };
    outbox.submit("/api/annotate/judgements", activeId, body);
    setForms((all) => ({ ...all, [activeId]: f }));
    setSaved((all) => ({ ...all, [activeId]: f }));
    const shownProject = queue.data?.pages[0]?.project;
    if (shownProject) markDone(qc, projectId ?? 0, shownProject.id, activeId);
    void goOn(activeId);
  };

  // `u`: the previous item, from the page before when this is the first item held.
  const back = () => {
    if (activeId === null) goTo(flat[flat.length - 1]?.id ?? null);
    else if (pos > 0) goTo(flat[pos - 1].id);
    else if (pos === 0 && hasPreviousPage && activeId) {
      const from = activeId;
      void fetchPreviousPage().then((r) => {
        const prev = neighbour(
          r.data?.pages.flatMap((p) => p.items),
          from,
          -1,
        );
        if (prev) goTo(prev);
      });
    }
  };

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

  useGradingKeys({
    grade: (g) => {
      if (!form) return;
      if (autoAdvance) submit({ grade: g });
      else setForm({ grade: g });
    },
    setStartToPlayhead: startAtPlayhead,
    setEndToPlayhead: endAtPlayhead,
    clearEnd: () => form && setForm({ end: null }),
    nudgeStart: (d) => form && setForm({ start: Math.max(0, form.start + d) }),
    replay: controls.replay,
    togglePlay: controls.toggle,
    submit: () => submit(),
    back,
    help: () => setHelp((h) => !h),
    escape: () => {
      setHelp(false);
      setGuide(false);
    },
    toggleFlag: (flag) =>
      form &&
      setForm({ flags: form.flags.includes(flag) ? form.flags.filter((f) => f !== flag) : [...form.flags, flag] }),
    focusNotes: () => (closedAt !== null ? setMessage(CLOSED_MESSAGE) : notesRef.current?.focus()),
    guidelines: () => setGuide((g) => !g),
  });

  // Two player slots: the current item's, and the next item's behind it. Moving on
  // to the preloaded item swaps them (the same element comes to the front); any other move reuses
  // the current slot (a new item on the same video seeks in the same player, as before).
  const wantNext = data && next.data && next.data.id !== data.id && preloadable(next.data.video) ? next.data.id : null;
  let slotsNow = slots;
  if (data && slotsNow.ids[slotsNow.active] !== data.id) {
    const k = slotsNow.ids.indexOf(data.id);
    const active = k >= 0 ? (k as 0 | 1) : slotsNow.active;
    slotsNow = { active, ids: active === 0 ? [data.id, slotsNow.ids[1]] : [slotsNow.ids[0], data.id] };
  }
  if (data && slotsNow.ids[1 - slotsNow.active] !== wantNext)
    slotsNow = { ...slotsNow, ids: slotsNow.active === 0 ? [slotsNow.ids[0], wantNext] : [wantNext, slotsNow.ids[1]] };
  if (slotsNow !== slots) setSlots(slotsNow);

  const signIn = signedOut ? <SignInAgain email={email} kept={outbox.pending.length} onSignedIn={afterSignIn} /> : null;
  if (queue.isPending) return <p className="p-6 text-slate-600">Loading your queue…</p>;
  if (queue.isError)
    return (
      <div className="mx-auto max-w-6xl space-y-4 px-4 py-4">
        {signIn ?? (
          <p role="alert" className="p-6 text-red-700">
            Could not load your queue: {queue.error.message}
          </p>
        )}
      </div>
    );
  const project = queue.data.pages[0]?.project;
  if (!project) return <p className="p-6 text-slate-600">Nothing is assigned to you yet.</p>;

  const cur = pos >= 0 ? flat[pos] : undefined;
  const group = cur ? questions.get(cur.question) : undefined;
  const itemIn = (id: string | null) =>
    id === null ? undefined : id === data?.id ? data : id === next.data?.id ? next.data : undefined;
  const preloadInPlace = wantNext !== null;
  // An item graded before (by the server's record, or sent from this page).
  const revisited =
    data?.own?.grade ??
    (activeId !== null ? saved[activeId]?.grade : undefined) ??
    (cur?.done && form ? form.grade : null);

  return (
    <div className={`mx-auto space-y-4 px-4 py-4 ${guide ? "max-w-7xl" : "max-w-6xl"}`}>
      {projectBar?.(project)}
      <div className={guide ? "gap-6 lg:grid lg:grid-cols-[minmax(0,1fr)_22rem]" : undefined}>
        <div className="min-w-0 space-y-4">
          <AnnotateHeader
            position={
              cur
                ? `Question ${cur.question} of ${project.questions} · item ${cur.index} of ${group?.total ?? 0}`
                : `${project.questions} questions`
            }
            question={group}
            overall={counts}
            autoAdvance={autoAdvance}
            onAutoAdvance={setAutoAdvance}
            guide={guide}
            onGuide={() => setGuide((g) => !g)}
            onKeys={() => setHelp((h) => !h)}
          />
          {signIn}
          <OutboxStatus
            pending={outbox.pending.length}
            failed={outbox.failed.length}
            signedOut={signedOut}
            onRetry={outbox.retryNow}
          />
          <FailedGrades failed={outbox.failed} placeOf={placeOf} onOpen={goTo} onDismiss={outbox.dismiss} />

          {atEnd || !activeId ? (
            <EndOfQueue counts={counts} onFirstOpen={() => void restart()} />
          ) : !data || !form ? (
            <p className="text-slate-600" data-testid="item-loading">
              {item.isError ? `Could not load the item: ${item.error.message}` : "Loading item…"}
            </p>
          ) : (
            <article
              ref={articleRef}
              data-item-id={data.id}
              data-ready={hydrated ? "true" : undefined}
              aria-label="Item"
              className="scroll-mt-2 space-y-4"
            >
              <p className="text-xs text-slate-600" data-testid="item-project">
                Project <span className="font-medium text-slate-800">{project.name}</span>
              </p>
              <h1 className="text-lg font-semibold" data-testid="question">
                {data.question}
              </h1>
              <div className="grid gap-4 md:grid-cols-2">
                <div className="space-y-2">
                  <div className="relative">
                    {slotsNow.ids.map((id, slot) => {
                      const p = itemIn(id);
                      if (!p) return null;
                      const active = slot === slotsNow.active;
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
                <Transcript
                  key={data.id}
                  chunk={data.chunk}
                  before={data.before}
                  after={data.after}
                  cues={data.cues}
                  onPickTime={pickTime}
                />
              </div>
              {closedAt !== null ? (
                <ClosedItem closedAt={closedAt} own={data.own} />
              ) : (
                <>
                  {revisited !== null ? <RevisitNote grade={revisited} /> : null}
                  <GradeBar
                    value={form.grade}
                    onChoose={(g) => (autoAdvance ? submit({ grade: g }) : setForm({ grade: g }))}
                  />
                  <div className="flex flex-wrap items-start gap-4">
                    <StartControl
                      value={form.start}
                      chunkStart={data.chunk.startSeconds}
                      onChange={(s) => setForm({ start: s })}
                      onPlayhead={startAtPlayhead}
                      notice={startNotice}
                      playhead={
                        <PlayheadClock
                          read={controls.playhead}
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
                    <textarea
                      ref={notesRef}
                      aria-label="Notes"
                      rows={2}
                      placeholder="Notes (n to write, Esc to leave)"
                      value={form.notes}
                      onChange={(e) => setForm({ notes: e.target.value })}
                      className="w-full rounded border border-slate-300 p-2"
                    />
                  </label>
                </>
              )}
              <SubmitRow
                submitLabel={closedAt !== null ? "next item" : "Submit and next"}
                submitText={closedAt !== null ? "next item" : "submit and next"}
                onSubmit={() => submit()}
                backDisabled={pos < 0 || (pos === 0 && !hasPreviousPage)}
                onBack={back}
                message={message}
              />
            </article>
          )}
        </div>
        <GuidelinesPanel
          open={guide}
          placement="side"
          guidelines={data?.guidelines ?? next.data?.guidelines ?? ""}
          onClose={() => setGuide(false)}
        />
      </div>
      <PlayerKeysFooter
        next={preloadInPlace ? undefined : next.data}
        help={help}
        onCloseHelp={() => setHelp(false)}
        keys={annotatorKeys(autoAdvance)}
      />
    </div>
  );
}
