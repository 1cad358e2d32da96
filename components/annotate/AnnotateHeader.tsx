import { KeysButton } from "@/components/grading/GradingControls";
import { Meter } from "./parts";

type TCount = { done: number; total: number };

/** The annotate page's header: the position in the queue, the meters, auto-advance, and the guidelines and keys buttons. */
export function AnnotateHeader({
  position,
  question,
  overall,
  autoAdvance,
  onAutoAdvance,
  guide,
  onGuide,
  onKeys,
}: {
  position: string;
  question: TCount | undefined;
  overall: TCount | undefined;
  autoAdvance: boolean;
  onAutoAdvance: (on: boolean) => void;
  guide: boolean;
  onGuide: () => void;
  onKeys: () => void;
}) {
  return (
    <header className="flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-600" data-testid="position">
        {position}
      </p>
      <div className="flex flex-wrap items-center gap-4">
        {question ? <Meter label="This question" done={question.done} total={question.total} /> : null}
        {overall ? <Meter label="Overall" done={overall.done} total={overall.total} /> : null}
        <label className="flex items-center gap-1 text-xs">
          <input type="checkbox" checked={autoAdvance} onChange={(e) => onAutoAdvance(e.target.checked)} />
          Auto-advance after grade
        </label>
        <button
          type="button"
          className="rounded border border-slate-300 px-2 py-0.5 text-xs"
          aria-label={`g guidelines: ${guide ? "hide" : "show"} the guidelines`}
          aria-expanded={guide}
          onClick={onGuide}
        >
          g guidelines
        </button>
        <KeysButton onClick={onKeys} />
      </div>
    </header>
  );
}

/**
 * Whether every grade reached the server, or how many wait in the outbox (with a retry). Grades the
 * server refused (`failed`, listed by FailedGrades) are not saved: then it never says "All grades
 * saved.".
 */
export function OutboxStatus({
  pending,
  failed,
  signedOut,
  onRetry,
}: {
  pending: number;
  failed: number;
  signedOut: boolean;
  onRetry: () => void;
}) {
  return (
    <div role="status" aria-live="polite" className="text-xs text-slate-600" data-testid="outbox">
      {failed > 0 && pending === 0 ? (
        `${failed} grade${failed === 1 ? " was" : "s were"} not saved (listed below); every other grade is saved.`
      ) : pending > 0 ? (
        <>
          {pending} grade{pending === 1 ? "" : "s"} waiting to be sent{signedOut ? " (signed out)" : ""}{" "}
          <button type="button" className="underline" onClick={onRetry}>
            Retry now
          </button>
        </>
      ) : (
        "All grades saved."
      )}
    </div>
  );
}
