import type { TAnnotatorItem } from "@/lib/annotate/view";
import { FLAGS, GRADES, formatClock } from "@/lib/annotate/format";

/** What a grade key says on an item of a project whose grading the lead closed. */
export const CLOSED_MESSAGE = "Grading is closed in this project: items are read-only (Enter: next item, u: back).";

/**
 * An item of a project whose grading the lead closed (lib/projects/grading.ts): read-only, showing
 * the annotator's own grade as the server holds it and nothing else. Every item of the project is
 * shown this way, whatever its state, so it tells nothing about the other annotators or an adjudication.
 */
export function ClosedItem({ closedAt, own }: { closedAt: string; own: TAnnotatorItem["own"] }) {
  const flags = own ? FLAGS.filter((f) => own.flags.includes(f.id)).map((f) => f.label) : [];
  return (
    <section
      aria-label="Your grade (read-only)"
      data-testid="closed-item"
      className="space-y-1 rounded-md border border-slate-300 bg-slate-50 p-3 text-sm"
    >
      <p className="font-medium">
        Grading in this project was closed by the lead on {new Date(closedAt).toLocaleString()}: this item is read-only.
      </p>
      {own ? (
        <p data-testid="closed-own">
          You graded it <span className="font-semibold">{own.grade}</span> (
          {GRADES.find((g) => g.grade === own.grade)?.meaning ?? ""}),{" "}
          {own.startSeconds === null ? "no start" : `start ${formatClock(own.startSeconds)}`}
          {flags.length ? `, flagged ${flags.join(", ")}` : ""}
          {own.notes ? `; your note: ${own.notes}` : ""}.
        </p>
      ) : (
        <p data-testid="closed-own">You did not grade this item.</p>
      )}
    </section>
  );
}

/**
 * On an item the annotator graded before: the same words whatever the item's state, so nothing
 * about the other annotators' grades or an adjudication can be read from it (the
 * server accepts every edit of one's own grade alike).
 */
export function RevisitNote({ grade }: { grade: number }) {
  return (
    <p className="text-xs text-slate-700" data-testid="revisit-note">
      You graded this item <span className="font-semibold">{grade}</span>. Enter goes on and leaves it as it is; a new
      grade replaces yours; if the item has been adjudicated already, the adjudicator&apos;s decision stands and your
      change is shown to them.
    </p>
  );
}
