"use client";

import { useMemo, useRef, useState } from "react";
import Link from "next/link";
import type { TAnswerAdjudicationItem } from "@/lib/answers/adjudicate";
import type { TClaimLabel } from "@/lib/answers/labels";
import { formatClock } from "@/lib/annotate/format";
import { newIdempotencyKey } from "@/lib/offline/key";
import { useAnswerAdjudicationCounts, useAnswerAdjudicationQueue, useDecideAnswer } from "@/lib/query/answers";
import { useAdjudicatorProjects } from "@/lib/query/adjudicate";
import { GuidelinesPanel } from "@/components/annotate/Guidelines";
import { usePlayer } from "@/components/player/VideoPlayer";
import { ContextPlayer } from "./AnswerContext";
import { FormMessage, KeysButton, RationaleField } from "@/components/grading/GradingControls";
import { EndOfQueueCard, ReadState, standingOf } from "@/components/grading/QueueStates";
import { KeyHelp } from "@/components/annotate/parts";
import { usePageKeys } from "@/components/grading/usePageKeys";
import { LABEL_KEYS } from "./form";

type TForm = {
  labels: (TClaimLabel | null)[];
  relevance: number | null;
  cursor: number;
  rationale: string;
  key: string;
};
type TStanding = { claimLabels: TClaimLabel[]; relevance: number; revision: number };

const KEYS: [string, string][] = [
  ["s / p / n / x", "the final label of the current claim (then the next claim)"],
  ["a / b", "take annotator A's / B's claim labels and relevance"],
  ["j / ↓, k / ↑", "next / previous claim"],
  ["0–3", "the final relevance"],
  ["r", "write the rationale (Esc to leave)"],
  ["Enter", "decide and next"],
  ["Backspace", "previous answer"],
  ["Space", "play or pause the chunk"],
  ["g", "the project's guidelines"],
  ["?", "these keys"],
];

const emptyForm = (item: TAnswerAdjudicationItem): TForm => ({
  labels: item.claims.map(() => null),
  relevance: null,
  cursor: 0,
  rationale: "",
  key: newIdempotencyKey(),
});

/**
 * /adjudicate/answers: answers whose annotators' labels disagree, one at a time, the
 * labels side by side as A and B (no names); the adjudicator gives each claim its final label and
 * the answer its relevance, keyboard-complete (KEYS), decided through lib/answers/adjudicate.ts.
 */
export function AnswerAdjudicate({ initialProject = null }: { initialProject?: number | null }) {
  const counts = useAnswerAdjudicationCounts();
  const projectId = initialProject ?? (counts.data?.find((c) => c.pending > 0) ?? counts.data?.[0])?.projectId ?? null;
  const queue = useAnswerAdjudicationQueue(projectId);
  // The project's guidelines (g) and their revision, recorded with each decision (as the items' adjudication page).
  const project = useAdjudicatorProjects().data?.find((p) => p.id === projectId);
  const [guide, setGuide] = useState(false);
  const items = useMemo(() => queue.data ?? [], [queue.data]);
  const [index, setIndex] = useState(0);
  const [forms, setForms] = useState<Record<string, TForm>>({});
  const [done, setDone] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [help, setHelp] = useState(false);
  const [chunk, setChunk] = useState(0);
  const decide = useDecideAnswer(projectId);
  const rationaleRef = useRef<HTMLTextAreaElement>(null);
  // Waiting: those of the queue not decided on this page (the queue itself is read once; the picker's counts are refetched after each decision).
  const left = items.filter((i) => !done[i.id]).length;
  const item = items[index];
  const form = item ? (forms[item.id] ?? emptyForm(item)) : undefined;
  const ctx = item?.context[Math.min(chunk, Math.max(0, (item?.context.length ?? 1) - 1))];
  const { mediaRef, controls } = usePlayer(ctx?.startSeconds ?? 0);

  const setForm = (f: TForm) => item && !done[item.id] && setForms((all) => ({ ...all, [item.id]: f }));
  const go = (i: number) => {
    setMessage(null);
    setChunk(0);
    setIndex(Math.max(0, Math.min(items.length, i)));
  };
  const take = (i: number) => {
    const l = item?.labels[i];
    if (!item || !form || !l) return;
    if (l.claimVersion !== item.claimVersion) {
      setForm({ ...form, relevance: l.relevance });
      return setMessage(`${l.label} labelled another claim set: only the relevance was taken.`);
    }
    setForm({ ...form, labels: [...l.claimLabels], relevance: l.relevance, cursor: l.claimLabels.length });
  };
  const submit = () => {
    if (!item || !form) return;
    if (done[item.id]) return go(index + 1);
    const missing = form.labels.findIndex((l) => l === null);
    if (missing >= 0) return setMessage(`Give claim ${missing + 1} its final label (s, p, n, x, or a / b).`);
    if (form.relevance === null) return setMessage("Choose the final relevance (0–3).");
    decide.mutate(
      {
        answerId: item.id,
        claimVersion: item.claimVersion,
        claimLabels: form.labels.filter((l): l is TClaimLabel => l !== null),
        relevance: form.relevance,
        rationale: form.rationale,
        idempotencyKey: form.key,
        ...(project ? { guidelineRevision: project.guidelineRevision } : {}),
      },
      {
        onSuccess: (r) => {
          setDone((d) => ({
            ...d,
            [item.id]: `Decided: ${r.adjudication.claimLabels.join(" ")}, relevance ${r.adjudication.relevance}.`,
          }));
          go(index + 1);
        },
        onError: (e) => {
          const standing = standingOf<TStanding>(e);
          if (standing)
            setDone((d) => ({
              ...d,
              [item.id]: `Another adjudicator decided this answer first: ${standing.claimLabels.join(" ")}, relevance ${standing.relevance}.`,
            }));
          else setMessage(`The decision was not saved: ${e.message}`);
        },
      },
    );
  };

  const rationale = () => item && !done[item.id] && rationaleRef.current?.focus();
  usePageKeys({
    escape: () => {
      setHelp(false);
      setGuide(false);
    },
    press: (e) => {
      // Enter on a focused link or button is the browser's (follow it, press it), not the page's.
      if (e.key === "Enter" && e.target instanceof HTMLElement && e.target.closest("a, button")) return false;
      const f = form;
      const key = e.key.toLowerCase();
      if (e.key === "?") setHelp((x) => !x);
      else if (key === "g") setGuide((x) => !x);
      else if (e.key === " ") controls.toggle();
      else if (e.key === "Backspace") go(index - 1);
      else if (e.key === "Enter") submit();
      else if (!f) return false;
      else if (key in LABEL_KEYS && e.key.length === 1 && f.cursor < f.labels.length)
        setForm({
          ...f,
          labels: f.labels.map((l, i) => (i === f.cursor ? LABEL_KEYS[key] : l)),
          cursor: f.cursor + 1,
        });
      else if (key === "a" || key === "b") take(key === "a" ? 0 : 1);
      else if (key === "r") rationale();
      else if (key === "j" || e.key === "ArrowDown") setForm({ ...f, cursor: Math.min(f.labels.length, f.cursor + 1) });
      else if (key === "k" || e.key === "ArrowUp") setForm({ ...f, cursor: Math.max(0, f.cursor - 1) });
      else if (/^[0-3]$/.test(e.key)) setForm({ ...f, relevance: Number(e.key) });
      else return false;
      return true;
    },
  });

  if (counts.isPending || counts.isError)
    return <ReadState query={counts} loading="Loading…" failed="Could not load the answers" padded />;
  if (projectId === null) return <p className="p-6 text-slate-600">No project has answers.</p>;

  return (
    <div className="mx-auto max-w-6xl space-y-4 px-4 py-4">
      <header className="flex flex-wrap items-center justify-between gap-3 text-sm">
        <Link href={`/adjudicate?project=${projectId}`} className="underline">
          Chunk disagreements
        </Link>
        <span data-testid="answer-disagreements-left">
          {left} answer disagreement{left === 1 ? "" : "s"} to decide
        </span>
        <KeysButton onClick={() => setHelp((h) => !h)} />
      </header>
      {queue.isPending || queue.isError ? (
        <ReadState query={queue} loading="Loading the disagreements…" failed="Could not load the disagreements" />
      ) : !item || !form ? (
        <EndOfQueueCard
          heading={items.length === 0 ? "No answer disagreements to decide" : "End of the answer disagreements"}
        >
          <p className="text-sm text-slate-600">Press Backspace to go back.</p>
        </EndOfQueueCard>
      ) : (
        <article
          data-answer-id={item.id}
          data-ready="true"
          aria-label="Answer disagreement"
          className="grid gap-4 md:grid-cols-2"
        >
          <div className="space-y-3">
            <p className="text-sm text-slate-600">
              Answer disagreement {index + 1} of {items.length}
            </p>
            <h1 className="text-lg font-semibold" data-testid="answer-question">
              {item.question}
            </h1>
            <table className="w-full text-sm" aria-label="Claims">
              <thead>
                <tr className="text-left text-xs text-slate-600">
                  <th>#</th>
                  <th>Claim</th>
                  {item.labels.map((l) => (
                    <th key={l.label}>{l.label}</th>
                  ))}
                  <th>Final</th>
                </tr>
              </thead>
              <tbody>
                {item.claims.map((text, i) => (
                  <tr
                    key={i}
                    data-testid="adjudicate-claim"
                    aria-current={form.cursor === i ? "true" : undefined}
                    className={form.cursor === i ? "bg-indigo-50" : ""}
                    onClick={() => setForm({ ...form, cursor: i })}
                  >
                    <td className="font-mono text-slate-500">{i + 1}</td>
                    <td>{text}</td>
                    {item.labels.map((l) => (
                      <td key={l.label} className="font-mono">
                        {l.claimVersion === item.claimVersion ? (l.claimLabels[i] ?? "—") : "—"}
                      </td>
                    ))}
                    <td className="font-mono font-semibold" data-testid="final-label">
                      {form.labels[i] ?? "·"}
                    </td>
                  </tr>
                ))}
                <tr className={form.cursor >= form.labels.length ? "bg-indigo-50" : ""}>
                  <td />
                  <td>Relevance (0–3)</td>
                  {item.labels.map((l) => (
                    <td key={l.label} className="font-mono">
                      {l.relevance}
                    </td>
                  ))}
                  <td className="font-mono font-semibold" data-testid="final-relevance">
                    {form.relevance ?? "·"}
                  </td>
                </tr>
              </tbody>
            </table>
            {item.labels.some((l) => l.claimVersion !== item.claimVersion) ? (
              <div className="text-xs text-slate-600">
                {item.labels
                  .filter((l) => l.claimVersion !== item.claimVersion)
                  .map((l) => (
                    <p key={l.label}>
                      {l.label} labelled an earlier claim set:{" "}
                      {l.claims.map((c, i) => `${c} [${l.claimLabels[i] ?? "—"}]`).join(" · ")}
                    </p>
                  ))}
              </div>
            ) : null}
            {item.labels.some((l) => l.notes || l.flags.length) ? (
              <ul className="text-xs text-slate-700">
                {item.labels.map((l) =>
                  l.notes || l.flags.length ? (
                    <li key={l.label}>
                      {l.label}: {[l.flags.join(", "), l.notes].filter(Boolean).join(" — ")}
                    </li>
                  ) : null,
                )}
              </ul>
            ) : null}
            <RationaleField
              fieldRef={rationaleRef}
              value={form.rationale}
              onChange={(rationale) => setForm({ ...form, rationale })}
            />
            <div className="flex items-center gap-3">
              <button
                type="button"
                className="rounded bg-indigo-700 px-4 py-2 text-sm text-white"
                aria-label="Enter: decide and next"
                onClick={submit}
                disabled={decide.isPending}
              >
                Enter ▸ {done[item.id] ? "next" : "decide and next"}
              </button>
              {done[item.id] ? (
                <p role="status" className="text-sm text-green-800">
                  {done[item.id]}
                </p>
              ) : null}
              <FormMessage message={message} />
            </div>
          </div>
          <div className="space-y-2">
            <details className="text-sm text-slate-700">
              <summary>The whole answer</summary>
              <p className="mt-1 whitespace-pre-wrap">{item.answer}</p>
            </details>
            {ctx ? (
              <ContextPlayer ctx={ctx} cueKey={`${item.id}:${chunk}`} mediaRef={mediaRef} autoPlay={false} />
            ) : null}
            <ol aria-label="Context" className="space-y-1">
              {item.context.map((c, i) => (
                <li key={c.position}>
                  <button
                    type="button"
                    className={`w-full rounded border p-2 text-left text-xs ${i === chunk ? "border-indigo-600 bg-indigo-50" : "border-slate-200"}`}
                    onClick={() => {
                      setChunk(i);
                      controls.seek(c.startSeconds);
                      controls.play();
                    }}
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
      <GuidelinesPanel open={guide} guidelines={project?.guidelines ?? ""} onClose={() => setGuide(false)} />
      <KeyHelp open={help} onClose={() => setHelp(false)} keys={KEYS} />
    </div>
  );
}
