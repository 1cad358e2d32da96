import type { TClaimLabel } from "@/lib/answers/labels";

/**
 * The answer form as plain functions (no React): one label per claim (null until given), the
 * relevance, and the cursor — a claim (0 … n − 1) or the relevance step (n).
 */
export type TAnswerForm = {
  claimVersion: number;
  labels: (TClaimLabel | null)[];
  relevance: number | null;
  cursor: number;
  notes: string;
};

export function initialAnswerForm(answer: {
  claimVersion: number;
  claims: readonly unknown[];
  own: { claimVersion: number; claimLabels: TClaimLabel[]; relevance: number; notes: string } | null;
}): TAnswerForm {
  const n = answer.claims.length;
  const own =
    answer.own && answer.own.claimVersion === answer.claimVersion && answer.own.claimLabels.length === n
      ? answer.own
      : null;
  const labels = own ? [...own.claimLabels] : Array.from({ length: n }, () => null);
  return {
    claimVersion: answer.claimVersion,
    labels,
    relevance: own?.relevance ?? null,
    cursor: own ? n : 0,
    notes: answer.own?.notes ?? "",
  };
}

/** Labels the claim under the cursor and moves on (to the relevance step after the last claim). */
export function labelClaim(f: TAnswerForm, label: TClaimLabel): TAnswerForm {
  if (f.cursor >= f.labels.length) return f;
  const labels = f.labels.map((l, i) => (i === f.cursor ? label : l));
  return { ...f, labels, cursor: f.cursor + 1 };
}

export function moveCursor(f: TAnswerForm, step: number): TAnswerForm {
  return { ...f, cursor: Math.max(0, Math.min(f.labels.length, f.cursor + step)) };
}

/** The first claim without a label, or -1. */
export const firstUnlabelled = (f: TAnswerForm) => f.labels.findIndex((l) => l === null);

/** After a merge of claims i and i + 1: their labels give way to one unlabelled claim (to be labelled again); the cursor on it. */
export function afterMerge(f: TAnswerForm, i: number, version: number): TAnswerForm {
  return { ...f, claimVersion: version, labels: [...f.labels.slice(0, i), null, ...f.labels.slice(i + 2)], cursor: i };
}

/** After a split of claim i: two unlabelled claims in its place; the cursor on the first. */
export function afterSplit(f: TAnswerForm, i: number, version: number): TAnswerForm {
  return {
    ...f,
    claimVersion: version,
    labels: [...f.labels.slice(0, i), null, null, ...f.labels.slice(i + 1)],
    cursor: i,
  };
}

/** A split point near the middle of a claim: the space closest to it (the dialog's starting caret). */
export function defaultSplitAt(text: string): number {
  const mid = Math.floor(text.length / 2);
  for (let d = 0; d < text.length; d++) {
    if (text[mid + d] === " " && mid + d > 0) return mid + d;
    if (text[mid - d] === " " && mid - d > 0) return mid - d;
  }
  return mid;
}

/** Key: claim label. */
export const LABEL_KEYS: Record<string, TClaimLabel> = { s: "s", p: "p", n: "n", x: "x" };

export const ANSWER_KEYS: [string, string][] = [
  ["s", "the claim is supported by the context"],
  ["p", "partly supported"],
  ["n", "not supported by the context"],
  ["x", "true per the video, but absent from the context"],
  ["j / ↓, k / ↑", "next / previous claim"],
  ["1–9 (on a claim)", "play context chunk 1–9 at its start"],
  [
    "0–3 (after the last claim)",
    "the answer's relevance: 0 does not address the question … 3 answers it fully; submits and goes on",
  ],
  ["m", "merge the claim with the next one (Enter confirms, Esc cancels): your own claims, no one else's change"],
  ["/", "split the claim (choose the place, Enter): your own claims"],
  ["e", "edit an answer you already labelled (it changes only then)"],
  ["Space / r", "play or pause / replay the chunk"],
  ["Enter", "submit and go on to the next unfinished answer (a labelled answer not edited is not sent again)"],
  ["u / Backspace", "previous answer"],
  ["g", "the project's guidelines"],
  ["?", "these keys"],
];

/** The answer's relevance grades (the relevance bar, the guidelines' meanings). */
export const RELEVANCE: { grade: number; name: string }[] = [
  { grade: 0, name: "does not address the question" },
  { grade: 1, name: "touches it" },
  { grade: 2, name: "answers it partly" },
  { grade: 3, name: "answers it fully" },
];
