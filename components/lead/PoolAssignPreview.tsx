import type { TPoolResult } from "@/lib/pooling/build";
import type { TAssignResult } from "@/lib/assignment/assign";
import { Button } from "./ui";

const n = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString("en")} ${count === 1 ? one : many}`;

/** What a pool build does or did, in sentences. */
export function poolSentences(r: TPoolResult, done: boolean): string[] {
  const verb = done ? "added" : "will add";
  const out = [
    `The top ${r.depth} of ${n(r.runs.length, "run")} (${r.runs.join(", ")}) over ${n(r.queries, "question")} ${done ? "gave" : "give"} ${n(r.pooledResults, "result")}.`,
    r.newItems === 0
      ? `Nothing new: every one of them is in the pool already (${n(r.totalItems, "item")}).`
      : `This ${verb} ${n(r.newItems, "new item")} to the pool, ${n(r.totalItems, "item")} in all.`,
  ];
  if (typeof r.saved === "number")
    out.push(`Label transfer ${done ? "saved" : "saves"} ${n(r.saved, "item")} of chunking ${r.chunking ?? ""}.`);
  if (r.movedProvenance > 0)
    out.push(
      `${n(r.movedProvenance, "pooled result")} ${done ? "were" : "will be"} re-ranked as the replaced runs rank them now.`,
    );
  return out;
}

/** What an assignment does or did, in sentences. */
export function assignSentences(r: TAssignResult, done: boolean, noun = "pool item"): string[] {
  const who = r.annotators.filter((a) => a.added > 0).map((a) => `${a.email} +${a.added}`);
  const out = [
    r.created === 0
      ? `Nothing to assign: each of the ${n(r.items, noun === "pool item" ? "item" : noun)} already has ${r.perItem} annotator${r.perItem === 1 ? "" : "s"}.`
      : `${done ? "Made" : "This will make"} ${n(r.created, "assignment")} on ${n(r.itemsToppedUp, noun)} (${r.perItem} annotator${r.perItem === 1 ? "" : "s"} per ${noun === "pool item" ? "item" : noun})${who.length ? `: ${who.join(", ")}` : ""}.`,
  ];
  if (r.calibration > 0)
    out.push(`${n(r.calibration, "assignment")} ${done ? "are" : "will be"} marked as calibration.`);
  if (r.shortfall > 0)
    out.push(
      `${n(r.shortfall, "item")} ${done ? "stay" : "will stay"} short of ${r.perItem} annotators: too few annotators are left for them.`,
    );
  return out;
}

/** A preview with its confirmation, or the report of what was done with the next step. */
export function PreviewBox({
  title,
  sentences,
  confirmLabel,
  busy,
  onConfirm,
  onCancel,
  cancelLabel = "Change the settings",
}: {
  title: string;
  sentences: string[];
  confirmLabel: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  cancelLabel?: string;
}) {
  return (
    <div
      role="group"
      aria-label={title}
      className="mt-3 space-y-2 rounded border border-indigo-200 bg-indigo-50 p-3 text-sm"
    >
      <p className="font-medium">{title}</p>
      {sentences.map((s) => (
        <p key={s}>{s}</p>
      ))}
      <div className="flex flex-wrap gap-2">
        <Button disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {cancelLabel}
        </Button>
      </div>
    </div>
  );
}

export function DoneBox({ sentences, next }: { sentences: string[]; next: { href: string; text: string } }) {
  return (
    <div
      role="status"
      className="mt-3 space-y-1 rounded border border-green-200 bg-green-50 p-3 text-sm text-green-900"
    >
      {sentences.map((s) => (
        <p key={s}>{s}</p>
      ))}
      <p>
        Next:{" "}
        <a href={next.href} className="text-indigo-700 underline">
          {next.text}
        </a>
      </p>
    </div>
  );
}
