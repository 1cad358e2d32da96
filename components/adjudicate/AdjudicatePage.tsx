"use client";

import { useMemo, useRef, useState } from "react";
import type { TAdjudicatorItem } from "@/lib/annotate/adjudicate";
import { annotatorsStart, takeLabel } from "@/lib/adjudication/start";
import { formatClock } from "@/lib/annotate/format";
import { newIdempotencyKey } from "@/lib/offline/key";
import {
  fetchLastDecision,
  useAdjudicatorProjects,
  useAdjudicatorQueue,
  useDecide,
  type TStanding,
} from "@/lib/query/adjudicate";
import { GradeBar, Meter, Transcript } from "@/components/annotate/parts";
import { GuidelinesPanel } from "@/components/annotate/Guidelines";
import { VideoPlayer, usePlayer } from "@/components/player/VideoPlayer";
import { KeysButton, PlayerKeysFooter, RationaleField, SubmitRow } from "@/components/grading/GradingControls";
import { EndOfQueueCard, ReadState, standingOf } from "@/components/grading/QueueStates";
import { LabelsAB } from "./LabelsAB";
import { FinalStart } from "./FinalStart";
import { EndControl, endNotAfter } from "@/components/annotate/EndControl";
import { ProjectPicker, projectWithWork } from "./ProjectPicker";
import { ADJUDICATOR_KEYS, useAdjudicatorKeys } from "./useAdjudicatorKeys";
import { AnswerDisagreementsLink } from "@/components/answers/AnswerDisagreementsLink";

/** `revises`: set when the form reopens a decision (u): the revision it replaces. */
type TForm = {
  grade: number | null;
  start: number | null;
  /** Where the answer ends (e), null when not marked. */
  end: number | null;
  rationale: string;
  key: string;
  revises?: number;
};
type TDecided = {
  grade: number;
  startSeconds: number | null;
  endSeconds: number | null;
  rationale: string;
  revision: number;
};
type TOutcome = ({ kind: "decided" } & TDecided) | { kind: "standing"; standing: TStanding };

const decidedOf = (o: TOutcome): TDecided => (o.kind === "decided" ? o : o.standing);
/** A decision back in the form as a revision of itself (u). */
const revisionForm = (d: TDecided): TForm => ({
  grade: d.grade,
  start: d.startSeconds,
  end: d.endSeconds,
  rationale: d.rationale,
  key: newIdempotencyKey(),
  revises: d.revision,
});
const clock = (s: number | null) => (s === null ? "—" : formatClock(s));
/** ", end m:ss" when the decision carries an end. */
const endText = (s: number | null) => (s === null ? "" : `, end ${formatClock(s)}`);

/** u on /adjudicate: reopens the last decision (on /annotate u goes back; here Backspace does). The visible text is part of the name (axe: label-content-name-mismatch). */
function ReopenButton({ onReopen }: { onReopen: () => void }) {
  return (
    <button
      type="button"
      className="rounded border border-slate-300 px-3 py-2 text-sm"
      aria-label="u reopen the last decision to revise it"
      onClick={onReopen}
    >
      u reopen the last decision
    </button>
  );
}

/** /adjudicate: disagreements one at a time, annotators shown as A and B, keyboard-complete. */
export function AdjudicatePage({ initialProject = null }: { initialProject?: number | null }) {
  const projects = useAdjudicatorProjects();
  const [chosen, setChosen] = useState<number | null>(null);
  const asked = initialProject !== null && projects.data?.some((p) => p.id === initialProject) ? initialProject : null;
  const projectId = chosen ?? asked ?? projectWithWork(projects.data ?? []);
  // The project stays put once shown: the counts are read again after each decision, and the
  // project with work would otherwise change under the adjudicator when the last one is decided.
  if (chosen === null && projects.data && projectId !== null) setChosen(projectId);
  const project = projects.data?.find((p) => p.id === projectId);
  const queue = useAdjudicatorQueue(projectId);
  // An earlier visit's decision brought back by u, shown after the queue.
  const [reopened, setReopened] = useState<TAdjudicatorItem | null>(null);
  const items = useMemo(() => {
    const queued = queue.data ?? [];
    return reopened && !queued.some((q) => q.id === reopened.id) ? [...queued, reopened] : queued;
  }, [queue.data, reopened]);
  const [index, setIndex] = useState(0);
  const [forms, setForms] = useState<Record<string, TForm>>({});
  const [outcomes, setOutcomes] = useState<Record<string, TOutcome>>({});
  // Item ids in the order they were decided this visit: u reopens the last.
  const [decidedOrder, setDecidedOrder] = useState<string[]>([]);
  const [help, setHelp] = useState(false);
  const [guide, setGuide] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const rationaleRef = useRef<HTMLTextAreaElement>(null);
  const decide = useDecide();

  const item: TAdjudicatorItem | undefined = items[index];
  const next = items[index + 1];
  const { mediaRef, controls } = usePlayer(item?.chunk.startSeconds ?? 0);
  const tolerance = project?.startToleranceSeconds ?? 0;
  const form: TForm | undefined = item
    ? (forms[item.id] ?? {
        grade: null,
        start: annotatorsStart(item.labels, tolerance),
        end: null,
        rationale: "",
        key: newIdempotencyKey(),
      })
    : undefined;
  const outcome = item ? outcomes[item.id] : undefined;
  const editable = item !== undefined && outcome === undefined;
  // Applied to the stored form (not this render's copy), so keys pressed faster than a render (`a`, then a digit, then `[`) each see the one before.
  const setForm = (patch: Partial<TForm> | ((current: TForm) => Partial<TForm>)) =>
    item &&
    form &&
    editable &&
    setForms((f) => {
      const current = f[item.id] ?? form;
      return { ...f, [item.id]: { ...current, ...(typeof patch === "function" ? patch(current) : patch) } };
    });
  const playhead = () => Math.round(controls.currentTime() * 10) / 10;

  const go = (i: number) => {
    setMessage(null);
    setIndex(Math.max(0, Math.min(items.length, i)));
  };

  const submit = () => {
    if (!item || !form) return;
    if (outcome) return go(index + 1);
    if (form.grade === null)
      return setMessage("Choose the final grade first (keys 0–3, or a / b to take an annotator's label).");
    const startSeconds = form.grade === 0 ? null : form.start;
    const endSeconds = form.grade === 0 ? null : form.end;
    // A grade-0 label has no start; any other needs one. An end lies after the start (the server refuses it otherwise).
    if (form.grade !== 0 && startSeconds === null)
      return setMessage("Choose the start first: a or b takes an annotator's, s the playhead.");
    if (endSeconds !== null && startSeconds !== null && !(endSeconds > startSeconds))
      return setMessage(`${endNotAfter(startSeconds)} Shift+E clears the end.`);
    const body = {
      poolItemId: item.id,
      grade: form.grade,
      startSeconds,
      endSeconds,
      rationale: form.rationale,
      idempotencyKey: form.key,
      ...(form.revises === undefined ? {} : { revises: form.revises }),
      // The guidelines revision the page shows (g), recorded with the decision.
      ...(project ? { guidelineRevision: project.guidelineRevision } : {}),
    };
    setForms((f) => ({ ...f, [item.id]: form }));
    decide.mutate(body, {
      onSuccess: (d) => {
        setOutcomes((o) => ({
          ...o,
          [item.id]: {
            kind: "decided",
            grade: d.grade,
            startSeconds: d.startSeconds,
            endSeconds: d.endSeconds,
            rationale: d.rationale,
            revision: d.revision,
          },
        }));
        setDecidedOrder((order) => [...order.filter((id) => id !== item.id), item.id]);
        go(index + 1);
      },
      onError: (e) => {
        const standing = standingOf<TStanding>(e);
        if (standing) {
          setOutcomes((o) => ({ ...o, [item.id]: { kind: "standing", standing } }));
          setDecidedOrder((order) => [...order.filter((id) => id !== item.id), item.id]);
        } else setMessage(`The decision was not saved: ${e.message}`);
      },
    });
  };

  /**
   * u: the last decision of this visit (or the one that stood against it) back in the form, as a
   * revision; when this visit decided nothing yet, the caller's last decision in the project, asked
   * of the server.
   */
  const reopen = () => {
    if (decide.isPending) return;
    const id = decidedOrder.at(-1);
    const o = id === undefined ? undefined : outcomes[id];
    if (id === undefined || !o) return reopenEarlier();
    const d = decidedOf(o);
    setForms((f) => ({ ...f, [id]: revisionForm(d) }));
    setOutcomes((all) => Object.fromEntries(Object.entries(all).filter(([k]) => k !== id)));
    setDecidedOrder((order) => order.slice(0, -1));
    go(items.findIndex((it) => it.id === id));
  };

  const reopenEarlier = () => {
    if (projectId === null) return;
    setMessage("Looking for your last decision…");
    fetchLastDecision(projectId).then(
      ({ item: last }) => {
        if (!last) return setMessage("No decision to reopen yet: u reopens your last decision in this project.");
        const { decision: d, ...earlier } = last;
        const position = items.findIndex((it) => it.id === earlier.id);
        setReopened(position >= 0 ? null : earlier);
        setForms((f) => ({ ...f, [earlier.id]: revisionForm(d) }));
        setOutcomes((all) => Object.fromEntries(Object.entries(all).filter(([k]) => k !== earlier.id)));
        setMessage(null);
        setIndex(position >= 0 ? position : (queue.data?.filter((q) => q.id !== earlier.id).length ?? 0));
      },
      (e: unknown) => setMessage(`Could not load your last decision: ${e instanceof Error ? e.message : String(e)}`),
    );
  };

  useAdjudicatorKeys({
    grade: (g) => setForm({ grade: g }),
    take: (i) => item?.labels[i] && setForm(takeLabel(item.labels[i])),
    setStartToPlayhead: () => setForm({ start: playhead() }),
    setEndToPlayhead: () => setForm({ end: playhead() }),
    clearEnd: () => setForm({ end: null }),
    nudgeStart: (d) => setForm((current) => ({ start: Math.max(0, (current.start ?? playhead()) + d) })),
    replay: controls.replay,
    togglePlay: controls.toggle,
    submit,
    reopen,
    back: () => index > 0 && go(index - 1),
    rationale: () => editable && rationaleRef.current?.focus(),
    guidelines: () => setGuide((g) => !g),
    help: () => setHelp((h) => !h),
    escape: () => {
      setHelp(false);
      setGuide(false);
    },
  });

  if (projects.isPending || projects.isError)
    return <ReadState query={projects} loading="Loading…" failed="Could not load the projects" padded />;
  if (projects.data.length === 0) return <p className="p-6 text-slate-600">There are no projects yet.</p>;

  const decidedCount = Object.keys(outcomes).length;
  return (
    <div className="mx-auto max-w-6xl space-y-4 px-4 py-4">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <ProjectPicker
          projects={projects.data}
          value={projectId}
          onChange={(id) => {
            setChosen(id);
            setIndex(0);
            setDecidedOrder([]);
          }}
        />
        <div className="flex items-center gap-4">
          <AnswerDisagreementsLink projectId={projectId} />
          <Meter label="Decided this visit" done={decidedCount} total={items.length} />
          <KeysButton onClick={() => setHelp((h) => !h)} />
        </div>
      </header>
      {queue.isPending || queue.isError ? (
        <ReadState query={queue} loading="Loading the disagreements…" failed="Could not load the disagreements" />
      ) : !item || !form ? (
        <EndOfQueueCard heading={items.length === 0 ? "No disagreements to decide" : "End of the disagreements"}>
          <p className="text-sm text-slate-600">
            {items.length > 0
              ? `${decidedCount} of ${items.length} decided. Press u to reopen the last decision, Backspace to go back.`
              : "Every item is agreed or decided."}
          </p>
          <ReopenButton onReopen={reopen} />
          {message ? (
            <p role="status" className="text-sm text-amber-800">
              {message}
            </p>
          ) : null}
        </EndOfQueueCard>
      ) : (
        <article data-item-id={item.id} data-ready="true" aria-label="Disagreement" className="space-y-4">
          <p className="text-sm text-slate-600">
            Disagreement {index + 1} of {items.length}
            {form.revises !== undefined ? ` · revising decision ${form.revises}` : ""}
          </p>
          <h1 className="text-lg font-semibold" data-testid="question">
            {item.question}
          </h1>
          <div className="grid gap-4 md:grid-cols-2">
            <VideoPlayer
              src={item.video.src}
              cueSeconds={item.chunk.startSeconds}
              cueKey={item.id}
              mediaRef={mediaRef}
              title={item.video.title}
            />
            <Transcript key={item.id} chunk={item.chunk} before={item.before} after={item.after} />
          </div>
          <LabelsAB labels={item.labels} />
          {outcome?.kind === "standing" ? (
            <div role="alert" className="rounded border border-amber-400 bg-amber-50 p-3 text-sm">
              <p className="font-semibold">Another adjudicator decided this item first. The decision that stands:</p>
              <p data-testid="standing">
                grade {outcome.standing.grade}, start {clock(outcome.standing.startSeconds)}
                {endText(outcome.standing.endSeconds)}
                {outcome.standing.rationale ? `: “${outcome.standing.rationale}”` : ""}
              </p>
              <p>Press Enter for the next item, or u to revise the decision that stands.</p>
            </div>
          ) : outcome?.kind === "decided" ? (
            <p role="status" className="text-sm text-green-800">
              Decided: grade {outcome.grade}, start {clock(outcome.startSeconds)}
              {endText(outcome.endSeconds)}
              {outcome.revision > 1 ? ` (revision ${outcome.revision})` : ""}.
            </p>
          ) : null}
          <fieldset disabled={!editable || decide.isPending} className="space-y-3">
            <legend className="text-sm font-semibold">Final label</legend>
            <GradeBar
              value={form.grade}
              onChoose={(g) => setForm({ grade: g })}
              highlight={item.labels.map((l) => l.grade)}
            />
            <FinalStart
              value={form.start}
              grade={form.grade}
              chunkStart={item.chunk.startSeconds}
              onChange={(s) => setForm({ start: s })}
              onPlayhead={() => setForm({ start: playhead() })}
            />
            {form.grade !== 0 ? (
              <EndControl
                value={form.end}
                onPlayhead={() => setForm({ end: playhead() })}
                onClear={() => setForm({ end: null })}
              />
            ) : null}
            <RationaleField
              fieldRef={rationaleRef}
              value={form.rationale}
              onChange={(rationale) => setForm({ rationale })}
            />
          </fieldset>
          <SubmitRow
            submitLabel={outcome ? "Next item" : "Decide and next"}
            submitText={outcome ? "next" : "decide and next"}
            onSubmit={submit}
            backKey="Backspace"
            backDisabled={index === 0}
            onBack={() => go(index - 1)}
            extra={<ReopenButton onReopen={reopen} />}
            message={message}
          />
        </article>
      )}
      <GuidelinesPanel open={guide} guidelines={project?.guidelines ?? ""} onClose={() => setGuide(false)} />
      <PlayerKeysFooter next={next} help={help} onCloseHelp={() => setHelp(false)} keys={ADJUDICATOR_KEYS} />
    </div>
  );
}
