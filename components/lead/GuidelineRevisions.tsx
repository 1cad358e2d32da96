"use client";

import { useState } from "react";
import { useGuidelineRevisions, useGuidelinesDiff } from "@/lib/query/guidelines";
import { ErrorBox } from "./ui";

/** One end of the compared pair: a revision number (0: before the first). */
function RevisionSelect({
  id,
  value,
  numbers,
  onChange,
}: {
  id: string;
  value: number;
  numbers: number[];
  onChange: (revision: number) => void;
}) {
  return (
    <select
      id={id}
      value={value}
      onChange={(e) => onChange(Number(e.target.value))}
      className="rounded border border-slate-300 p-1"
    >
      {numbers.map((n) => (
        <option key={n} value={n}>
          {n}
        </option>
      ))}
    </select>
  );
}

/**
 * The guidelines' revisions (who saved each, when), how much was graded under older ones, and the
 * line diff between two revisions (by default the last two).
 */
export function GuidelineRevisions({ projectId }: { projectId: number }) {
  const list = useGuidelineRevisions(projectId);
  const revisions = list.data?.revisions ?? [];
  const latest = revisions[0]?.revision ?? 0;
  const [pick, setPick] = useState<{ from: number; to: number } | null>(null);
  const from = pick?.from ?? Math.max(0, latest - 1);
  const to = pick?.to ?? latest;
  const diff = useGuidelinesDiff(projectId, latest > 0 ? from : null, latest > 0 ? to : null);
  const older = list.data?.older;
  const numbers = [...revisions.map((r) => r.revision), 0];

  return (
    <div className="space-y-3 border-t border-slate-200 pt-3" data-testid="guideline-revisions">
      <h3 className="text-sm font-semibold">Revisions</h3>
      <ErrorBox error={list.error ?? diff.error} />
      {older ? (
        <p className="text-sm" data-testid="older-guidelines">
          Revision {older.current}. Graded under older guidelines: {older.items} item(s), {older.judgements} grade(s)
          {older.regradeRequested ? ` (${older.regradeRequested} sent back for a second look)` : ""}; decided under
          older guidelines: {older.adjudications}. Send them back with{" "}
          <code>npx assessor assign --regrade-older-guidelines [--sample N]</code>.
        </p>
      ) : null}
      {older && list.data?.olderAnswers.labels ? (
        <p className="text-sm" data-testid="older-answer-guidelines">
          Answers labelled under older guidelines: {list.data.olderAnswers.answers} answer(s),{" "}
          {list.data.olderAnswers.labels} label(s)
          {list.data.olderAnswers.regradeRequested
            ? ` (${list.data.olderAnswers.regradeRequested} sent back for a second look)`
            : ""}
          ; decided under older guidelines: {list.data.olderAnswers.adjudications}. Send them back with{" "}
          <code>npx assessor assign --answers --regrade-older-guidelines [--sample N]</code>.
        </p>
      ) : null}
      {revisions.length ? (
        <ul className="text-sm">
          {revisions.map((r) => (
            <li key={r.revision}>
              Revision {r.revision}: {new Date(r.createdAt).toLocaleString()}, {r.author ? r.author.name : "imported"},{" "}
              {r.chars} characters
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-600">No revision saved yet.</p>
      )}
      {latest > 0 ? (
        <div className="space-y-2">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <label htmlFor="diff-from">Compare revision</label>
            <RevisionSelect id="diff-from" value={from} numbers={numbers} onChange={(n) => setPick({ from: n, to })} />
            <label htmlFor="diff-to">with</label>
            <RevisionSelect id="diff-to" value={to} numbers={numbers} onChange={(n) => setPick({ from, to: n })} />
            {diff.data ? (
              <span data-testid="diff-summary">
                {diff.data.added} line(s) added, {diff.data.removed} removed
              </span>
            ) : null}
          </div>
          {diff.data ? (
            <pre
              className="max-h-80 overflow-auto rounded border border-slate-200 p-2 text-xs"
              data-testid="guidelines-diff"
              tabIndex={0}
              aria-label={`Changes from revision ${diff.data.from} to ${diff.data.to}`}
            >
              {diff.data.parts.map((p, i) =>
                p.kind === "added" ? (
                  <ins key={i} className="block bg-green-50 text-green-900 no-underline">
                    {prefixLines(p.text, "+ ")}
                  </ins>
                ) : p.kind === "removed" ? (
                  <del key={i} className="block bg-red-50 text-red-900">
                    {prefixLines(p.text, "- ")}
                  </del>
                ) : (
                  <span key={i} className="block text-slate-600">
                    {prefixLines(p.text, "  ")}
                  </span>
                ),
              )}
            </pre>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

const prefixLines = (text: string, mark: string) =>
  text
    .replace(/\n$/, "")
    .split("\n")
    .map((l) => `${mark}${l}`)
    .join("\n");
