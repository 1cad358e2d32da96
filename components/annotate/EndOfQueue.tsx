import { EndOfQueueCard } from "@/components/grading/QueueStates";

/**
 * The end card: where going on ends. Says "done" when every item is graded;
 * otherwise how many are left, with a way to the first of them (the server's "where you left off").
 */
export function EndOfQueue({
  counts,
  onFirstOpen,
}: {
  counts: { done: number; total: number } | undefined;
  onFirstOpen: () => void;
}) {
  const left = counts ? counts.total - counts.done : null;
  return (
    <EndOfQueueCard heading="End of your queue" spaced>
      {left === 0 && counts ? (
        <p role="status" className="text-sm font-medium text-green-800" data-testid="all-done">
          Done: all {counts.total} of your items in this project are graded. Nothing is left to grade here.
        </p>
      ) : left !== null && left > 0 ? (
        <p className="text-sm text-slate-700">
          {counts?.done} of {counts?.total} items graded; {left} not graded yet.{" "}
          <button type="button" className="underline" onClick={onFirstOpen}>
            Go to the first item not graded
          </button>
        </p>
      ) : null}
      <p className="text-sm text-slate-600">
        Press <kbd>u</kbd> to go back to the last item: a graded item changes only when you change its grade, start,
        flags or notes.
      </p>
    </EndOfQueueCard>
  );
}
