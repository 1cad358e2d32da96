"use client";

import { useMemo, useState } from "react";
import type { TAdjudicatorItem } from "@/lib/annotate/adjudicate";
import { formatClock } from "@/lib/annotate/format";
import { newIdempotencyKey } from "@/lib/offline/key";
import { ApiError } from "@/lib/query/fetcher";
import { useAdjudicatorProjects, useAdjudicatorQueue, useDecide, type TStanding } from "@/lib/query/adjudicate";
import { GradeBar, KEYS, Meter, StartControl, Transcript } from "@/components/annotate/parts";
import { useGradingKeys } from "@/components/annotate/useGradingKeys";
import { VideoPlayer, usePlayer } from "@/components/player/VideoPlayer";
import { KeysButton, PlayerKeysFooter, SubmitRow } from "@/components/grading/GradingControls";
import { LabelsAB } from "./LabelsAB";

type TForm = { grade: number | null; start: number; rationale: string; key: string };
type TOutcome = { kind: "decided"; grade: number; startSeconds: number | null } | { kind: "standing"; standing: TStanding };

const ADJ_KEYS: [string, string][] = KEYS.map(([k, v]) => [k, k === "Enter" ? "decide and go to the next item" : k === "Esc" ? "leave the rationale field" : v]);

/** /adjudicate: disagreements one at a time, annotators shown as A and B, keyboard first. */
export function AdjudicatePage() {
  const projects = useAdjudicatorProjects();
  const [chosen, setChosen] = useState<number | null>(null);
  const projectId = chosen ?? projects.data?.[0]?.id ?? null;
  const queue = useAdjudicatorQueue(projectId);
  const items = useMemo(() => queue.data ?? [], [queue.data]);
  const [index, setIndex] = useState(0);
  const [forms, setForms] = useState<Record<string, TForm>>({});
  const [outcomes, setOutcomes] = useState<Record<string, TOutcome>>({});
  const [help, setHelp] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const decide = useDecide();

  const item: TAdjudicatorItem | undefined = items[index];
  const next = items[index + 1];
  const { mediaRef, controls } = usePlayer(item?.chunk.startSeconds ?? 0);
  const form: TForm | undefined = item ? (forms[item.id] ?? { grade: null, start: item.chunk.startSeconds, rationale: "", key: newIdempotencyKey() }) : undefined;
  const outcome = item ? outcomes[item.id] : undefined;
  const setForm = (patch: Partial<TForm>) => item && form && setForms((f) => ({ ...f, [item.id]: { ...form, ...patch } }));
  const decidedCount = Object.keys(outcomes).length;

  const go = (i: number) => {
    setMessage(null);
    setIndex(Math.max(0, Math.min(items.length, i)));
  };

  const submit = () => {
    if (!item || !form) return;
    if (outcome) return go(index + 1);
    if (form.grade === null) return setMessage("Choose the final grade first (keys 0–3).");
    const body = { poolItemId: item.id, grade: form.grade, startSeconds: form.start, rationale: form.rationale, idempotencyKey: form.key };
    setForms((f) => ({ ...f, [item.id]: form }));
    decide.mutate(body, {
      onSuccess: (d) => {
        setOutcomes((o) => ({ ...o, [item.id]: { kind: "decided", grade: d.grade, startSeconds: d.startSeconds } }));
        go(index + 1);
      },
      onError: (e) => {
        const standing = e instanceof ApiError && e.status === 409 ? (e.details as { standing?: TStanding } | undefined)?.standing : undefined;
        if (standing) setOutcomes((o) => ({ ...o, [item.id]: { kind: "standing", standing } }));
        else setMessage(`The decision was not saved: ${e.message}`);
      },
    });
  };

  useGradingKeys({
    grade: (g) => !outcome && setForm({ grade: g }),
    setStartToPlayhead: () => !outcome && setForm({ start: Math.round(controls.currentTime() * 10) / 10 }),
    nudgeStart: (d) => !outcome && form && setForm({ start: Math.max(0, form.start + d) }),
    replay: controls.replay,
    togglePlay: controls.toggle,
    submit,
    back: () => index > 0 && go(index - 1),
    help: () => setHelp((h) => !h),
    escape: () => setHelp(false),
  });

  if (projects.isPending) return <p className="p-6 text-slate-600">Loading…</p>;
  if (projects.isError) return <p role="alert" className="p-6 text-red-700">Could not load the projects: {projects.error.message}</p>;
  if (projects.data.length === 0) return <p className="p-6 text-slate-600">There are no projects yet.</p>;

  return (
    <main className="mx-auto max-w-6xl space-y-4 px-4 py-4">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <label className="flex items-center gap-2 text-sm">
          Project
          <select
            value={projectId ?? ""}
            onChange={(e) => {
              setChosen(Number(e.target.value));
              setIndex(0);
            }}
            className="rounded border border-slate-300 px-2 py-1"
          >
            {projects.data.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <div className="flex items-center gap-4">
          <Meter label="Decided this visit" done={decidedCount} total={items.length} />
          <KeysButton onClick={() => setHelp((h) => !h)} />
        </div>
      </header>
      {queue.isPending ? (
        <p className="text-slate-600">Loading the disagreements…</p>
      ) : queue.isError ? (
        <p role="alert" className="text-red-700">Could not load the disagreements: {queue.error.message}</p>
      ) : !item || !form ? (
        <section aria-label="End of queue" className="rounded-md border border-slate-200 p-6">
          <h1 className="text-lg font-semibold">{items.length === 0 ? "No disagreements to decide" : "End of the disagreements"}</h1>
          <p className="text-sm text-slate-600">{items.length > 0 ? `${decidedCount} of ${items.length} decided. Press u to go back.` : "Every item is agreed or decided."}</p>
        </section>
      ) : (
        <article data-item-id={item.id} data-ready="true" aria-label="Disagreement" className="space-y-4">
          <p className="text-sm text-slate-600">
            Disagreement {index + 1} of {items.length}
          </p>
          <h1 className="text-lg font-semibold" data-testid="question">
            {item.question}
          </h1>
          <div className="grid gap-4 md:grid-cols-2">
            <VideoPlayer src={item.video.src} cueSeconds={item.chunk.startSeconds} cueKey={item.id} mediaRef={mediaRef} title={item.video.title} />
            <Transcript key={item.id} chunk={item.chunk} before={item.before} after={item.after} />
          </div>
          <LabelsAB labels={item.labels} />
          {outcome?.kind === "standing" ? (
            <div role="alert" className="rounded border border-amber-400 bg-amber-50 p-3 text-sm">
              <p className="font-semibold">Another adjudicator decided this item first. The decision that stands:</p>
              <p data-testid="standing">
                grade {outcome.standing.grade}, start {outcome.standing.startSeconds === null ? "—" : formatClock(outcome.standing.startSeconds)}
                {outcome.standing.rationale ? `: “${outcome.standing.rationale}”` : ""}
              </p>
              <p>Press Enter for the next item.</p>
            </div>
          ) : outcome?.kind === "decided" ? (
            <p role="status" className="text-sm text-green-800">
              Decided: grade {outcome.grade}, start {outcome.startSeconds === null ? "—" : formatClock(outcome.startSeconds)}.
            </p>
          ) : null}
          <fieldset disabled={outcome !== undefined || decide.isPending} className="space-y-3">
            <legend className="text-sm font-semibold">Final label</legend>
            <GradeBar value={form.grade} onChoose={(g) => setForm({ grade: g })} highlight={item.labels.map((l) => l.grade)} />
            <StartControl value={form.start} chunkStart={item.chunk.startSeconds} onChange={(s) => setForm({ start: s })} onPlayhead={() => setForm({ start: Math.round(controls.currentTime() * 10) / 10 })} />
            <textarea aria-label="Rationale" rows={2} placeholder="Short rationale (Esc to leave)" value={form.rationale} onChange={(e) => setForm({ rationale: e.target.value })} className="w-full rounded border border-slate-300 p-2 text-sm" />
          </fieldset>
          <SubmitRow submitLabel={outcome ? "Next item" : "Decide and next"} submitText={outcome ? "next" : "decide and next"} onSubmit={submit} backDisabled={index === 0} onBack={() => go(index - 1)} message={message} />
        </article>
      )}
      <PlayerKeysFooter next={next} help={help} onCloseHelp={() => setHelp(false)} keys={ADJ_KEYS} />
    </main>
  );
}
