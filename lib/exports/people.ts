import type { Db } from "../db/client.ts";
import type { ReferenceLabelRow } from "../labels/reference.ts";
import { pseudonym } from "../annotators/report.ts";

/**
 * Who made each reference label and under which guidelines revision (the labels export's last two
 * columns, `labelled_by` and `guideline_revisions`, in the same order): an adjudicated label is the
 * adjudicator's decision; an agreed label is made by the grades of the item's annotators (ordered by
 * their grade's id); an imported label has none. People are named by the annotators report's
 * pseudonymous id (`annotator-` + 8 hex of SHA-256(project:user), lib/annotators/report.ts) unless
 * `names`; a revision is null when the grade did not record one.
 */
export type TLabelPeople = { labelledBy: string[]; revisions: (number | null)[] };

export async function labelPeople(
  db: Db,
  projectId: number,
  rows: readonly ReferenceLabelRow[],
  names: boolean,
): Promise<Map<string, TLabelPeople>> {
  const agreed = rows.filter((r) => r.poolItemId !== null && r.status === "agreed").map((r) => r.poolItemId ?? "");
  const adjudicated = rows
    .filter((r) => r.poolItemId !== null && r.status === "adjudicated")
    .map((r) => r.poolItemId ?? "");
  const batches = <T>(ids: string[], read: (part: string[]) => Promise<T[]>) =>
    Promise.all(
      Array.from({ length: Math.ceil(ids.length / 1000) }, (_, i) => read(ids.slice(i * 1000, i * 1000 + 1000))),
    ).then((parts) => parts.flat());
  const [judgements, decisions] = await Promise.all([
    batches(agreed, (part) =>
      db.judgement.findMany({
        where: { poolItemId: { in: part } },
        orderBy: { id: "asc" },
        select: { poolItemId: true, userId: true, guidelineRevision: true, user: { select: { name: true } } },
      }),
    ),
    batches(adjudicated, (part) =>
      db.adjudication.findMany({
        where: { poolItemId: { in: part } },
        select: {
          poolItemId: true,
          adjudicatorId: true,
          guidelineRevision: true,
          adjudicator: { select: { name: true } },
        },
      }),
    ),
  ]);
  const who = (userId: string, name: string) => (names ? name : pseudonym(projectId, userId));
  const out = new Map<string, TLabelPeople>();
  for (const j of judgements) {
    const p = out.get(j.poolItemId) ?? { labelledBy: [], revisions: [] };
    p.labelledBy.push(who(j.userId, j.user.name));
    p.revisions.push(j.guidelineRevision);
    out.set(j.poolItemId, p);
  }
  for (const a of decisions)
    out.set(a.poolItemId, { labelledBy: [who(a.adjudicatorId, a.adjudicator.name)], revisions: [a.guidelineRevision] });
  return out;
}
