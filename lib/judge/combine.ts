/**
 * `assessor judge combine --judge NAME --method median|majority|mean|weighted JUDGE JUDGE …`: a jury
 * (lib/stats/jury.ts) made from several judges' labels on the pairs they all labelled, stored as
 * the judge NAME's labels (JudgeLabel rows, provenance `{"kind":"jury", …}` per pair: the method,
 * each member's grade and, for `weighted`, the fold and coefficients). `weighted` learns on the
 * project's human reference labels with cross-fitting over questions. A jury is a judge like any
 * other: the dashboard, `agreement`, `judge export` and decisions read it.
 */
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { referenceLabels } from "../labels/reference.ts";
import { combineJury, JURY_METHODS, type TJuryMethod } from "../stats/jury.ts";
import { findJudge } from "./label-sets.ts";
import { refuseProbeJudge } from "./probe/spec.ts";
import { field, say } from "../terms.ts";

export type TCombineResult = {
  judge: string;
  method: TJuryMethod;
  members: string[];
  pairs: number;
  /** Pairs labelled by some members but not all (left out). */
  notShared: number;
  /** weighted: the human labels it learned from, and pairs whose fold fell back to the mean rule. */
  humanLabels: number;
  fallbacks: number;
  byGrade: Record<number, number>;
};

const BATCH = 5000;

/** True when NAME's labels are a jury's (their provenance says so). */
export async function isJury(db: Db, projectId: number, judge: string): Promise<boolean> {
  const one = await db.judgeLabel.findFirst({ where: { projectId, judge }, select: { provenance: true } });
  return one?.provenance?.startsWith('{"kind":"jury"') ?? false;
}

export async function combineJudges(
  db: Db,
  projectId: number,
  opts: { judge: string; method: string; members: string[]; folds?: number; seed?: number; replace?: boolean },
): Promise<TCombineResult> {
  const method = opts.method as TJuryMethod;
  if (!JURY_METHODS.includes(method))
    throw new AppError(
      "bad_input",
      say`${field("method")}: expected one of ${JURY_METHODS.join(", ")}, got "${opts.method}"`,
    );
  const name = opts.judge.trim();
  if (!name || name.length > 200 || name.startsWith("transfer:"))
    throw new AppError(
      "bad_input",
      say`${field("judge")}: expected a name of 1–200 characters not starting with "transfer:", got "${opts.judge}"`,
    );
  if (opts.folds !== undefined && (!Number.isInteger(opts.folds) || opts.folds < 2 || opts.folds > 20))
    throw new AppError("bad_input", say`${field("folds")}: expected a whole number 2–20, got ${opts.folds}`);
  const members: string[] = [];
  for (const ref of opts.members) {
    const found = await findJudge(db, projectId, ref);
    const judge = found.run ? found.run.judge : found.labelSet.judge;
    refuseProbeJudge(judge); // a probe's chunks were changed on purpose: no member of a jury that labels the pool
    if (judge === name) throw new AppError("bad_input", `a jury cannot include itself ("${name}")`);
    if (!members.includes(judge)) members.push(judge);
  }
  if (members.length < 2)
    throw new AppError("bad_input", `a jury needs at least two different judges, got ${members.length}`);
  const existing = await db.judgeLabel.count({ where: { projectId, judge: name } });
  const run = await db.judgeRun.findFirst({ where: { projectId, judge: name }, select: { id: true } });
  if (run) throw new AppError("conflict", say`"${name}" is a judge run's name: choose another ${field("judge")}`);
  if (existing > 0 && !(opts.replace && (await isJury(db, projectId, name))))
    throw new AppError(
      "conflict",
      opts.replace
        ? say`"${name}" has labels that are not a jury's: choose another ${field("judge")}`
        : say`"${name}" already has ${existing} labels: add ${field("replace")} to make the jury again`,
    );

  // Each member's grade per (query, chunk); the pairs every member labelled.
  const grades = new Map<string, number[]>();
  const counts = new Map<string, number>();
  for (const [m, judge] of members.entries()) {
    const rows = await db.judgeLabel.findMany({
      where: { projectId, judge },
      select: { queryId: true, chunkId: true, grade: true },
    });
    for (const r of rows) {
      const key = `${r.queryId}:${r.chunkId}`;
      const g = grades.get(key) ?? new Array<number>(members.length).fill(-1);
      g[m] = r.grade;
      grades.set(key, g);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const shared = [...grades.entries()].filter(([k]) => counts.get(k) === members.length);
  const pairs = shared
    .map(([key, g]) => {
      const [queryId, chunkId] = key.split(":").map(Number);
      return { qid: String(queryId), docid: String(chunkId), grades: g, queryId, chunkId };
    })
    .sort((a, b) => a.queryId - b.queryId || a.chunkId - b.chunkId);
  if (pairs.length === 0)
    throw new AppError("bad_input", `the judges ${members.join(", ")} share no labelled pair: nothing to combine`);
  let human: Map<string, number> | undefined;
  if (method === "weighted") {
    human = new Map();
    for (const l of await referenceLabels(db, projectId)) human.set(`${l.queryId}\u0000${l.chunkId}`, l.grade);
  }
  const jury = combineJury(pairs, method, { human, folds: opts.folds, seed: opts.seed });
  const byGrade: Record<number, number> = { 0: 0, 1: 0, 2: 0, 3: 0 };
  const data = jury.map((j, i) => {
    byGrade[j.grade]++;
    const provenance = {
      kind: "jury",
      method,
      members: Object.fromEntries(members.map((m, k) => [m, j.members[k]])),
      ...(j.fold !== undefined ? { fold: j.fold } : {}),
      ...(j.coefficients ? { coefficients: j.coefficients.map((c) => Number(c.toFixed(6))) } : {}),
      ...(j.fallback ? { fallback: j.fallback } : {}),
    };
    return {
      projectId,
      judge: name,
      queryId: pairs[i].queryId,
      chunkId: pairs[i].chunkId,
      grade: j.grade,
      rationale: `jury (${method}) of ${members.join(", ")}`,
      provenance: JSON.stringify(provenance),
    };
  });
  await db.$transaction(
    async (tx) => {
      await tx.judgeLabel.deleteMany({ where: { projectId, judge: name } });
      for (let i = 0; i < data.length; i += BATCH) await tx.judgeLabel.createMany({ data: data.slice(i, i + BATCH) });
    },
    { timeout: 120_000 },
  );
  return {
    judge: name,
    method,
    members,
    pairs: pairs.length,
    notShared: grades.size - pairs.length,
    humanLabels: human ? pairs.filter((p) => human!.has(`${p.qid}\u0000${p.docid}`)).length : 0,
    fallbacks: jury.filter((j) => j.fallback).length,
    byGrade,
  };
}
