/**
 * Judge vs human blocks: the final human labels as the reference, a judge's labels as the other
 * rater, aligned per query; after a label change only the queries whose final labels changed are
 * aligned again.
 */
import { NO_HUMAN_HINT } from "../labels.ts";
import type { TDashboardData, TLabel } from "../model.ts";
import { alignAll, alignmentOf, type TFullAlignment, type TQueryAlignment } from "./align.ts";
import { cachedBlock, report } from "./reports.ts";
import { cut, sliceKey, type Slice } from "./slices.ts";
import type { TAgreementBlock } from "./types.ts";
import { cacheOf, type TCacheHolder } from "../load/cache.ts";

/** A judge's labels per query, once per import (judge labels change only with one). */
const judgeByQuery = (data: TCacheHolder) =>
  cacheOf(data).carried("agreement/judge.judgeByQuery", () => new WeakMap<readonly TLabel[], Map<number, TLabel[]>>());

/** The last judge-vs-human alignment per project and judge, with the label-set version it was made for. */
const lastJudgeAlignment = (data: TCacheHolder) =>
  cacheOf(data).carried(
    "agreement/judge.lastJudgeAlignment",
    () => new Map<string, { version: string; all: TFullAlignment }>(),
  );

/**
 * Final human labels against a judge's, aligned per query. After a label change (known queries,
 * data.referenceChanges) the previous version's alignment is copied and only those queries are
 * aligned again.
 */
function judgeAlignment(data: TDashboardData, judge: string): Map<number, TQueryAlignment> {
  const labels = data.judges.get(judge) ?? [];
  const key = `${judge}`;
  const last = lastJudgeAlignment(data).get(key);
  const changes = data.referenceChanges;
  if (!last || !changes || last.version !== changes.from) return alignAll(data, data.reference, labels);
  let byQuery = judgeByQuery(data).get(labels);
  if (!byQuery) {
    byQuery = new Map();
    for (const l of labels) {
      const list = byQuery.get(l.queryId);
      if (list) list.push(l);
      else byQuery.set(l.queryId, [l]);
    }
    judgeByQuery(data).set(labels, byQuery);
  }
  const out = new Map<number, TQueryAlignment>(last.all);
  const refs = new Map<number, TLabel[]>([...changes.queries].map((q) => [q, []]));
  for (const r of data.reference) refs.get(r.queryId)?.push(r);
  for (const [queryId, ref] of refs) {
    const again = alignAll(data, ref, byQuery.get(queryId) ?? []).get(queryId);
    if (again) out.set(queryId, again);
    else out.delete(queryId);
  }
  return out;
}

export function judgeBlock(data: TDashboardData, judge: string, keep: Slice, resamples: number): TAgreementBlock {
  const all = alignmentOf(data, `judge\u0000${judge}`, () => judgeAlignment(data, judge));
  const lastKey = `${judge}`;
  if (lastJudgeAlignment(data).get(lastKey)?.version !== data.version) {
    lastJudgeAlignment(data).delete(lastKey);
    lastJudgeAlignment(data).set(lastKey, { version: data.version, all });
    while (lastJudgeAlignment(data).size > 16)
      lastJudgeAlignment(data).delete(lastJudgeAlignment(data).keys().next().value as string);
  }
  return cachedBlock(
    data,
    `judge\u0000${judge}\u0000${resamples}\u0000${data.reference.length === 0}\u0000${sliceKey(data, all, keep)}`,
    () => {
      const aligned = cut(data, all, keep);
      if (aligned.pairs.length > 0)
        return {
          name: judge,
          report: report(aligned, resamples, data, `judge\u0000${judge}\u0000${keep.name}`),
          empty: null,
        };
      const empty =
        aligned.referenceOnly === 0
          ? data.reference.length === 0
            ? NO_HUMAN_HINT
            : "no final human labels in this slice"
          : aligned.otherOnly === 0
            ? `judge ${judge} has no labels in this slice`
            : `no item has both a final human label and a label from judge ${judge}`;
      return { name: judge, report: null, empty };
    },
  );
}
