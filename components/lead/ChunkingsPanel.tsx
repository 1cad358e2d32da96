"use client";

import { useChunkings } from "@/lib/query/lead";
import { ErrorBox, ListTable, Section } from "./ui";

const fmt = (n: number) => n.toLocaleString("en-US");

function parameters(c: { method: string; size: number | null; overlap: number | null }): string {
  if (c.method === "imported") return "imported chunks";
  const unit = c.method === "words" ? "words" : "s";
  return `${c.size ?? "?"} ${unit}, overlap ${c.overlap ?? 0} ${unit}`;
}

/** The project's chunkings with their parameters, chunk counts and runs. */
export function ChunkingsPanel({ projectId }: { projectId: number }) {
  const chunkings = useChunkings(projectId);
  return (
    <Section
      title="Chunkings"
      id="chunkings"
      description="Each way of cutting the transcripts into chunks, and the runs retrieved from it. Each run is evaluated against its own chunking's labels."
    >
      <ErrorBox error={chunkings.error} />
      <ListTable
        items={chunkings.data}
        label="Chunkings"
        empty="No chunkings yet: import chunks or a transcript above."
        headers={["Chunking", "Cut", "Chunks", "Runs"]}
        row={(c) => (
          <tr key={c.id} className="border-t border-slate-100" data-chunking={c.name}>
            <td className="py-1 pr-3 font-medium">{c.name}</td>
            <td className="py-1 pr-3">{parameters(c)}</td>
            <td className="py-1 pr-3">{fmt(c.chunks)}</td>
            <td className="py-1">
              {c.runs.length ? c.runs.map((r) => r.system).join(", ") : <span className="text-slate-500">none</span>}
            </td>
          </tr>
        )}
      />
    </Section>
  );
}
