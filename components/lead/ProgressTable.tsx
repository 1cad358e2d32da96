"use client";

import { useInvalidateProject, useProgress } from "@/lib/query/lead";
import { Button, ErrorBox, Section } from "./ui";
import { ScrollRegion } from "@/components/shell/ScrollRegion";

function mss(seconds: number): string {
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function ProgressTable({ projectId }: { projectId: number }) {
  const progress = useProgress(projectId);
  const refresh = useInvalidateProject(projectId);
  return (
    <Section
      title="Progress per annotator"
      id="progress"
      description="Items judged of those assigned; median time per item from the annotate page's timer."
    >
      <ErrorBox error={progress.error} />
      {progress.data && progress.data.length === 0 ? <p className="text-slate-600">Nothing assigned yet.</p> : null}
      {progress.data && progress.data.length > 0 ? (
        <ScrollRegion label="Progress per annotator">
          <table className="w-full text-left text-sm">
            <thead className="text-slate-500">
              <tr>
                <th className="py-1">Annotator</th>
                <th>Done</th>
                <th>Assigned</th>
                <th>Median per item</th>
              </tr>
            </thead>
            <tbody>
              {progress.data.map((p) => (
                <tr key={p.userId} className="border-t border-slate-100">
                  <td className="py-1.5">
                    {p.name} <span className="text-slate-500">{p.email}</span>
                    {p.active ? null : <span className="ml-2 text-xs text-red-700">(deactivated)</span>}
                  </td>
                  <td>{p.done}</td>
                  <td>{p.assigned}</td>
                  <td>{p.medianSecondsPerItem === null ? "–" : mss(p.medianSecondsPerItem)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : null}
      <Button variant="secondary" className="mt-3" onClick={() => void refresh()}>
        Refresh progress and status
      </Button>
    </Section>
  );
}
