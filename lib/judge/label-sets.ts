/**
 * Judges without a run: label sets imported from a file (`import judge`) and those derived by
 * label transfer (`transfer:A->B`, lib/chunkings/transfer.ts). They are JudgeLabel rows like a
 * run's labels, and the dashboard shows them beside the runs' judges; `judge list` lists them and
 * `judge export NAME` writes them, so every judge the dashboard shows can be read back.
 */
import type { Db, JudgeRun } from "../db/client.ts";
import { all, sqlRead } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { findRun } from "./store.ts";

export type TLabelSet = {
  judge: string;
  /** transfer: derived by label transfer (`transfer:A->B`); imported: read from a file. */
  source: "imported" | "transfer";
  labels: number;
  /** Labels whose chunk reads like instructions to a model (lib/judge/injection.ts). */
  flagged: number;
  /** The chunkings its labels' chunks are in, by name. */
  chunkings: string[];
};

export type TLabelSetRow = {
  qid: string;
  docid: string;
  grade: number;
  rationale: string | null;
  injection: boolean;
  /** An imported judge's probabilities of grade ≥ 1 and ≥ 2 (null when its file gave none). */
  pGe1: number | null;
  pGe2: number | null;
};

/** The project's judges that have labels and no run of that name, sorted by name. */
export async function labelSets(db: Db, projectId: number): Promise<TLabelSet[]> {
  const [rows, runs, chunkings] = await Promise.all([
    sqlRead(db, () =>
      all<{ judge: string; chunkingId: number; labels: number | bigint; flagged: number | bigint | null }>(
        `SELECT l."judge" AS "judge", c."chunkingId" AS "chunkingId", COUNT(*) AS "labels", SUM(CASE WHEN l."injection" THEN 1 ELSE 0 END) AS "flagged"
         FROM "JudgeLabel" l JOIN "Chunk" c ON c."id" = l."chunkId" WHERE l."projectId" = ? GROUP BY l."judge", c."chunkingId"`,
        [projectId],
      ),
    ),
    db.judgeRun.findMany({ where: { projectId }, select: { judge: true } }),
    db.chunking.findMany({ where: { projectId }, select: { id: true, name: true } }),
  ]);
  const withRun = new Set(runs.map((r) => r.judge));
  const chunkingName = new Map(chunkings.map((c) => [c.id, c.name]));
  const sets = new Map<string, TLabelSet>();
  for (const r of rows) {
    if (withRun.has(r.judge)) continue;
    let s = sets.get(r.judge);
    if (!s)
      sets.set(
        r.judge,
        (s = {
          judge: r.judge,
          source: r.judge.startsWith("transfer:") ? "transfer" : "imported",
          labels: 0,
          flagged: 0,
          chunkings: [],
        }),
      );
    s.labels += Number(r.labels);
    s.flagged += Number(r.flagged ?? 0);
    s.chunkings.push(chunkingName.get(Number(r.chunkingId)) ?? String(r.chunkingId));
  }
  for (const s of sets.values()) s.chunkings.sort();
  return [...sets.values()].sort((a, b) => (a.judge < b.judge ? -1 : a.judge > b.judge ? 1 : 0));
}

/** A label set's labels (of one chunking when given), sorted by query and chunk id. */
export async function labelSetRows(
  db: Db,
  projectId: number,
  judge: string,
  chunkingId?: number,
): Promise<TLabelSetRow[]> {
  const rows = await db.judgeLabel.findMany({
    where: { projectId, judge, ...(chunkingId === undefined ? {} : { chunk: { chunkingId } }) },
    select: {
      grade: true,
      rationale: true,
      injection: true,
      pGe1: true,
      pGe2: true,
      query: { select: { externalId: true } },
      chunk: { select: { externalId: true } },
    },
  });
  return rows
    .map((r) => ({
      qid: r.query.externalId,
      docid: r.chunk.externalId,
      grade: r.grade,
      rationale: r.rationale,
      injection: r.injection,
      pGe1: r.pGe1,
      pGe2: r.pGe2,
    }))
    .sort((a, b) => (a.qid < b.qid ? -1 : a.qid > b.qid ? 1 : a.docid < b.docid ? -1 : a.docid > b.docid ? 1 : 0));
}

/** A judge by run id or name: its run, or its label set when it has no run. */
export async function findJudge(
  db: Db,
  projectId: number,
  ref: string,
): Promise<{ run: JudgeRun; labelSet?: undefined } | { run?: undefined; labelSet: TLabelSet }> {
  try {
    return { run: await findRun(db, projectId, ref) };
  } catch (e) {
    if (!(e instanceof AppError) || e.code !== "not_found") throw e;
    const set = (await labelSets(db, projectId)).find((s) => s.judge === ref);
    if (set) return { labelSet: set };
    throw e;
  }
}
