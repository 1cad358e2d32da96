"use client";

import Markdown from "react-markdown";
import { GRADES } from "@/lib/annotate/format";

/**
 * The project's guidelines (`g`): the grade meanings first, then the lead's Markdown with its
 * examples. react-markdown renders no raw HTML and drops javascript: links, so a lead's text
 * cannot run script in an annotator's page.
 */
export function GuidelinesPanel({ open, guidelines, onClose }: { open: boolean; guidelines: string; onClose: () => void }) {
  if (!open) return null;
  return (
    <div role="dialog" aria-modal="false" aria-label="Guidelines" className="fixed right-4 top-16 z-20 max-h-[80vh] w-[32rem] overflow-y-auto rounded-md border border-slate-300 bg-white p-4 shadow-lg">
      <h2 className="mb-2 font-semibold">Guidelines</h2>
      <dl className="mb-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm" aria-label="Grade meanings">
        {GRADES.map((g) => (
          <div key={g.grade} className="contents">
            <dt className="font-mono font-semibold">{g.grade}</dt>
            <dd>{g.meaning}</dd>
          </div>
        ))}
      </dl>
      <div data-testid="guidelines-text" className="guidelines space-y-2 border-t border-slate-200 pt-3 text-sm">
        {guidelines.trim() ? <Markdown>{guidelines}</Markdown> : <p className="text-slate-500">The project lead has not written guidelines yet.</p>}
      </div>
      <button type="button" className="mt-3 rounded border border-slate-300 px-2 py-1 text-sm" onClick={onClose}>
        Close (Esc)
      </button>
    </div>
  );
}
