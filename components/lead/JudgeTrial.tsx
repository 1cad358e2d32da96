"use client";

import type { TTrialRow } from "@/lib/query/judge";
import { ScrollRegion } from "@/components/shell/ScrollRegion";

/** The Judge section's trial: the judge's grade beside the human's on a few random pairs. */
export function TrialAnswers({ rows }: { rows: readonly TTrialRow[] }) {
  return (
    <ScrollRegion label="Trial answers">
      <table className="mt-3 w-full text-sm" aria-label="Trial answers">
        <thead className="text-left text-xs text-slate-500">
          <tr>
            <th className="pr-3">Question</th>
            <th className="pr-3">Chunk</th>
            <th className="pr-3">Judge</th>
            <th className="pr-3">Human</th>
            <th>Answer</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr
              key={`${r.qid}/${r.docid}`}
              className="border-t border-slate-100 align-top"
              data-trial-pair={`${r.qid}/${r.docid}`}
            >
              <td className="max-w-xs py-1 pr-3">
                <div>{r.question}</div>
                <div className="text-xs text-slate-600">{r.qid}</div>
              </td>
              <td className="max-w-md py-1 pr-3">
                <div className="line-clamp-4 text-xs">{r.chunk}</div>
                <div className="text-xs text-slate-600">{r.docid}</div>
              </td>
              <td className="py-1 pr-3 font-semibold" data-trial-grade>
                {r.grade ?? <span className="text-red-700">{r.error}</span>}
              </td>
              <td className="py-1 pr-3">{r.human ?? "–"}</td>
              <td className="py-1">
                <details>
                  <summary className="cursor-pointer text-xs text-slate-600">
                    {(r.raw ?? "").slice(0, 80) || "(no answer)"}
                  </summary>
                  <pre className="text-xs whitespace-pre-wrap">{r.raw}</pre>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
