import { FLAGS, GRADES, formatClock } from "@/lib/annotate/format";
import type { TAdjudicatorLabel } from "@/lib/annotate/adjudicate";

/** The annotators' labels side by side as A, B, …; fields on which they differ are highlighted. */
export function LabelsAB({ labels }: { labels: TAdjudicatorLabel[] }) {
  const differs = (f: (l: TAdjudicatorLabel) => unknown) => new Set(labels.map((l) => JSON.stringify(f(l)))).size > 1;
  const mark = (on: boolean) => (on ? "bg-amber-100 font-semibold" : "");
  const gradeDiff = differs((l) => l.grade);
  const startDiff = differs((l) => l.startSeconds);
  const endDiff = differs((l) => l.endSeconds);
  const clock = (s: number | null) => (s === null ? "—" : formatClock(s));
  return (
    <table className="w-full border-collapse text-sm" aria-label="Annotators' labels">
      <thead>
        <tr className="text-left text-slate-500">
          <th className="p-1">Annotator</th>
          <th className="p-1">Grade</th>
          <th className="p-1">Start</th>
          <th className="p-1">End</th>
          <th className="p-1">Notes</th>
          <th className="p-1">Flags</th>
        </tr>
      </thead>
      <tbody>
        {labels.map((l) => (
          <tr key={l.label} className="border-t border-slate-200" data-testid={`label-${l.label}`}>
            <th scope="row" className="p-1 text-left">
              {l.label}
            </th>
            <td className={`p-1 ${mark(gradeDiff)}`}>
              {l.grade} <span className="text-xs text-slate-600">{GRADES[l.grade]?.meaning}</span>
              {l.history.length > 1 ? (
                <span className="block text-xs text-slate-600" data-testid={`history-${l.label}`}>
                  edited: {l.history.join(" → ")}
                </span>
              ) : null}
            </td>
            <td className={`p-1 font-mono ${mark(startDiff)}`}>{clock(l.startSeconds)}</td>
            <td className={`p-1 font-mono ${mark(endDiff)}`} data-testid={`end-${l.label}`}>
              {clock(l.endSeconds)}
            </td>
            <td className="p-1 whitespace-pre-wrap">{l.notes || "—"}</td>
            <td className="p-1">{l.flags.map((f) => FLAGS.find((x) => x.id === f)?.label ?? f).join(", ") || "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
