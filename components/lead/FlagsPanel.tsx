"use client";

import Link from "next/link";
import { useState } from "react";
import { FLAGS, formatClock } from "@/lib/annotate/format";
import { useFlaggedItems } from "@/lib/query/lead";
import { ErrorBox, Section, inputClass } from "./ui";
import { ScrollRegion } from "@/components/shell/ScrollRegion";

type TFilter = "all" | "unsure" | "transcript_error" | "notes";
const FILTERS: [TFilter, string][] = [
  ["all", "Any flag or note"],
  ["unsure", "Unsure"],
  ["transcript_error", "Transcript error"],
  ["notes", "With notes"],
];
const flagLabel = (id: string) => FLAGS.find((f) => f.id === id)?.label ?? id;

/** The annotators' flags and notes, filterable; disagreements link to the adjudicator's page. */
export function FlagsPanel({ projectId }: { projectId: number }) {
  const items = useFlaggedItems(projectId);
  const [filter, setFilter] = useState<TFilter>("all");
  const shown = (items.data ?? []).filter(
    (it) => filter === "all" || (filter === "notes" ? it.hasNotes : it.flags.includes(filter)),
  );
  return (
    <Section
      title="Flags and notes"
      id="flags"
      description="Items an annotator marked unsure or as a transcript error, or wrote a note on. Exports carry the same flags and notes."
    >
      <ErrorBox error={items.error} />
      <label className="flex items-center gap-2 text-sm">
        Show
        <select
          className={`${inputClass} w-auto`}
          value={filter}
          onChange={(e) => setFilter(e.target.value as TFilter)}
        >
          {FILTERS.map(([id, label]) => (
            <option key={id} value={id}>
              {label}
            </option>
          ))}
        </select>
        <span className="text-slate-600" data-testid="flags-count">
          {items.data ? `${shown.length} of ${items.data.length} item(s)` : "…"}
        </span>
      </label>
      {shown.length > 0 ? (
        <ScrollRegion label="Flagged items">
          <table className="mt-3 w-full text-sm" aria-label="Flagged items">
            <thead className="text-left text-xs text-slate-600">
              <tr>
                <th className="pr-3">Question</th>
                <th className="pr-3">Chunk</th>
                <th className="pr-3">Stage</th>
                <th>Flags and notes</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((it) => (
                <tr
                  key={it.poolItemId}
                  className="border-t border-slate-100 align-top"
                  data-flagged-item={`${it.qid}/${it.docid}`}
                >
                  <td className="py-1 pr-3">
                    <div>{it.question}</div>
                    <div className="text-xs text-slate-600">{it.qid}</div>
                  </td>
                  <td className="py-1 pr-3">
                    {it.docid}
                    <div className="text-xs text-slate-600">
                      {it.video} at {formatClock(it.chunkStart)}
                    </div>
                  </td>
                  <td className="py-1 pr-3">
                    {it.stage === "awaiting_adjudication" ? (
                      <Link href={`/adjudicate?project=${projectId}`} className="text-indigo-700 underline">
                        awaiting adjudication
                      </Link>
                    ) : (
                      it.stage.replaceAll("_", " ")
                    )}
                  </td>
                  <td className="py-1">
                    <ul>
                      {it.entries.map((e, i) => (
                        <li key={i}>
                          <span className="font-medium">{e.annotator}</span> (grade {e.grade})
                          {e.flags.length ? `: ${e.flags.map(flagLabel).join(", ")}` : ""}
                          {e.notes ? (
                            <span className="block whitespace-pre-wrap text-slate-700">“{e.notes}”</span>
                          ) : null}
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : items.data ? (
        <p className="mt-2 text-sm text-slate-600">No item {filter === "all" ? "has a flag or a note" : "matches"}.</p>
      ) : null}
    </Section>
  );
}
