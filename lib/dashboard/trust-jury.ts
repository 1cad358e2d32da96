/**
 * A jury (lib/judge/combine.ts) beside its members on the same pairs: those the jury labelled (every
 * member labelled them) that have a final human label and that every member still labels; per rater
 * the agreement report with the human label as the reference (lib/stats/agreement/report.ts: the
 * kappa family with its query-bootstrap intervals, leniency), so the jury's gain over its best
 * member is read on identical pairs.
 */
import type { LabelPair } from "../stats/agreement/align.ts";
import { agreementReport, type AgreementReport } from "../stats/agreement/report.ts";
import type { TDashboardData } from "./data.ts";
import type { TTrustInput } from "./load/trust.ts";
import { RESAMPLING } from "./options.ts";

export type TJuryRow = { judge: string; role: "jury" | "member"; report: AgreementReport };
export type TJuryComparison = { members: string[]; pairs: number; rows: TJuryRow[]; missing: string[] };

export function juryComparison(data: TDashboardData, judge: string, input: TTrustInput): TJuryComparison | null {
  const named = input.juries.get(judge);
  if (!named) return null;
  const members = named.filter((m) => data.judges.has(m));
  const missing = named.filter((m) => !data.judges.has(m));
  const key = (q: number, c: number) => `${q}:${c}`;
  const human = new Map<string, number>();
  for (const r of data.reference) human.set(key(r.queryId, r.chunkId), r.grade);
  const raters = [judge, ...members];
  const grades = raters.map((r) => {
    const m = new Map<string, number>();
    for (const l of data.judges.get(r) ?? []) m.set(key(l.queryId, l.chunkId), l.grade);
    return m;
  });
  const pairs: { queryId: number; chunkId: number; k: string; human: number }[] = [];
  for (const l of data.judges.get(judge) ?? []) {
    const k = key(l.queryId, l.chunkId);
    const h = human.get(k);
    if (h !== undefined && grades.every((g) => g.has(k)))
      pairs.push({ queryId: l.queryId, chunkId: l.chunkId, k, human: h });
  }
  const rows = raters.map((r, i): TJuryRow => {
    const aligned: LabelPair[] = pairs.map((p) => ({
      qid: data.queries.get(p.queryId)?.qid ?? String(p.queryId),
      docid: data.chunks.get(p.chunkId)?.docid ?? String(p.chunkId),
      reference: p.human,
      other: grades[i].get(p.k)!,
    }));
    return {
      judge: r,
      role: i === 0 ? "jury" : "member",
      report: agreementReport(
        { pairs: aligned, referenceOnly: 0, otherOnly: 0 },
        { bootstrap: RESAMPLING.resamples, seed: RESAMPLING.seed, level: RESAMPLING.level },
      ),
    };
  });
  return { members, pairs: pairs.length, rows, missing };
}
