"use client";

import type { TQueueProject } from "@/lib/annotate/queue";

/**
 * The project being annotated, named, and (when the annotator has items in several) a picker with
 * the items left in each. `projects` arrives after the first item (undefined until then). A project
 * whose grading the lead closed is marked (lib/projects/grading.ts).
 */
export function ProjectPicker({
  projects,
  current,
  onChoose,
}: {
  projects: readonly TQueueProject[] | undefined;
  current: { id: number; name: string; gradingClosedAt?: string | null };
  onChoose: (id: number) => void;
}) {
  const left = (p: TQueueProject) => p.total - p.done;
  const mine = projects?.find((p) => p.id === current.id);
  return (
    <nav aria-label="Project" className="flex flex-wrap items-center gap-3 border-b border-slate-200 pb-2">
      <h2 className="text-base font-semibold" data-testid="project-name">
        {current.name}
      </h2>
      {current.gradingClosedAt ? (
        <span className="rounded bg-slate-200 px-2 py-0.5 text-xs text-slate-800" data-testid="project-closed">
          grading closed
        </span>
      ) : null}
      {projects && projects.length > 1 ? (
        <label className="flex items-center gap-2 text-sm text-slate-600">
          Project
          <select
            aria-label="Choose project"
            className="rounded border border-slate-300 px-2 py-1 text-sm"
            value={current.id}
            onChange={(e) => onChoose(Number(e.target.value))}
          >
            {projects.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name} — {left(p)} left of {p.total}
              </option>
            ))}
          </select>
        </label>
      ) : mine ? (
        <span className="text-sm text-slate-600">
          {left(mine)} left of {mine.total}
        </span>
      ) : null}
    </nav>
  );
}
