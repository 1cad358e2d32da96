/**
 * The Judge robustness card's figures (lead only): for every judge with robustness probes
 * (lib/judge/probe; probe judges are named `<judge>~probe:<kind>`), the probe figures of
 * lib/judge/probe/stats.ts probeSummary, computed from the dashboard's loaded data (judge labels,
 * reference labels, external ids, run statuses): no database access after the load.
 */
import type { Db } from "../db/client.ts";
import { probeSources, probeSummary, type TProbeRow, type TProbeSummary } from "../judge/probe/stats.ts";
import type { TDashboardData } from "./data.ts";
import { panelOf } from "./panels.ts";

export type TProbesPanelRow = TProbeRow & { status: string | null };
export type TProbesPanel = { sources: (Omit<TProbeSummary, "rows"> & { rows: TProbesPanelRow[] })[] };

export function probesPanel(d: TDashboardData): TProbesPanel {
  const names = (q: number, c: number) => ({
    qid: d.queries.get(q)?.qid ?? String(q),
    docid: d.chunks.get(c)?.docid ?? String(c),
  });
  return {
    sources: probeSources(d.judges.keys()).map((source) => {
      const s = probeSummary(source, d.judges, d.reference, { names });
      return { ...s, rows: s.rows.map((r) => ({ ...r, status: d.judgeRuns.get(r.judge)?.status ?? null })) };
    }),
  };
}

/** The panel as the lead's route serves it (kept in the label-set version's cache object). */
export const getProbes = (db: Db, projectId: number): Promise<TProbesPanel> =>
  panelOf(db, projectId, "probes", [], {}, (v) => probesPanel(v.data));
