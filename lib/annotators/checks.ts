import type { Db } from "../db/client.ts";
import type { TItemLabels } from "../labels/load.ts";
import { finalLabel } from "../labels/reference.ts";
import type { TRuleSettings } from "../labels/rule.ts";
import type { TCheckGrade } from "../stats/annotators-checks.ts";

/**
 * The check grades of a project (CheckJudgement: hidden check items, lib/assignment/checks.ts),
 * each beside its item's settled reference grade (`finalLabel`: agreed or adjudicated, decided by
 * Judgement and Adjudication rows only, so a check grade never moves its own reference). A check
 * grade whose item has no final label any more is left out. Lead and adjudicator only (the
 * Annotators report); never read by an annotator route.
 */
export async function checkGrades(
  db: Db,
  projectId: number,
  items: readonly TItemLabels[],
  settings: TRuleSettings,
  name: (userId: string) => string,
): Promise<TCheckGrade[]> {
  const rows = await db.checkJudgement.findMany({
    where: { poolItem: { projectId } },
    select: { poolItemId: true, userId: true, grade: true },
    orderBy: { id: "asc" },
  });
  if (rows.length === 0) return [];
  const byId = new Map(items.map((it) => [it.id, it]));
  const out: TCheckGrade[] = [];
  for (const r of rows) {
    const it = byId.get(r.poolItemId);
    const reference = it ? finalLabel(it, settings) : null;
    if (it && reference)
      out.push({ annotator: name(r.userId), qid: it.qid, grade: r.grade, reference: reference.grade });
  }
  return out;
}
