"use client";

import type { RefObject } from "react";
import type { TAnswerClaimView } from "@/lib/answers/view";
import { CLAIM_LABEL_NAMES, type TClaimLabel } from "@/lib/answers/labels";
import { RELEVANCE, type TAnswerForm } from "./form";

const LABEL_STYLE: Record<TClaimLabel, string> = {
  s: "bg-emerald-100 text-emerald-900",
  p: "bg-amber-100 text-amber-900",
  n: "bg-red-100 text-red-900",
  x: "bg-sky-100 text-sky-900",
};

/** How many claims are labelled, then the claims with their labels; a click puts the cursor on a claim. */
export function ClaimList({
  claims,
  form,
  setForm,
}: {
  claims: TAnswerClaimView[];
  form: TAnswerForm;
  setForm: (f: TAnswerForm) => void;
}) {
  return (
    <>
      <p className="text-xs text-slate-600" data-testid="claims-labelled">
        {form.labels.filter((l) => l !== null).length} of {form.labels.length} claims labelled
      </p>
      <ol aria-label="Claims" className="space-y-1">
        {claims.map((c, i) => {
          const l = form.labels[i];
          const current = form.cursor === i;
          return (
            <li
              key={`${form.claimVersion}:${c.position}`}
              data-testid="claim"
              data-label={l ?? ""}
              aria-current={current ? "true" : undefined}
              className={`flex items-start gap-2 rounded border p-2 text-sm ${current ? "border-indigo-600 ring-2 ring-indigo-300" : "border-slate-200"}`}
              onClick={() => setForm({ ...form, cursor: i })}
            >
              <span className="font-mono text-slate-500">{i + 1}.</span>
              <span className="flex-1">{c.text}</span>
              <span
                className={`rounded px-1 font-mono text-xs ${l ? LABEL_STYLE[l] : "text-slate-400"}`}
                title={l ? CLAIM_LABEL_NAMES[l] : "no label yet"}
              >
                {l ?? "·"}
              </span>
            </li>
          );
        })}
      </ol>
    </>
  );
}

/** m: the merge of claim `at` with the next one, waiting for Enter (Esc cancels). */
export function ConfirmMerge({ at }: { at: number }) {
  return (
    <div
      role="alertdialog"
      aria-label="Merge the claims"
      data-testid="confirm-merge"
      className="rounded border border-amber-400 bg-amber-50 p-2 text-sm"
    >
      Merge claims {at + 1} and {at + 2} into one (your own claims; no one else&apos;s change)? Enter merges, Esc
      cancels.
    </div>
  );
}

/** /: the claim's text with a caret; Enter splits it at the caret (`at` until the caret moves). */
export function SplitDialog({
  text,
  at,
  inputRef,
  onSplit,
}: {
  text: string;
  at: number;
  inputRef: RefObject<HTMLInputElement | null>;
  onSplit: (at: number) => void;
}) {
  return (
    <div role="dialog" aria-label="Split the claim" className="space-y-1 rounded border border-slate-300 p-2 text-sm">
      <p>
        Move the caret to where the claim splits, then Enter splits it there (your own claims; no one else&apos;s
        change). Esc cancels.
      </p>
      <input
        ref={inputRef}
        aria-label="Claim to split"
        className="w-full rounded border border-slate-300 p-1 font-mono text-xs"
        value={text}
        onChange={() => undefined}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            onSplit(e.currentTarget.selectionStart ?? at);
          }
        }}
      />
    </div>
  );
}

/** The answer's relevance 0–3 (the step after the last claim): a choice submits. */
export function RelevanceBar({ form, onChoose }: { form: TAnswerForm; onChoose: (grade: number) => void }) {
  return (
    <div
      role="group"
      aria-label="Relevance"
      className={`grid grid-cols-2 gap-2 rounded p-1 sm:grid-cols-4 ${form.cursor >= form.labels.length ? "ring-2 ring-indigo-300" : ""}`}
      data-testid="relevance"
      data-value={form.relevance ?? ""}
    >
      {RELEVANCE.map((r) => (
        <button
          key={r.grade}
          type="button"
          aria-pressed={form.relevance === r.grade}
          className={`rounded border px-2 py-1 text-left text-xs ${form.relevance === r.grade ? "border-indigo-700 bg-indigo-50" : "border-slate-300"}`}
          onClick={() => onChoose(r.grade)}
        >
          <span className="font-mono font-semibold">{r.grade}</span> {r.name}
        </button>
      ))}
    </div>
  );
}
