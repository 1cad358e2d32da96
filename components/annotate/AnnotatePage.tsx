"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import {
  annotateKeys,
  markDone,
  useAnnotatorItem,
  useAnnotatorProjects,
  useOutbox,
  useQueuePages,
} from "@/lib/query/annotate";
import type { TOutboxResult } from "@/lib/offline/outbox";
import { newIdempotencyKey } from "@/lib/offline/key";
import { usePlayer } from "@/components/player/VideoPlayer";
import type { TMediaProblem } from "@/components/player/MediaNotice";
import { PlayerKeysFooter, SubmitRow } from "@/components/grading/GradingControls";
import { useStoredFlag } from "./useStoredFlag";
import { annotatorKeys, Transcript } from "./parts";
import { endNotAfter } from "./EndControl";
import { GuidelinesPanel } from "./Guidelines";
import { FailedGrades } from "./FailedGrades";
import { SignInAgain } from "./SignInAgain";
import { useGradingKeys } from "./useGradingKeys";
import { AnnotateHeader, OutboxStatus } from "./AnnotateHeader";
import { CLOSED_MESSAGE } from "./RevisitNotes";
import { EndOfQueue } from "./EndOfQueue";
import { initialForm, sameForm, signedOutError, type TForm } from "./annotateHelpers";
import { useReadAhead } from "./useReadAhead";
import { useRefusedGrades } from "./useRefusedGrades";
import { useSignInRestart } from "./useSignInRestart";
import { useItemScroll } from "./useItemScroll";
import { useQueueMoves } from "./useQueueMoves";
import { usePlayerSlots } from "./usePlayerSlots";
import { usePlayheadMarks } from "./usePlayheadMarks";
import { useHydrated } from "./useHydrated";
import { ItemPlayers } from "./ItemPlayers";
import { ItemGrading } from "./ItemGrading";

const AUTO_ADVANCE_KEY = "assessor.autoAdvance";

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
  const hydrated = useHydrated();
  const shown = Boolean(item.data && item.data.id === activeId);
  const place = { flat, pos, activeId, nextId };
  const notices = { setMessage, setStartNotice, setEndNotice };
  const { settled, next } = useReadAhead({ qc, shown, place, shownAtRef: shownAt, pages: queue });

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
  const shownProjectId = queue.data?.pages[0]?.project?.id ?? null;
  // Grading closed by the lead (lib/projects/grading.ts): every item read-only, keys move only.
  const closedAt = data?.gradingClosedAt ?? queue.data?.pages[0]?.project?.gradingClosedAt ?? null;

  useRefusedGrades({ onResultRef, qc, projectId, shownProjectId, setForms, setSaved });

  // Signed out: a grade answered 401, or the queue or an item could not be read for that reason.
  const signedOut = outbox.signedOut || signedOutError(queue.error) || signedOutError(item.error);
  const { flushNow } = outbox;
  const { restart, afterSignIn } = useSignInRestart({ userId, projectId, qc, flushNow, setCurrentId, setAtEnd });
  const articleRef = useItemScroll(data?.id ?? null);
  const moves = { place, pages: queue, pendingIds, saved, notices, setAtEnd, setCurrentId };
  const { goTo, forward, goOn, back } = useQueueMoves(moves);

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

  const { startAtPlayhead, endAtPlayhead, pickTime } = usePlayheadMarks({ form, closedAt, controls, setForm, notices });

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

  const { slots: slotsNow, wantNext } = usePlayerSlots(data, next.data);

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
                <ItemPlayers
                  slots={slotsNow}
                  itemIn={itemIn}
                  mediaRef={mediaRef}
                  controls={controls}
                  setMediaProblem={setMediaProblem}
                />
                <Transcript
                  key={data.id}
                  chunk={data.chunk}
                  before={data.before}
                  after={data.after}
                  cues={data.cues}
                  onPickTime={pickTime}
                />
              </div>
              <ItemGrading
                closedAt={closedAt}
                data={data}
                form={form}
                revisited={revisited}
                onGrade={(g) => (autoAdvance ? submit({ grade: g }) : setForm({ grade: g }))}
                setForm={setForm}
                startAtPlayhead={startAtPlayhead}
                startNotice={startNotice}
                endAtPlayhead={endAtPlayhead}
                endNotice={endNotice}
                readPlayhead={controls.playhead}
                mediaProblem={mediaProblem}
                notesRef={notesRef}
              />
              <SubmitRow
                submitLabel={closedAt !== null ? "next item" : "Submit and next"}
                submitText={closedAt !== null ? "next item" : "submit and next"}
                onSubmit={() => submit()}
                backDisabled={pos < 0 || (pos === 0 && !queue.hasPreviousPage)}
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
