"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import Link from "next/link";
import type { TAnnotatorAnswer } from "@/lib/answers/view";
import type { TClaimLabel } from "@/lib/answers/labels";
import { newIdempotencyKey } from "@/lib/offline/key";
import { useOutbox } from "@/lib/query/annotate";
import {
  answerKeys,
  markAnswerDone,
  prefetchAnswer,
  useAnswer,
  useAnswerQueue,
  useEditClaims,
  type TAnswerJudgementBody,
} from "@/lib/query/answers";
import { usePlayer } from "@/components/player/VideoPlayer";
import { KeysButton, SubmitRow } from "@/components/grading/GradingControls";
import { KeyHelp } from "@/components/annotate/parts";
import { GuidelinesPanel } from "@/components/annotate/Guidelines";
import {
  afterMerge,
  afterSplit,
  ANSWER_KEYS,
  defaultSplitAt,
  firstUnlabelled,
  initialAnswerForm,
  RELEVANCE,
  type TAnswerForm,
} from "./form";
import { useAnswerKeys } from "./useAnswerKeys";
import { ClaimList, ConfirmMerge, RelevanceBar, SplitDialog } from "./AnswerClaims";
import { AnswerContext } from "./AnswerContext";
import { AnswersEnd, FailedLabels, OutboxStatus } from "./AnswerQueueNotes";
import { ReadState } from "@/components/grading/QueueStates";

const LOCKED = "You labelled this answer: e (Edit) to change it, Enter for the next unfinished answer.";
const CLOSED_ANSWERS = "Grading is closed in this project: answers are read-only (u: back to the previous answer).";

const PREFETCH_AHEAD = 3;
const JUDGEMENTS_URL = "/api/annotate/answers/judgements";

/**
 * /annotate/answers: the answer task, one answer at a time, keyboard first (ANSWER_KEYS):
 * each claim labelled s / p / n / x against the context chunks, then the answer's relevance 0–3,
 * which submits (through the annotator's outbox, offline-safe) and goes on. Blind: the answer comes
 * from lib/answers/view.ts (no system, no other labels).
 */
export function AnswerTask({ userId, projectId }: { userId: string; projectId: number | null }) {
  const qc = useQueryClient();
  const queue = useAnswerQueue(projectId);
  const flat = useMemo(() => queue.data?.pages.flatMap((p) => p.items) ?? [], [queue.data]);
  const [currentId, setCurrentId] = useState<string | null>(null);
  const [atEnd, setAtEnd] = useState(false);
  const [forms, setForms] = useState<Record<string, TAnswerForm>>({});
  const [help, setHelp] = useState(false);
  const [guide, setGuide] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [chunk, setChunk] = useState<{ answer: string; index: number; play: boolean } | null>(null);
  const [split, setSplit] = useState<{ claim: number; at: number } | null>(null);
  // A merge waiting for Enter (Esc cancels).
  const [confirmMerge, setConfirmMerge] = useState<number | null>(null);
  // Answers the annotator unlocked with e (Edit): a finished answer changes only then.
  const [unlocked, setUnlocked] = useState<Record<string, boolean>>({});
  const splitRef = useRef<HTMLInputElement>(null);
  const shownAt = useRef(0);
  const outbox = useOutbox(userId);
  // The outbox is the annotator's one queue (chunk grades too): this page lists its answer labels that were refused.
  const failedLabels = outbox.failed.filter((f) => f.entry.url === JUDGEMENTS_URL);
  const editClaims = useEditClaims();

  // Opening the page: the first unfinished answer; none loaded and more pages: fetched below; none at all: the end ("all labelled").
  const firstId = useMemo(() => flat.find((f) => !f.done)?.id ?? null, [flat]);
  const activeId = atEnd ? null : (currentId ?? firstId);
  const pos = flat.findIndex((f) => f.id === activeId);
  const item = useAnswer(activeId);
  const data: TAnnotatorAnswer | undefined = item.data && item.data.id === activeId ? item.data : undefined;
  const form: TAnswerForm | undefined = data ? (forms[data.id] ?? initialAnswerForm(data)) : undefined;
  // A label sent back for a second look (the guidelines changed) is open without e, until submitted.
  const locked = !!data?.own && !unlocked[data.id] && !data.regrade;
  const chunkIndex = data && chunk?.answer === data.id ? chunk.index : 0;
  const ctx = data?.context[chunkIndex];
  const { mediaRef, controls } = usePlayer(ctx?.startSeconds ?? 0);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = queue;

  useEffect(() => {
    shownAt.current = performance.now();
    if (pos < 0) return;
    for (const f of flat.slice(pos + 1, pos + 1 + PREFETCH_AHEAD)) void prefetchAnswer(qc, f.id);
    if (flat.length - pos <= PREFETCH_AHEAD + 1 && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [activeId, pos, flat, qc, hasNextPage, isFetchingNextPage, fetchNextPage]);
  useEffect(() => {
    if (split) splitRef.current?.setSelectionRange(split.at, split.at);
  }, [split]);
  useEffect(() => {
    if (currentId === null && !atEnd && firstId === null && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [currentId, atEnd, firstId, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const setForm = (f: TAnswerForm) => data && setForms((all) => ({ ...all, [data.id]: f }));
  const goTo = (id: string | null) => {
    setMessage(null);
    setSplit(null);
    setConfirmMerge(null);
    if (id === null) setAtEnd(true);
    else {
      setAtEnd(false);
      setCurrentId(id);
    }
  };
  const back = () => {
    if (atEnd) goTo(flat[flat.length - 1]?.id ?? null);
    else if (pos > 0) goTo(flat[pos - 1].id);
  };

  /** On to the next unfinished answer after this one (then before it), fetching pages as needed; none: the end. */
  const goOn = (from: string) => {
    const open = (items: typeof flat) => {
      const at = items.findIndex((it) => it.id === from);
      return (
        [...items.slice(at + 1), ...items.slice(0, Math.max(0, at))].find((it) => !it.done && it.id !== from)?.id ??
        null
      );
    };
    const found = open(flat);
    if (found !== null || !hasNextPage) return goTo(found);
    void fetchNextPage().then((r) => goTo(open(r.data?.pages.flatMap((p) => p.items) ?? [])));
  };

  const submit = (f: TAnswerForm | undefined = form) => {
    if (!data || !f) return;
    if (data.gradingClosedAt) return setMessage(CLOSED_ANSWERS);
    // A finished answer is only looked at until e unlocks it: going on neither re-sends nor rewrites its time.
    if (locked) return goOn(data.id);
    const missing = firstUnlabelled(f);
    if (missing >= 0) {
      setForm({ ...f, cursor: missing });
      return setMessage(`Label every claim first: claim ${missing + 1} has no label (s, p, n or x).`);
    }
    if (f.relevance === null) {
      setForm({ ...f, cursor: f.labels.length });
      return setMessage("Choose the answer's relevance (0–3).");
    }
    const own = data.own;
    const unchanged =
      own &&
      own.claimVersion === f.claimVersion &&
      own.relevance === f.relevance &&
      own.notes === f.notes &&
      own.claimLabels.join() === f.labels.join();
    // A second look counts once submitted, even unchanged (the label then records the current revision).
    if (unchanged && !data.regrade) {
      setUnlocked((u) => ({ ...u, [data.id]: false }));
      return goOn(data.id);
    }
    const body: TAnswerJudgementBody = {
      answerId: data.id,
      claimVersion: f.claimVersion,
      claimLabels: f.labels.filter((l): l is TClaimLabel => l !== null),
      relevance: f.relevance,
      notes: f.notes,
      flags: [],
      timeSpentMs: Math.round(performance.now() - shownAt.current),
      // The guidelines revision this page shows (g), recorded with the label.
      guidelineRevision: data.guidelineRevision,
      idempotencyKey: newIdempotencyKey(),
    };
    outbox.submit(JUDGEMENTS_URL, data.id, body);
    setForms((all) => ({ ...all, [data.id]: f }));
    // The cached answer keeps the own label, so going back shows it.
    qc.setQueryData<TAnnotatorAnswer>(
      answerKeys.item(data.id),
      (d) =>
        d && {
          ...d,
          regrade: false,
          own: {
            claimVersion: body.claimVersion,
            claimLabels: body.claimLabels,
            relevance: body.relevance,
            notes: body.notes,
            flags: [],
          },
        },
    );
    markAnswerDone(qc, projectId ?? 0, data.id);
    setUnlocked((u) => ({ ...u, [data.id]: false }));
    goOn(data.id);
  };
  const unlock = () => {
    if (!data || !data.own || data.gradingClosedAt) return;
    setUnlocked((u) => ({ ...u, [data.id]: true }));
    setMessage(null);
  };

  const play = (index: number) => {
    if (!data || index < 0 || index >= data.context.length) return;
    setChunk({ answer: data.id, index, play: true });
    if (index === chunkIndex) controls.replay();
  };

  /** m (then Enter) / the split dialog: a claim set of the annotator's own from the server (online only; no one else's claims change). */
  const edit = (
    op: { kind: "merge"; positions: [number, number] } | { kind: "split"; position: number; at: number },
  ) => {
    if (!data || !form || editClaims.isPending) return;
    if (data.gradingClosedAt) return setMessage(CLOSED_ANSWERS);
    setMessage(null);
    setConfirmMerge(null);
    editClaims.mutate(
      { answerId: data.id, body: { op, version: form.claimVersion, idempotencyKey: newIdempotencyKey() } },
      {
        onSuccess: (r) => {
          qc.setQueryData<TAnnotatorAnswer>(
            answerKeys.item(data.id),
            (d) => d && { ...d, claimVersion: r.version, claims: r.claims },
          );
          setForm(
            op.kind === "merge"
              ? afterMerge(form, op.positions[0], r.version)
              : afterSplit(form, op.position, r.version),
          );
          setSplit(null);
          setMessage(
            op.kind === "merge"
              ? `Claims ${op.positions[0] + 1} and ${op.positions[1] + 1} are one claim now: label it.`
              : `Claim ${op.position + 1} is two claims now: label them.`,
          );
        },
        onError: (e) => setMessage(`The claims were not changed: ${e.message}`),
      },
    );
  };
  const merge = () => {
    if (locked) return setMessage(LOCKED);
    if (!form || form.cursor + 1 >= form.labels.length)
      return setMessage("m merges a claim with the next one: move to a claim that has one after it.");
    setConfirmMerge(form.cursor);
  };
  const openSplit = () => {
    if (locked) return setMessage(LOCKED);
    if (!data || !form || form.cursor >= data.claims.length) return;
    const text = data.claims[form.cursor].text;
    setSplit({ claim: form.cursor, at: defaultSplitAt(text) });
    setTimeout(() => splitRef.current?.focus(), 0);
  };

  /** Enter: a merge waiting for confirmation, else submit (or go on). */
  const enter = () => {
    if (confirmMerge !== null) return edit({ kind: "merge", positions: [confirmMerge, confirmMerge + 1] });
    submit();
  };
  /** A change of the form (labels, relevance): refused with a word while the answer is finished and locked. */
  const change = (f: TAnswerForm) => (locked ? setMessage(LOCKED) : setForm(f));

  useAnswerKeys(
    { form, data, submit, enter, play, merge, openSplit, back, setForm, change, unlock, locked, controls },
    { setHelp, setGuide, setSplit, setConfirmMerge },
  );

  if (queue.isPending || queue.isError)
    return <ReadState query={queue} loading="Loading your answers…" failed="Could not load your answers" padded />;
  const project = queue.data.pages[0]?.project;
  if (!project) return <p className="p-6 text-slate-600">No answers are assigned to you yet.</p>;
  const page = queue.data.pages[queue.data.pages.length - 1];

  return (
    <div className="mx-auto max-w-6xl space-y-4 px-4 py-4">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3 text-sm">
          <span className="font-semibold">{project.name}: answers</span>
          <Link href={`/annotate?project=${project.id}`} className="underline">
            Chunks
          </Link>
        </div>
        <p className="text-sm text-slate-600" data-testid="answer-position">
          {data ? `Answer ${data.position.index} of ${data.position.total}` : `${page.total} answers`} · {page.done}{" "}
          labelled
        </p>
        <KeysButton onClick={() => setHelp((h) => !h)} />
      </header>
      <OutboxStatus pending={outbox.pending.length} onRetry={outbox.retryNow} />
      <FailedLabels failed={failedLabels} flat={flat} onOpen={goTo} onDismiss={outbox.dismiss} />

      {atEnd || !activeId ? (
        <AnswersEnd done={page.done} total={page.total} />
      ) : !data || !form ? (
        <p className="text-slate-600" data-testid="answer-loading">
          {item.isError ? `Could not load the answer: ${item.error.message}` : "Loading answer…"}
        </p>
      ) : (
        <article data-answer-id={data.id} data-ready="true" aria-label="Answer" className="grid gap-4 md:grid-cols-2">
          <div className="space-y-3">
            <h1 className="text-lg font-semibold" data-testid="answer-question">
              {data.question}
            </h1>
            {data.gradingClosedAt ? (
              <p data-testid="closed-item" className="rounded-md border border-slate-300 bg-slate-50 p-2 text-sm">
                Grading in this project was closed by the lead on {new Date(data.gradingClosedAt).toLocaleString()}:
                this answer is read-only{data.own ? " (your labels are shown)" : ""}.
              </p>
            ) : null}
            {data.own && !data.gradingClosedAt ? (
              <p
                data-testid="finished-note"
                className="flex flex-wrap items-center gap-2 rounded-md border border-emerald-300 bg-emerald-50 p-2 text-sm"
              >
                {data.regrade
                  ? "The guidelines changed since you labelled this answer: look at it again and submit it, changed or not."
                  : locked
                    ? "You labelled this answer. It changes only if you edit it; Enter goes on to the next unfinished answer."
                    : "Editing your label: the saved one stays until you submit a change."}
                {locked ? (
                  <button
                    type="button"
                    className="rounded border border-emerald-700 px-2 py-0.5"
                    aria-label="e: edit this answer's label"
                    onClick={unlock}
                  >
                    e ▸ Edit
                  </button>
                ) : null}
              </p>
            ) : null}
            <details className="text-sm text-slate-700">
              <summary>The whole answer</summary>
              <p className="mt-1 whitespace-pre-wrap">{data.answer}</p>
            </details>
            <ClaimList claims={data.claims} form={form} setForm={setForm} />
            {confirmMerge !== null ? <ConfirmMerge at={confirmMerge} /> : null}
            {split ? (
              <SplitDialog
                text={data.claims[split.claim]?.text ?? ""}
                at={split.at}
                inputRef={splitRef}
                onSplit={(at) => edit({ kind: "split", position: split.claim, at })}
              />
            ) : null}
            <RelevanceBar
              form={form}
              onChoose={(grade) => (locked ? setMessage(LOCKED) : submit({ ...form, relevance: grade }))}
            />
            <label className="block text-sm">
              <span className="sr-only">Notes</span>
              <textarea
                aria-label="Notes"
                rows={2}
                placeholder="Notes (Esc to leave)"
                value={form.notes}
                readOnly={locked}
                onChange={(e) => setForm({ ...form, notes: e.target.value })}
                className="w-full rounded border border-slate-300 p-2"
              />
            </label>
            <SubmitRow
              submitLabel={locked ? "next unfinished answer" : "submit and next"}
              submitText={locked ? "next unfinished" : "submit and next"}
              onSubmit={() => submit()}
              backDisabled={pos <= 0}
              onBack={back}
              backLabel="u back to the previous answer"
              message={message}
            />
          </div>
          <AnswerContext
            answerId={data.id}
            context={data.context}
            chunkIndex={chunkIndex}
            autoPlay={chunk?.answer === data.id && chunk.play}
            mediaRef={mediaRef}
            onPlay={play}
          />
        </article>
      )}
      {data && (
        <GuidelinesPanel
          open={guide}
          placement="side"
          guidelines={data.guidelines}
          meanings={RELEVANCE.map((r) => ({ grade: r.grade, meaning: `the answer ${r.name}` }))}
          onClose={() => setGuide(false)}
        />
      )}
      <KeyHelp open={help} onClose={() => setHelp(false)} keys={ANSWER_KEYS} />
    </div>
  );
}
