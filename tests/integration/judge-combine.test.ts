import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { createTestDatabase, type TestDb } from "../helpers/db.ts";
import { runCli } from "../helpers/cli.ts";
import { makeAssignedItems, makeJudgeLabels, makeProject, makeUser } from "../helpers/factories.ts";

/**
 * `assessor judge combine` on the real database: 6 questions × 5 pooled pairs; people graded every
 * pair (two annotators, agreeing: the reference); judge "good" gives the reference grade, "off" the
 * reference plus one (capped at 3) and "coin" a grade unrelated to it; a fourth judge labels only
 * the first question (so it shares one question with the others).
 */
let tdb: TestDb;
let db: Db;
let project: string;
const reference = new Map<string, number>();

beforeAll(async () => {
  tdb = await createTestDatabase();
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  const p = await makeProject(db, { name: "jury", annotatorsPerItem: 2 });
  project = p.name;
  const a = await makeUser(db, { role: "annotator" });
  const b = await makeUser(db, { role: "annotator" });
  const { submitJudgement } = await import("../../lib/labels/submit.ts");
  const good: { queryId: number; chunkId: number; grade: number }[] = [];
  const off: typeof good = [];
  const coin: typeof good = [];
  let n = 0;
  for (let q = 0; q < 6; q++) {
    const items = await makeAssignedItems(db, p.id, 5, [a, b], `q${q}`);
    for (const [k, it] of items.entries()) {
      const grade = (q + k) % 4;
      reference.set(`${it.queryId}:${it.chunkId}`, grade);
      for (const u of [a, b])
        await submitJudgement(db, u.id, {
          poolItemId: it.id,
          grade,
          startSeconds: null,
          notes: "",
          flags: [],
          timeSpentMs: 1000,
          idempotencyKey: `jury-key-${n++}`,
        });
      good.push({ queryId: it.queryId, chunkId: it.chunkId, grade });
      off.push({ queryId: it.queryId, chunkId: it.chunkId, grade: Math.min(3, grade + 1) });
      coin.push({ queryId: it.queryId, chunkId: it.chunkId, grade: (k * 3 + q) % 4 });
    }
  }
  await makeJudgeLabels(db, p.id, "good", good);
  await makeJudgeLabels(db, p.id, "off", off);
  await makeJudgeLabels(db, p.id, "coin", coin);
  await makeJudgeLabels(db, p.id, "partial", good.slice(0, 5));
});

afterAll(async () => {
  await tdb.cleanup();
});

const juryLabels = (judge: string) =>
  db.judgeLabel.findMany({
    where: { judge },
    select: { queryId: true, chunkId: true, grade: true, provenance: true },
    orderBy: [{ queryId: "asc" }, { chunkId: "asc" }],
  });

describe("assessor judge combine", () => {
  it("makes a median jury on the pairs all members labelled, with each member's grade as provenance", async () => {
    const r = runCli([
      "judge",
      "combine",
      "--project",
      project,
      "--judge",
      "med",
      "--method",
      "median",
      "good",
      "off",
      "coin",
    ]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^jury med \(median of good, off, coin\): 30 pairs labelled/);
    const labels = await juryLabels("med");
    expect(labels).toHaveLength(30);
    for (const l of labels) {
      const prov = JSON.parse(l.provenance!) as { kind: string; method: string; members: Record<string, number> };
      expect(prov.kind).toBe("jury");
      expect(prov.method).toBe("median");
      const g = Object.values(prov.members).sort((x, y) => x - y);
      expect(l.grade).toBe(g[1]);
      expect(prov.members.good).toBe(reference.get(`${l.queryId}:${l.chunkId}`));
    }
  });

  it("offers the pairs where the jury's members disagree to assign --unstable-first", async () => {
    const { unstableOfRun } = await import("../../lib/assignment/targets.ts");
    const projectId = (await db.project.findUniqueOrThrow({ where: { name: project } })).id;
    const expected = new Set(
      (await juryLabels("med"))
        .filter(
          (l) =>
            new Set(Object.values((JSON.parse(l.provenance!) as { members: Record<string, number> }).members)).size > 1,
        )
        .map((l) => `${l.queryId}:${l.chunkId}`),
    );
    // "off" differs from "good" wherever the reference grade is below 3: most pairs disagree.
    expect(expected.size).toBeGreaterThan(0);
    expect(expected.size).toBeLessThan(30);
    expect(await unstableOfRun(db, projectId, "med")).toEqual(expected);
  });

  it("weighted: learns from people to follow the judge that agrees with them, cross-fitted", async () => {
    const r = runCli([
      "judge",
      "combine",
      "--project",
      project,
      "--judge",
      "w",
      "--method",
      "weighted",
      "--folds",
      "3",
      "off",
      "coin",
      "good",
    ]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("learned on 30 human reference labels, cross-fitted over questions");
    const labels = await juryLabels("w");
    // "good" equals the reference and "off" is the reference + 1 capped, so the least-squares fit on
    // the other folds reproduces the reference grade on every held-out pair.
    expect(labels.every((l) => l.grade === reference.get(`${l.queryId}:${l.chunkId}`))).toBe(true);
    const folds = new Set(labels.map((l) => (JSON.parse(l.provenance!) as { fold: number }).fold));
    expect(folds).toEqual(new Set([0, 1, 2]));
    // The jury is a judge like any other: exported as qrels.
    const exported = runCli(["judge", "export", "w", "--project", project]);
    expect(exported.code).toBe(0);
    expect(exported.stdout.trim().split("\n")).toHaveLength(30);
  });

  it("leaves out pairs not every member labelled, and refuses what it cannot do, changing nothing", async () => {
    const r = runCli(["judge", "combine", "--project", project, "--judge", "p", "--method", "mean", "good", "partial"]);
    expect(r.stdout).toMatch(/: 5 pairs labelled .*; 25 pairs not labelled by every member left out/);
    const before = await db.judgeLabel.count();
    for (const [args, message] of [
      [
        ["--judge", "x", "--method", "vote", "good", "off"],
        '--method: expected one of median, majority, mean, weighted, got "vote"',
      ],
      [["--judge", "x", "--method", "mean", "good", "good"], "a jury needs at least two different judges, got 1"],
      [["--judge", "x", "--method", "mean", "good", "nobody"], '"nobody"'],
      [["--judge", "med", "--method", "mean", "good", "off"], '"med" already has 30 labels: add --replace'],
      [["--judge", "good", "--method", "mean", "--replace", "off", "coin"], "not a jury's"],
    ] as const) {
      const bad = runCli(["judge", "combine", "--project", project, ...args]);
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toContain(message);
    }
    expect(await db.judgeLabel.count()).toBe(before);
    const again = runCli([
      "judge",
      "combine",
      "--project",
      project,
      "--judge",
      "med",
      "--method",
      "mean",
      "--replace",
      "good",
      "off",
    ]);
    expect(again.code).toBe(0);
    expect(
      (await juryLabels("med")).every((l) => (JSON.parse(l.provenance!) as { method: string }).method === "mean"),
    ).toBe(true);
  });
});
