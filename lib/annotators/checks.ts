import type { Db } from "../db/client.ts";
import type { TCheckGrade } from "../stats/annotators-checks.ts";
import type { TReferenceOf } from "./items.ts";

/**
 * The check grades of a project (CheckJudgement: hidden check items, lib/assignment/checks.ts),
 * each beside its item's settled reference grade (`finalLabel`: agreed or adjudicated, decided by
 * Judgement and Adjudication rows only, so a check grade never moves its own reference). A check
 * grade whose item has no final label any more is left out. `reference` looks the item's final
 * label up in what the report already loaded (lib/annotators/items.ts). Lead and adjudicator only
 * (the Annotators report); never read by an annotator route.
 */
export async function checkGrades(
  db: Db,
  projectId: number,
  reference: TReferenceOf,
  name: (userId: string) => string,
): Promise<TCheckGrade[]> {
  const rows = await db.checkJudgement.findMany({
    where: { poolItem: { projectId } },
    select: { poolItemId: true, userId: true, grade: true },
    orderBy: { id: "asc" },
  });
  const out: TCheckGrade[] = [];
  for (const r of rows) {
    const ref = reference(r.poolItemId);
    if (ref) out.push({ annotator: name(r.userId), qid: ref.qid, grade: r.grade, reference: ref.grade });
  }
  return out;
}
