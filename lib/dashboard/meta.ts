import type { TDashboardData } from "./data.ts";

/** What the header's selectors offer: judges, runs, tags; and the label-set version. */
export type TMeta = {
  project: { id: number; name: string };
  version: string;
  /** `flagged`: the judge's labels whose chunk reads like instructions to a model (possible prompt injection). */
  judges: { name: string; labels: number; flagged: number }[];
  runs: { id: number; system: string }[];
  tags: string[];
  humanLabels: number;
};

export function metaPanel(d: TDashboardData): TMeta {
  return {
    project: { id: d.project.id, name: d.project.name },
    version: d.version,
    judges: [...d.judges].map(([name, labels]) => ({ name, labels: labels.length, flagged: labels.filter((l) => l.injection).length })),
    runs: d.runs.map((r) => ({ id: r.id, system: r.system })),
    tags: d.tags,
    humanLabels: d.reference.length,
  };
}
