/**
 * The demo's sample labels: part of the pool already graded by both annotators
 * and the disagreements adjudicated, so the dashboard shows kappa, the confusion matrix and the
 * systems table on first start, while ann1 and ann2 still have the other questions to grade.
 *
 *   node --import tsx scripts/demo/seed-labels.ts      (scripts/demo.mjs runs it after assigning)
 *
 * Labels go through the app's own domain functions (submitJudgement, adjudicate), as the web app
 * would write them, with fixed idempotency keys: running it twice changes nothing.
 * The human grades follow where each answer is spoken (the query's reference start), not the
 * judge, so the judge's lenient streak shows in the calibration; ann2 departs from ann1 on about
 * one item in seven (one grade apart), which the adjudicator settles.
 */
import { createHash } from "node:crypto";
import type { Db } from "../../lib/db/client.ts";
import { submitJudgement } from "../../lib/labels/submit.ts";
import { adjudicate } from "../../lib/adjudication/decide.ts";

/** Questions graded in the demo; the rest (q09–q12) are left to try. */
export const DEMO_GRADED_QUERIES = ["q01", "q02", "q03", "q04", "q05", "q06", "q07", "q08"];

type TItem = { id: string; query: { externalId: string; places: { startSeconds: number; videoId: number | null }[] }; chunk: { videoId: number; startSeconds: number; endSeconds: number; chunking?: { name: string } } };

/** A stable pseudo-random number in [0, 1) for a string: the same demo every time. */
function unit(s: string): number {
  return createHash("sha256").update(s).digest().readUInt32BE(0) / 2 ** 32;
}

/** The grade a careful annotator gives: the chunk speaks the answer (3, or 2 when it only starts near its end), is next to it (1), or elsewhere (0). */
export function trueGrade(item: TItem): { grade: number; start: number | null } {
  const { startSeconds: s, endSeconds: e, videoId } = item.chunk;
  // The demo's questions have one answer place each (demo/queries.jsonl).
  const place = item.query.places.find((p) => p.videoId === videoId);
  if (!place) return { grade: 0, start: null };
  const ref = place.startSeconds;
  // Spoken in the chunk: all of it (3), or only its beginning, in the chunk's last third (2).
  if (ref >= s && ref <= e) return { grade: ref - s > ((e - s) * 2) / 3 ? 2 : 3, start: ref };
  if (Math.abs(ref - s) < 30 || Math.abs(ref - e) < 10) return { grade: 1, start: s };
  return { grade: 0, start: null };
}

export async function seedDemoLabels(db: Db, projectName = "demo"): Promise<{ items: number; agreed: number; adjudicated: number; left: number }> {
  const project = await db.project.findUniqueOrThrow({ where: { name: projectName } });
  const [ann1, ann2] = await Promise.all(["ann1@example.com", "ann2@example.com"].map((email) => db.user.findUniqueOrThrow({ where: { email } })));
  const adjudicator = await db.user.findUniqueOrThrow({ where: { email: "adjudicator@example.com" } });
  const items: TItem[] = await db.poolItem.findMany({
    where: { projectId: project.id, query: { externalId: { in: DEMO_GRADED_QUERIES } } },
    select: { id: true, query: { select: { externalId: true, places: { select: { startSeconds: true, videoId: true }, orderBy: { id: "asc" } } } }, chunk: { select: { videoId: true, startSeconds: true, endSeconds: true, chunking: { select: { name: true } } } } },
    orderBy: [{ query: { externalId: "asc" } }, { chunk: { startSeconds: "asc" } }],
  });
  for (const item of items) {
    const truth = trueGrade(item);
    // Keyed by the question and chunk, not the random item id: every demo departs on the same items.
    // Items of another chunking than "default" (the demo's audit of c40o0) add its name, so their keys differ from a default chunk's at the same start.
    const chunking = item.chunk.chunking && item.chunk.chunking.name !== "default" ? `-${item.chunk.chunking.name}` : "";
    const r = unit(`${item.query.externalId}:${item.chunk.videoId}:${item.chunk.startSeconds}${chunking}`);
    const other = r < 0.15 ? Math.max(0, Math.min(3, truth.grade + (truth.grade === 3 || (truth.grade > 0 && r < 0.1) ? -1 : 1))) : truth.grade;
    const startOf = (g: number, offset: number) => (g === 0 ? null : Math.round(((truth.start ?? item.chunk.startSeconds) + offset) * 10) / 10);
    const key = (who: string) => `demo-${who}-${item.query.externalId}-${item.chunk.videoId}-${item.chunk.startSeconds}${chunking}`;
    const time = (who: string) => Math.round(12_000 + unit(key(who)) * 40_000);
    await submitJudgement(db, ann1.id, { poolItemId: item.id, grade: truth.grade, startSeconds: startOf(truth.grade, 0), notes: "", flags: [], timeSpentMs: time("ann1"), idempotencyKey: key("ann1") });
    const second = await submitJudgement(db, ann2.id, { poolItemId: item.id, grade: other, startSeconds: startOf(other, 1.5), notes: "", flags: other !== truth.grade && r < 0.05 ? ["unsure"] : [], timeSpentMs: time("ann2"), idempotencyKey: key("ann2") });
    if (second.applied && other !== truth.grade) {
      await adjudicate(db, adjudicator.id, { poolItemId: item.id, grade: truth.grade, startSeconds: startOf(truth.grade, 0), rationale: "Settled by where the answer is spoken in the video.", idempotencyKey: key("adj") });
    }
  }
  // Counted from what is stored, so a second pass (the demo's audit items) reports the whole set.
  const adjudicated = await db.adjudication.count({ where: { poolItemId: { in: items.map((i) => i.id) } } });
  const left = await db.poolItem.count({ where: { projectId: project.id, query: { externalId: { notIn: DEMO_GRADED_QUERIES } } } });
  return { items: items.length, agreed: items.length - adjudicated, adjudicated, left };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { getDb, closeDb } = await import("../../lib/db/client.ts");
  const r = await seedDemoLabels(await getDb());
  console.log(`${r.items} items graded by ann1 and ann2 (${r.agreed} agreed, ${r.adjudicated} adjudicated); ${r.left} items on the other questions left to grade`);
  await closeDb();
}
