"use client";

import type { TOutboxFailure } from "@/lib/offline/outbox";
import type { TAnswerQueueItem } from "@/lib/answers/view";
import { NotSavedAlert } from "@/components/grading/NotSaved";
import { EndOfQueueCard } from "@/components/grading/QueueStates";

/** The outbox: labels waiting to be sent (Retry now), else all saved. */
export function OutboxStatus({ pending, onRetry }: { pending: number; onRetry: () => void }) {
  return (
    <div role="status" aria-live="polite" className="text-xs text-slate-600" data-testid="outbox">
      {pending > 0 ? (
        <>
          {pending} label{pending === 1 ? "" : "s"} waiting to be sent{" "}
          <button type="button" className="underline" onClick={onRetry}>
            Retry now
          </button>
        </>
      ) : (
        "All labels saved."
      )}
    </div>
  );
}

/** Answer labels the server refused, each with its answer's place in the queue (Open answer) until dismissed. */
export function FailedLabels({
  failed,
  flat,
  onOpen,
  onDismiss,
}: {
  failed: readonly TOutboxFailure[];
  flat: TAnswerQueueItem[];
  onOpen: (id: string) => void;
  onDismiss: (key: string) => void;
}) {
  return (
    <NotSavedAlert
      failed={failed}
      label="Labels not saved"
      noun="label"
      testId="failed-labels"
      row={(f) => {
        const place = flat.find((x) => x.id === f.entry.itemId);
        return (
          <li key={f.entry.key} className="flex flex-wrap items-center gap-2">
            <span>
              {/* The same text nodes as before the split (" (HTTP", " ", the status): the same markup. */}
              {place ? `Answer ${place.index}` : "An answer no longer in your queue"}: {f.message}
              {" (HTTP"} {f.status})
            </span>
            {place ? (
              <button type="button" className="underline" onClick={() => onOpen(place.id)}>
                Open answer
              </button>
            ) : null}
            <button type="button" className="underline" aria-label="Dismiss" onClick={() => onDismiss(f.entry.key)}>
              Dismiss
            </button>
          </li>
        );
      }}
    />
  );
}

/** No answer left to show: all labelled, or the end of the queue with some still open (u goes back). */
export function AnswersEnd({ done, total }: { done: number; total: number }) {
  return (
    <EndOfQueueCard heading={done >= total ? "All your answers are labelled" : "End of your answers"}>
      <p className="text-sm text-slate-600" data-testid="answers-done">
        {done >= total
          ? `You labelled all ${total} answers assigned to you. `
          : `${total - done} of your answers are not labelled yet. `}
        Press <kbd>u</kbd> to go back to the last answer.
      </p>
    </EndOfQueueCard>
  );
}
