/**
 * What the Judge trust card reads beyond the label sets (lib/dashboard/trust.ts computes from it):
 * each judge's run (model, template hash, samples, status) and, for a run with several samples per
 * pair, every pair's sample grades (lib/judge/store.ts sampleGrades, the retest panel's read);
 * each jury's members (the provenance of one of its labels, lib/judge/combine.ts); an imported
 * judge's probabilities of grade ≥ 1 and ≥ 2 per pair (JudgeLabel.pGe1, pGe2). Judge labels and
 * runs change only with the label-set version's judge parts, so it is read once per judge label
 * set (`data.judges`, the same object until a judge label, import or tag changes) and run state.
 */
import type { Db } from "../../db/client.ts";
import { sampleGrades } from "../../judge/store.ts";
import type { TSampleGrades } from "../../judge/retest.ts";
import type { TDashboardData } from "../model.ts";
import { num, numOrNull, rows, str, typedRows } from "../../db/read.ts";
import { cacheOf, type TCacheHolder } from "./cache.ts";

export type TJudgeRunInfo = {
  runId: number;
  model: string;
  templateSha256: string;
  samples: number;
  status: string;
  target: string;
};
export type TTrustInput = {
  runs: Map<string, TJudgeRunInfo>;
  /** Judge name → its per-pair sample grades (runs on chunks with samples ≥ 2 only). */
  samples: Map<string, TSampleGrades[]>;
  /** Jury name → its members, in the jury's order. */
  juries: Map<string, string[]>;
  /** Judge name → its pairs with an imported probability of grade ≥ 1 or ≥ 2 (null: not given). */
  probabilities: Map<string, TPairProbability[]>;
};
export type TPairProbability = { queryId: number; chunkId: number; pGe1: number | null; pGe2: number | null };

const loaded = (data: TCacheHolder) =>
  cacheOf(data).carried("trust.loaded", () => new WeakMap<object, { runs: string; input: Promise<TTrustInput> }>());

async function read(db: Db, projectId: number): Promise<TTrustInput> {
  const [runRows, juryRows, probabilityRows] = await Promise.all([
    rows(
      db,
      `SELECT "id", "judge", "model", "templateSha256", "samples", "status", "target" FROM "JudgeRun" WHERE "projectId" = ? ORDER BY "id"`,
      [projectId],
    ),
    rows(
      db,
      `SELECT "judge", min("provenance") FROM "JudgeLabel" WHERE "projectId" = ? AND "provenance" LIKE '{"kind":"jury"%' GROUP BY "judge"`,
      [projectId],
    ),
    typedRows(db, (k) =>
      k
        .selectFrom("JudgeLabel")
        .select(["judge", "queryId", "chunkId", "pGe1", "pGe2"])
        .where("projectId", "=", projectId)
        .where((eb) => eb.or([eb("pGe1", "is not", null), eb("pGe2", "is not", null)])),
    ),
  ]);
  const runs = new Map<string, TJudgeRunInfo>();
  for (const r of runRows)
    runs.set(str(r[1]), {
      runId: num(r[0]),
      model: str(r[2]),
      templateSha256: str(r[3]),
      samples: num(r[4]),
      status: str(r[5]),
      target: str(r[6]),
    });
  const samples = new Map<string, TSampleGrades[]>();
  await Promise.all(
    [...runs].map(async ([judge, r]) => {
      if (r.samples > 1 && r.target === "chunks") samples.set(judge, await sampleGrades(db, r.runId, r.samples));
    }),
  );
  const juries = new Map<string, string[]>();
  for (const j of juryRows) {
    const p = JSON.parse(str(j[1])) as { members?: Record<string, number> };
    if (p.members) juries.set(str(j[0]), Object.keys(p.members));
  }
  const probabilities = new Map<string, TPairProbability[]>();
  for (const r of probabilityRows) {
    let list = probabilities.get(r.judge);
    if (!list) probabilities.set(r.judge, (list = []));
    list.push({ queryId: num(r.queryId), chunkId: num(r.chunkId), pGe1: numOrNull(r.pGe1), pGe2: numOrNull(r.pGe2) });
  }
  return { runs, samples, juries, probabilities };
}

/** The trust card's input for this load, read once per judge label set and run state. */
export function loadTrust(db: Db, data: TDashboardData): Promise<TTrustInput> {
  const runsKey = JSON.stringify([...data.judgeRuns]);
  const kept = loaded(data).get(data.judges);
  if (kept && kept.runs === runsKey) return kept.input;
  const input = read(db, data.project.id);
  loaded(data).set(data.judges, { runs: runsKey, input });
  input.catch(() => loaded(data).delete(data.judges));
  return input;
}
