import type { TAdjudicatorProject } from "@/lib/annotate/adjudicate";

/** The project picker with each project's pending decisions. */
export function ProjectPicker({
  projects,
  value,
  onChange,
}: {
  projects: TAdjudicatorProject[];
  value: number | null;
  onChange: (id: number) => void;
}) {
  return (
    <label className="flex items-center gap-2 text-sm">
      Project
      <select
        value={value ?? ""}
        onChange={(e) => onChange(Number(e.target.value))}
        className="rounded border border-slate-300 px-2 py-1"
      >
        {projects.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name} — {p.pending === 0 ? "nothing to decide" : `${p.pending} to decide`}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The project the page opens on: the first (by name) with items waiting, else the first. */
export function projectWithWork(projects: TAdjudicatorProject[]): number | null {
  return (projects.find((p) => p.pending > 0) ?? projects[0])?.id ?? null;
}
