import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { BulkTx } from "../db/bulk.ts";
import { insertPoolItems } from "../pooling/build.ts";
import { questionSample } from "./questions.ts";
import { findRun, sampleGrades } from "../judge/store.ts";
import { unstablePairs } from "../judge/retest.ts";
import { juryMemberGrades } from "../judge/grade-sets.ts";
import { judgeStratumGrade } from "./sample.ts";
import { auditSample } from "./audit.ts";
import { findChunking } from "../chunkings/store.ts";
import { randomUUID } from "node:crypto";
import { field, say } from "../terms.ts";

/**
 * The targets of an assignment that are not the whole pool (lib/assignment/assign.ts): whole
 * questions for a question sample, the transfer audit's pairs, the unstable pairs of a judge run,
 * and the query tags they filter on.
 */
export type TTx = BulkTx;

/**
 * The pairs (`queryId:chunkId`) whose graded samples differ in the project's judge run of that name
 * or id; or, for a jury (`judge combine`), the pairs whose members' grades differ.
 */
export async function unstableOfRun(db: Db, projectId: number, ref: string): Promise<Set<string>> {
  const jury = await juryMemberGrades(db, projectId, ref);
  if (jury) return unstablePairs(jury);
  const run = await findRun(db, projectId, ref);
  if (run.samples < 2)
    throw new AppError(
      "bad_input",
      say`judge run ${run.id} (${run.judge}) has one sample per pair, so no pair can be unstable: start a run with ${field("samples", "3")} ${field("temperature", "0.7")} to measure test–retest`,
    );
  return unstablePairs(await sampleGrades(db, run.id, run.samples));
}

/** Tags per query of the project. */
export async function queryTags(tx: TTx, pid: number): Promise<Map<number, string[]>> {
  const tagsOf = new Map<number, string[]>();
  for (const t of await tx.all<{ queryId: number; tag: string }>(
    `SELECT t."queryId", t."tag" FROM "QueryTag" t JOIN "Query" q ON q."id" = t."queryId" WHERE q."projectId" = ?`,
    [pid],
  )) {
    const list = tagsOf.get(Number(t.queryId));
    if (list) list.push(t.tag);
    else tagsOf.set(Number(t.queryId), [t.tag]);
  }
  return tagsOf;
}

/**
 * `sampleQueries`: the questions that still have a pool item without a final label and short of
 * `perItem` annotators are the candidates (with `tags`: only those with one of them); N of them are
 * drawn (lib/assignment/questions.ts) and every such item of theirs is targeted.
 */
export async function sampleWholeQuestions(
  tx: TTx,
  pid: number,
  items: { id: string; queryId: number; chunkId: number }[],
  assignedTo: Map<string, Set<string>>,
  finals: readonly { queryId: number; chunkId: number }[],
  perItem: number,
  n: number,
  tags: string[] | undefined,
  rng: () => number,
): Promise<{ targets: { id: string }[]; questions: number }> {
  const tagsOf = await queryTags(tx, pid);
  const final = new Set(finals.map((f) => `${f.queryId}:${f.chunkId}`));
  const open = items.filter(
    (it) => !final.has(`${it.queryId}:${it.chunkId}`) && (assignedTo.get(it.id)?.size ?? 0) < perItem,
  );
  const wanted = tags?.length ? new Set(tags) : null;
  const candidates = [...new Set(open.map((it) => it.queryId))]
    .map((queryId) => ({ queryId, tags: tagsOf.get(queryId) ?? [] }))
    .filter((c) => wanted === null || c.tags.some((t) => wanted.has(t)));
  if (candidates.length === 0)
    throw new AppError(
      "bad_input",
      say`${field("sampleQueries")}: no question has pool items left to assign${wanted ? " with those tags" : ""}: every pooled item is labelled or assigned to ${perItem} annotators`,
    );
  const chosen = new Set(questionSample(candidates, n, rng));
  return {
    targets: open
      .filter((it) => chosen.has(it.queryId))
      .sort((a, b) => a.queryId - b.queryId || (a.id < b.id ? -1 : 1)),
    questions: chosen.size,
  };
}

/** The derived grade of every pair with a transfer label onto the chunking (median of the transfer judges', rounded down). */
export async function transferGrades(
  db: Db,
  projectId: number,
  chunking: string,
): Promise<{ judges: string[]; grades: Map<string, number> }> {
  const c = await findChunking(db, projectId, chunking);
  const rows = await db.judgeLabel.findMany({
    where: { projectId, judge: { startsWith: "transfer:", endsWith: `->${c.name}` } },
    select: { judge: true, queryId: true, chunkId: true, grade: true },
  });
  if (rows.length === 0)
    throw new AppError(
      "bad_input",
      `no transfer labels onto chunking "${c.name}": derive them first with: npx assessor chunking transfer --from A --to ${c.name}`,
    );
  const byPair = new Map<string, number[]>();
  for (const r of rows) {
    const key = `${r.queryId}:${r.chunkId}`;
    const list = byPair.get(key);
    if (list) list.push(r.grade);
    else byPair.set(key, [r.grade]);
  }
  return {
    judges: [...new Set(rows.map((r) => r.judge))].sort(),
    grades: new Map([...byPair].map(([k, g]) => [k, judgeStratumGrade(g)!])),
  };
}

/**
 * The audit sample's pool items: candidates are the transfer-labelled pairs without a final human
 * label whose pool item (if any) has no assignment yet (with `tags`, of queries with one of them);
 * `auditSample` draws N; missing pool items are created (random UUIDs, no provenance: no run put them there).
 */
export async function auditTargets(
  tx: TTx,
  projectId: number,
  items: { id: string; queryId: number; chunkId: number }[],
  assignedTo: Map<string, Set<string>>,
  finals: readonly { queryId: number; chunkId: number }[],
  transfer: { grades: Map<string, number> },
  n: number,
  tags: string[] | undefined,
  rng: () => number,
): Promise<{ targets: { id: string }[]; byGrade: Record<number, number>; newItems: number }> {
  const itemOf = new Map(items.map((it) => [`${it.queryId}:${it.chunkId}`, it.id]));
  const final = new Set(finals.map((f) => `${f.queryId}:${f.chunkId}`));
  const wanted = tags?.length ? new Set(tags) : null;
  const tagsOf = wanted ? await queryTags(tx, projectId) : null;
  // `id` keys the pair (the sample's tie-break order); the pool item's id, when it exists, is `itemId`.
  const candidates: { id: string; queryId: number; chunkId: number; judgeGrade: number; itemId?: string }[] = [];
  for (const [key, grade] of [...transfer.grades].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const itemId = itemOf.get(key);
    if (final.has(key) || (itemId !== undefined && assignedTo.has(itemId))) continue;
    const [queryId, chunkId] = key.split(":").map(Number);
    if (wanted && !(tagsOf?.get(queryId) ?? []).some((t) => wanted.has(t))) continue;
    candidates.push({ id: key, queryId, chunkId, judgeGrade: grade, itemId });
  }
  if (candidates.length === 0)
    throw new AppError(
      "bad_input",
      say`${field("sample")} with ${field("chunking")}: every transfer-labelled pair already has a human label or an assignment`,
    );
  const byGrade: Record<number, number> = { 0: 0, 1: 0, 2: 0, 3: 0 };
  const created: [string, number, number, number][] = [];
  const targets = auditSample(candidates, n, rng).map((c) => {
    byGrade[c.judgeGrade]++;
    if (c.itemId !== undefined) return { id: c.itemId };
    const id = randomUUID();
    created.push([id, projectId, c.queryId, c.chunkId]);
    return { id };
  });
  await insertPoolItems(tx, created);
  return { targets, byGrade, newItems: created.length };
}
