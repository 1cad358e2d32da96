import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { AppError } from "../../lib/errors.ts";
import { importRun } from "../../lib/imports/run.ts";
import { buildPool } from "../../lib/pooling/build.ts";
import { fuseStoredRuns, type TFuse } from "../../lib/runs/fuse.ts";
import { runCli } from "../helpers/cli.ts";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { makeChunks, makeProject, makeQueries } from "../helpers/factories.ts";

/**
 * Fusion from the lead's page (lib/runs/fuse.ts): the fused run stored in the database is the
 * run `assessor fuse` prints for the files that were imported (line for line, and the same
 * content hash), it pools like any run, and a refused request writes nothing.
 */
useTestDatabase();
let db: Db;
let projectId: number;
let dir: string;

// Scores that are not round in binary, ties (broken by docid descending in byte order: "d9" >
// "d10"), negative scores, and a query only one run answers; lines not in rank order.
const FILES: Record<string, string> = {
  bm25:
    [
      "q1 Q0 d1 1 12.3 bm25",
      "q1 Q0 d2 2 11.7 bm25",
      "q1 Q0 d9 3 9.1 bm25",
      "q1 Q0 d10 4 9.1 bm25",
      "q2 Q0 d3 1 0.30000000000000004 bm25",
      "q2 Q0 d4 2 -1.5 bm25",
      "q10 Q0 d5 1 7 bm25",
    ].join("\n") + "\n",
  vector:
    [
      "q1 Q0 d2 1 0.91 vector",
      "q1 Q0 d10 2 0.87 vector",
      "q1 Q0 d6 3 0.5 vector",
      "q2 Q0 d4 1 0.99 vector",
      "q2 Q0 d3 2 0.1 vector",
      "q2 Q0 d1 3 0.1 vector",
    ].join("\n") + "\n",
  splade:
    [
      "q1 Q0 d6 2 3.25 splade",
      "q1 Q0 d1 1 4 splade",
      "q2 Q0 d5 1 1e-7 splade",
      "q10 Q0 d5 1 2 splade",
      "q10 Q0 d9 2 1 splade",
    ].join("\n") + "\n",
};
const file = (system: string) => join(dir, `${system}.trec`);

beforeAll(async () => {
  db = await (await import("../../lib/db/client.ts")).getDb();
  projectId = (await makeProject(db)).id;
  await makeChunks(db, projectId, ["d1", "d2", "d3", "d4", "d5", "d6", "d9", "d10"]);
  await makeQueries(db, projectId, ["q1", "q2", "q10"]);
  dir = mkdtempSync(join(tmpdir(), "fuse-stored-"));
  for (const [system, text] of Object.entries(FILES)) {
    writeFileSync(file(system), text);
    await importRun(db, projectId, file(system), { system });
  }
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

/** The stored run as TREC lines in the order `assessor fuse` writes them (queries in byte order, then rank). */
async function storedLines(system: string): Promise<string> {
  const run = await db.run.findUniqueOrThrow({ where: { projectId_system: { projectId, system } } });
  const entries = await db.runEntry.findMany({
    where: { runId: run.id },
    select: {
      rank: true,
      score: true,
      query: { select: { externalId: true } },
      chunk: { select: { externalId: true } },
    },
  });
  entries.sort((a, b) =>
    a.query.externalId < b.query.externalId ? -1 : a.query.externalId > b.query.externalId ? 1 : a.rank - b.rank,
  );
  return entries.map((e) => `${e.query.externalId} Q0 ${e.chunk.externalId} ${e.rank} ${e.score} ${system}\n`).join("");
}

/** What `assessor fuse` prints for the imported files with the same options. */
function cliFuse(input: TFuse): string {
  const args = ["fuse", "--method", input.method, "--tag", input.system];
  if (input.k !== undefined) args.push("--k", String(input.k));
  if (input.norm) args.push("--norm", input.norm);
  if (input.weights) args.push("--weights", input.weights.join(","));
  if (input.depth !== undefined) args.push("--depth", String(input.depth));
  const r = runCli([...args, ...input.runs.map(file)]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return r.stdout;
}

async function counts() {
  return {
    runs: await db.run.count(),
    entries: await db.runEntry.count(),
    rankings: await db.runRanking.count(),
    imports: await db.importRecord.count(),
  };
}

describe("fuseStoredRuns", () => {
  const cases: TFuse[] = [
    { system: "rrf", runs: ["bm25", "vector"], method: "rrf" },
    { system: "rrf-k10", runs: ["vector", "bm25", "splade"], method: "rrf", k: 10, depth: 2 },
    { system: "wsum", runs: ["bm25", "vector", "splade"], method: "wsum", norm: "z", weights: [0.7, 0.2, 0.1] },
    { system: "combsum", runs: ["splade", "bm25"], method: "combsum", norm: "sum" },
    { system: "combmnz", runs: ["bm25", "vector"], method: "combmnz", norm: "rank", depth: 3 },
  ];
  for (const input of cases) {
    it(`${input.method} of ${input.runs.join(", ")} stores what assessor fuse prints`, async () => {
      const expected = cliFuse(input);
      const r = await fuseStoredRuns(db, projectId, input);
      expect(await storedLines(input.system)).toBe(expected);
      const run = await db.run.findUniqueOrThrow({
        where: { projectId_system: { projectId, system: input.system } },
        include: { ranking: true },
      });
      // The same bytes as the CLI's output: the content hash of `assessor import run` of that file.
      expect(run.contentHash).toBe(createHash("sha256").update(expected).digest("hex"));
      expect(run.ranking?.contentHash).toBe(run.contentHash);
      expect(r).toMatchObject({
        system: input.system,
        runs: input.runs,
        lines: expected.trim().split("\n").length,
        sha256: run.contentHash,
      });
      expect(r.queries).toBe(
        new Set(
          expected
            .trim()
            .split("\n")
            .map((l) => l.split(" ")[0]),
        ).size,
      );
      expect(run.description).toBe(r.description);
      const record = await db.importRecord.findFirstOrThrow({ where: { projectId, sha256: run.contentHash } });
      expect(record).toMatchObject({ kind: "run", rows: r.lines });
    });
  }

  it("records the method and parameters in the description", async () => {
    const runs = await db.run.findMany({
      where: { projectId, system: { in: ["rrf", "rrf-k10", "wsum", "combsum", "combmnz"] } },
      orderBy: { system: "asc" },
    });
    expect(runs.map((r) => r.description)).toEqual([
      "combmnz norm=rank depth=3 of bm25, vector",
      "combsum norm=sum of splade, bm25",
      "rrf k=60 of bm25, vector",
      "rrf k=10 depth=2 of vector, bm25, splade",
      "wsum norm=z weights=0.7,0.2,0.1 of bm25, vector, splade",
    ]);
    const r = await fuseStoredRuns(db, projectId, {
      system: "noted",
      runs: ["bm25", "splade"],
      method: "combsum",
      description: "hybrid baseline",
    });
    expect(r.description).toBe("hybrid baseline (combsum norm=min-max of bm25, splade)");
  });

  it("pools the fused run like any system", async () => {
    const pool = await buildPool(db, projectId, { depth: 1, runs: ["rrf"] });
    expect(pool).toMatchObject({ runs: ["rrf"], queries: 3 });
    const firsts = (await storedLines("rrf"))
      .split("\n")
      .filter((l) => l.split(" ")[3] === "1")
      .map((l) => `${l.split(" ")[0]} ${l.split(" ")[2]}`);
    const items = await db.poolProvenance.findMany({
      where: { run: { system: "rrf" } },
      select: {
        rank: true,
        poolItem: { select: { query: { select: { externalId: true } }, chunk: { select: { externalId: true } } } },
      },
    });
    expect(items.map((p) => `${p.poolItem.query.externalId} ${p.poolItem.chunk.externalId}`).sort()).toEqual(
      firsts.sort(),
    );
    expect(items.every((p) => p.rank === 1)).toBe(true);
  });

  it("refuses bad requests with a clear error and writes nothing", async () => {
    const before = await counts();
    const refused = async (input: TFuse, code: string, message: RegExp) => {
      const e: unknown = await fuseStoredRuns(db, projectId, input).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).code).toBe(code);
      expect((e as AppError).message).toMatch(message);
    };
    await refused(
      { system: "x", runs: ["bm25", "nope"], method: "rrf" },
      "not_found",
      /^unknown run: nope; runs in this project: bm25, combmnz, combsum, noted, rrf, rrf-k10, splade, vector, wsum$/,
    );
    await refused({ system: "x", runs: ["bm25"], method: "rrf" }, "bad_input", /at least two runs/);
    await refused({ system: "x", runs: ["bm25", "bm25"], method: "rrf" }, "bad_input", /"bm25" is chosen twice/);
    await refused(
      { system: "x", runs: ["bm25", "vector"], method: "wsum", weights: [1, 2, 3] },
      "bad_input",
      /^weights: 2 runs need 2 weights, got 3$/,
    );
    await refused(
      { system: "x", runs: ["bm25", "vector"], method: "rrf", weights: [1, 2] },
      "bad_input",
      /weights applies to method wsum only/,
    );
    await refused(
      { system: "x", runs: ["bm25", "vector"], method: "rrf", norm: "z" },
      "bad_input",
      /norm does not apply to rrf/,
    );
    await refused(
      { system: "vector", runs: ["bm25", "splade"], method: "rrf" },
      "conflict",
      /a run named "vector" already exists/,
    );
    await refused({ system: "  ", runs: ["bm25", "splade"], method: "rrf" }, "bad_input", /needs a system name/);
    expect(await counts()).toEqual(before);
  });
});
