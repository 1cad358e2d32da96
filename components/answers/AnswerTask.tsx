"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import Link from "next/link";
import type { TAnnotatorAnswer } from "@/lib/answers/view";
import { CLAIM_LABEL_NAMES, type TClaimLabel } from "@/lib/answers/labels";
import { formatClock } from "@/lib/annotate/format";
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
import { VideoPlayer, usePlayer } from "@/components/player/VideoPlayer";
import { KeysButton, SubmitRow } from "@/components/grading/GradingControls";
import { KeyHelp } from "@/components/annotate/parts";
import { GuidelinesPanel } from "@/components/annotate/Guidelines";
import { isTyping } from "@/components/annotate/useGradingKeys";
import {
  afterMerge,
  afterSplit,
  ANSWER_KEYS,
  defaultSplitAt,
  firstUnlabelled,
  initialAnswerForm,
  LABEL_KEYS,
  labelClaim,
  moveCursor,
  type TAnswerForm,
} from "./form";

const LOCKED = "You labelled this answer: e (Edit) to change it, Enter for the next unfinished answer.";
const CLOSED_ANSWERS = "Grading is closed in this project: answers are read-only (u: back to the previous answer).";

const RELEVANCE: { grade: number; name: string }[] = [
  { grade: 0, name: "does not address the question" },
  { grade: 1, name: "touches it" },
  { grade: 2, name: "answers it partly" },
  { grade: 3, name: "answers it fully" },
];
const LABEL_STYLE: Record<TClaimLabel, string> = {
  s: "bg-emerald-100 text-emerald-900",
  p: "bg-amber-100 text-amber-900",
  n: "bg-red-100 text-red-900",
  x: "bg-sky-100 text-sky-900",
};
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
  const locked = !!data?.own && !unlocked[data.id];
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
    if (unchanged) {
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

  const handlers = useRef({
    form,
    data,
    submit,
    enter,
    play,
    merge,
    openSplit,
    back,
    setForm,
    change,
    unlock,
    locked,
    controls,
  });
  useEffect(() => {
    handlers.current = {
      form,
      data,
      submit,
      enter,
      play,
      merge,
      openSplit,
      back,
      setForm,
      change,
      unlock,
      locked,
      controls,
    };
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const h = handlers.current;
      if (e.key === "Escape") {
        if (e.target instanceof HTMLElement && isTyping(e.target)) e.target.blur();
        setHelp(false);
        setGuide(false);
        setSplit(null);
        setConfirmMerge(null);
        return;
      }
      if (isTyping(e.target) || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
      // Enter on a focused link or button is the browser's (follow it, press it), not the page's.
      if (e.key === "Enter" && e.target instanceof HTMLElement && e.target.closest("a, button")) return;
      const f = h.form;
      let handled = true;
      const key = e.key.toLowerCase();
      if (e.key === "?") setHelp((x) => !x);
      else if (key === "g") setGuide((x) => !x);
      else if (e.key === " ") h.controls.toggle();
      else if (key === "u" || e.key === "Backspace") h.back();
      else if (!f || !h.data) handled = false;
      else if (key === "e") h.unlock();
      else if (key in LABEL_KEYS && e.key.length === 1) h.change(labelClaim(f, LABEL_KEYS[key]));
      else if (key === "j" || e.key === "ArrowDown") h.setForm(moveCursor(f, 1));
      else if (key === "k" || e.key === "ArrowUp") h.setForm(moveCursor(f, -1));
      else if (/^[0-9]$/.test(e.key) && f.cursor >= f.labels.length) {
        const g = Number(e.key);
        if (g > 3) handled = false;
        else if (h.locked) h.change(f);
        else {
          const next = { ...f, relevance: g };
          h.setForm(next);
          h.submit(next);
        }
      } else if (/^[1-9]$/.test(e.key)) h.play(Number(e.key) - 1);
      else if (key === "r") h.controls.replay();
      else if (key === "m") h.merge();
      else if (e.key === "/") h.openSplit();
      else if (e.key === "Enter") h.enter();
      else handled = false;
      if (handled) e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  if (queue.isPending) return <p className="p-6 text-slate-600">Loading your answers…</p>;
  if (queue.isError)
    return (
      <p role="alert" className="p-6 text-red-700">
        Could not load your answers: {queue.error.message}
      </p>
    );
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
      <div role="status" aria-live="polite" className="text-xs text-slate-600" data-testid="outbox">
        {outbox.pending.length > 0 ? (
          <>
            {outbox.pending.length} label{outbox.pending.length === 1 ? "" : "s"} waiting to be sent{" "}
            <button type="button" className="underline" onClick={outbox.retryNow}>
              Retry now
            </button>
          </>
        ) : (
          "All labels saved."
        )}
      </div>
      {failedLabels.length > 0 ? (
        <section
          role="alert"
          aria-label="Labels not saved"
          className="space-y-1 rounded border border-red-300 bg-red-50 p-2 text-sm text-red-800"
          data-testid="failed-labels"
        >
          <p className="font-semibold">
            {failedLabels.length} label{failedLabels.length === 1 ? " was" : "s were"} not saved (the others were sent):
          </p>
          <ul className="space-y-1">
            {failedLabels.map((f) => {
              const place = flat.find((x) => x.id === f.entry.itemId);
              return (
                <li key={f.entry.key} className="flex flex-wrap items-center gap-2">
                  <span>
                    {place ? `Answer ${place.index}` : "An answer no longer in your queue"}: {f.message} (HTTP{" "}
                    {f.status})
                  </span>
                  {place ? (
                    <button type="button" className="underline" onClick={() => goTo(place.id)}>
                      Open answer
                    </button>
                  ) : null}
                  <button
                    type="button"
                    className="underline"
                    aria-label="Dismiss"
                    onClick={() => outbox.dismiss(f.entry.key)}
                  >
                    Dismiss
                  </button>
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}

      {atEnd || !activeId ? (
        <section aria-label="End of queue" className="rounded-md border border-slate-200 p-6">
          <h1 className="text-lg font-semibold">
            {page.done >= page.total ? "All your answers are labelled" : "End of your answers"}
          </h1>
          <p className="text-sm text-slate-600" data-testid="answers-done">
            {page.done >= page.total
              ? `You labelled all ${page.total} answers assigned to you. `
              : `${page.total - page.done} of your answers are not labelled yet. `}
            Press <kbd>u</kbd> to go back to the last answer.
          </p>
        </section>
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
                {locked
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
            <p className="text-xs text-slate-600" data-testid="claims-labelled">
              {form.labels.filter((l) => l !== null).length} of {form.labels.length} claims labelled
            </p>
            <ol aria-label="Claims" className="space-y-1">
              {data.claims.map((c, i) => {
                const l = form.labels[i];
                const current = form.cursor === i;
                return (
                  <li
                    key={`${form.claimVersion}:${c.position}`}
                    data-testid="claim"
                    data-label={l ?? ""}
                    aria-current={current ? "true" : undefined}
                    className={`flex items-start gap-2 rounded border p-2 text-sm ${current ? "border-indigo-600 ring-2 ring-indigo-300" : "border-slate-200"}`}
                    onClick={() => setForm({ ...form, cursor: i })}
                  >
                    <span className="font-mono text-slate-500">{i + 1}.</span>
                    <span className="flex-1">{c.text}</span>
                    <span
                      className={`rounded px-1 font-mono text-xs ${l ? LABEL_STYLE[l] : "text-slate-400"}`}
                      title={l ? CLAIM_LABEL_NAMES[l] : "no label yet"}
                    >
                      {l ?? "·"}
                    </span>
                  </li>
                );
              })}
            </ol>
            {confirmMerge !== null ? (
              <div
                role="alertdialog"
                aria-label="Merge the claims"
                data-testid="confirm-merge"
                className="rounded border border-amber-400 bg-amber-50 p-2 text-sm"
              >
                Merge claims {confirmMerge + 1} and {confirmMerge + 2} into one (your own claims; no one else&apos;s
                change)? Enter merges, Esc cancels.
              </div>
            ) : null}
            {split ? (
              <div
                role="dialog"
                aria-label="Split the claim"
                className="space-y-1 rounded border border-slate-300 p-2 text-sm"
              >
                <p>
                  Move the caret to where the claim splits, then Enter splits it there (your own claims; no one
                  else&apos;s change). Esc cancels.
                </p>
                <input
                  ref={splitRef}
                  aria-label="Claim to split"
                  className="w-full rounded border border-slate-300 p-1 font-mono text-xs"
                  value={data.claims[split.claim]?.text ?? ""}
                  onChange={() => undefined}
                  onKeyDown={(e) => {
                    if (e.key === "Enter") {
                      e.preventDefault();
                      edit({ kind: "split", position: split.claim, at: e.currentTarget.selectionStart ?? split.at });
                    }
                  }}
                />
              </div>
            ) : null}
            <div
              role="group"
              aria-label="Relevance"
              className={`grid grid-cols-2 gap-2 rounded p-1 sm:grid-cols-4 ${form.cursor >= form.labels.length ? "ring-2 ring-indigo-300" : ""}`}
              data-testid="relevance"
              data-value={form.relevance ?? ""}
            >
              {RELEVANCE.map((r) => (
                <button
                  key={r.grade}
                  type="button"
                  aria-pressed={form.relevance === r.grade}
                  className={`rounded border px-2 py-1 text-left text-xs ${form.relevance === r.grade ? "border-indigo-700 bg-indigo-50" : "border-slate-300"}`}
                  onClick={() => (locked ? setMessage(LOCKED) : submit({ ...form, relevance: r.grade }))}
                >
                  <span className="font-mono font-semibold">{r.grade}</span> {r.name}
                </button>
              ))}
            </div>
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
          <div className="space-y-2">
            {ctx ? (
              <VideoPlayer
                src={ctx.video.src}
                allowed={ctx.video.allowed}
                times={ctx}
                cueSeconds={ctx.startSeconds}
                cueKey={`${data.id}:${chunkIndex}`}
                mediaRef={mediaRef}
                title={ctx.video.title}
                autoPlay={chunk?.answer === data.id && chunk.play}
              />
            ) : (
              <p className="text-sm text-slate-600">The model was given no context for this answer.</p>
            )}
            <ol aria-label="Context" className="space-y-1">
              {data.context.map((c, i) => (
                <li key={c.position}>
                  <button
                    type="button"
                    data-testid="context-chunk"
                    aria-current={i === chunkIndex ? "true" : undefined}
                    className={`w-full rounded border p-2 text-left text-xs ${i === chunkIndex ? "border-indigo-600 bg-indigo-50" : "border-slate-200"}`}
                    onClick={() => play(i)}
                  >
                    <span className="font-mono font-semibold">{i + 1}</span> · {c.video.title}{" "}
                    {formatClock(c.startSeconds)}–{formatClock(c.endSeconds)}
                    <span className="mt-1 block whitespace-pre-wrap text-slate-800">{c.text}</span>
                  </button>
                </li>
              ))}
            </ol>
          </div>
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
