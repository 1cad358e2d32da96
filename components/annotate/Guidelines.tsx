"use client";

import Markdown from "react-markdown";
import { GRADES } from "@/lib/annotate/format";
import { remarkPipeTables } from "@/lib/markdown/pipe-tables";

/**
 * The project's guidelines (`g`): the grade meanings first, then the lead's Markdown with its
 * examples (pipe tables included: lib/markdown/pipe-tables.ts). react-markdown renders no raw HTML
 * and drops javascript: links, so a lead's text cannot run script in an annotator's page.
 * `placement`: "overlay" a floating dialog (adjudicator, lead's preview); "side" a panel in the
 * page's flow (the annotator: the page puts it beside the item on wide screens, below on narrow
 * ones, so it never covers the chunk text). `meanings`: the scale the page grades on (the chunk
 * grades by default; the answers task passes its relevance scale).
 */
export function GuidelinesPanel({
  open,
  guidelines,
  onClose,
  placement = "overlay",
  meanings = GRADES,
}: {
  open: boolean;
  guidelines: string;
  onClose: () => void;
  placement?: "overlay" | "side";
  meanings?: readonly { grade: number; meaning: string }[];
}) {
  if (!open) return null;
  const body = (
    <>
      <h2 className="mb-2 font-semibold">Guidelines</h2>
      <dl className="mb-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm" aria-label="Grade meanings">
        {meanings.map((g) => (
          <div key={g.grade} className="contents">
            <dt className="font-mono font-semibold">{g.grade}</dt>
            <dd>{g.meaning}</dd>
          </div>
        ))}
      </dl>
      <div data-testid="guidelines-text" className="guidelines space-y-2 border-t border-slate-200 pt-3 text-sm">
        {guidelines.trim() ? (
          <Markdown remarkPlugins={[remarkPipeTables]}>{guidelines}</Markdown>
        ) : (
          <p className="text-slate-600">The project lead has not written guidelines yet.</p>
        )}
      </div>
      <button type="button" className="mt-3 rounded border border-slate-300 px-2 py-1 text-sm" onClick={onClose}>
        Close (Esc)
      </button>
    </>
  );
  if (placement === "side")
    return (
      <aside
        aria-label="Guidelines"
        data-testid="guidelines-panel"
        className="self-start rounded-md border border-slate-300 bg-white p-4 lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] lg:overflow-y-auto"
      >
        {body}
      </aside>
    );
  return (
    <div
      role="dialog"
      aria-modal="false"
      aria-label="Guidelines"
      className="fixed right-4 top-16 z-20 max-h-[80vh] w-[32rem] max-w-[calc(100vw-2rem)] overflow-y-auto rounded-md border border-slate-300 bg-white p-4 shadow-lg"
    >
      {body}
    </div>
  );
}
