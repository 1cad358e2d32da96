import { StartControl } from "@/components/annotate/parts";
import { TimeGroup } from "@/components/annotate/TimeGroup";

/**
 * The final start: the annotators' when they agree within the tolerance, else none until chosen
 * (a / b take an annotator's, s the playhead). A grade-0 label has no start.
 */
export function FinalStart({
  value,
  grade,
  chunkStart,
  onChange,
  onPlayhead,
}: {
  value: number | null;
  grade: number | null;
  chunkStart: number;
  onChange: (s: number) => void;
  onPlayhead: () => void;
}) {
  if (grade === 0)
    return (
      <p className="text-sm text-slate-600" data-testid="start" data-seconds="">
        Start: none (a grade-0 label has no start)
      </p>
    );
  if (value !== null)
    return <StartControl value={value} chunkStart={chunkStart} onChange={onChange} onPlayhead={onPlayhead} />;
  return (
    <TimeGroup label="Corrected start" name="Start" testId="start" seconds="" shown="not chosen" gap="gap-2">
      <span className="text-slate-600">
        The annotators&apos; starts differ by more than the tolerance: a or b takes one, s the playhead.
      </span>
      <button
        type="button"
        className="rounded border border-slate-300 bg-white px-2 py-1 text-xs"
        aria-label="Set start to playhead"
        onClick={onPlayhead}
      >
        s: at playhead
      </button>
    </TimeGroup>
  );
}
