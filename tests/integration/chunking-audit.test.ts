import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { makeUser } from "../helpers/factories.ts";
import { seedTransferProject } from "../helpers/transfer-project.ts";
import type { Db } from "../../lib/db/client.ts";

/**
 * The audit of a transfer judge and pooling what the transfer leaves:
 * `assign --sample N --chunking B` draws N transfer-labelled pairs of B stratified by derived grade
 * (lib/assignment/audit.ts), creating their pool items; `pool --chunking B` then adds only B's
 * top-K pairs without a transfer label and reports the pairs saved; once the audit is graded, the
 * dashboard's judge-vs-human panel lists `transfer:A->B` with kappa on the audited items, and the
 * PPI panel takes it as its judge.
 *
 * Project: tests/helpers/transfer-project.ts (60 ranked pairs of B, 48 transferred, 12 unjudged).
 */
useTestDatabase();
let db: Db;
let projectId: number;
const chunkIds = { A: [] as number[], B: [] as number[] };
const queryIds: number[] = [];

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  const seeded = await seedTransferProject(db);
  projectId = seeded.projectId;
  queryIds.push(...seeded.queryIds);
  chunkIds.A.push(...seeded.chunkIds.A);
  chunkIds.B.push(...seeded.chunkIds.B);
  for (let k = 0; k < 2; k++) await makeUser(db, { role: "annotator" });
  const { transferJudge } = await import("../../lib/chunkings/transfer.ts");
  await transferJudge(db, projectId, { from: "A", to: "B" });
}, 120_000);

const transferGrade = async () =>
  new Map(
    (await db.judgeLabel.findMany({ where: { projectId, judge: "transfer:A->B" } })).map((l) => [
      `${l.queryId}:${l.chunkId}`,
      l.grade,
    ]),
  );

describe("audit sample and pooling for chunking B", () => {
  it("samples N transfer-labelled pairs, stratified by derived grade as auditAllocation says, creating their pool items", async () => {
    const { assign } = await import("../../lib/assignment/assign.ts");
    const { auditAllocation } = await import("../../lib/assignment/audit.ts");
    const grades = await transferGrade();
    expect(grades.size).toBe(48);
    const sizes = new Map<number, number>();
    for (const g of grades.values()) sizes.set(g, (sizes.get(g) ?? 0) + 1);
    const r = await assign(db, projectId, { perItem: 2, sample: 8, chunking: "B", seed: 7 });
    expect(r.items).toBe(8);
    expect(r.created).toBe(16);
    expect(r.audit?.newItems).toBe(8);
    expect(r.audit?.judges).toEqual(["transfer:A->B"]);
    const want = auditAllocation(sizes, 8);
    expect(Object.fromEntries([0, 1, 2, 3].map((g) => [g, want.get(g) ?? 0]))).toEqual(r.audit?.byGrade);
    // Read back: the sampled pool items' derived grades, each item assigned to both annotators, marked calibration.
    const items = await db.poolItem.findMany({
      where: { projectId },
      select: { queryId: true, chunkId: true, assignments: { select: { calibration: true } } },
    });
    expect(items).toHaveLength(8);
    const counted: Record<number, number> = { 0: 0, 1: 0, 2: 0, 3: 0 };
    for (const it of items) {
      counted[grades.get(`${it.queryId}:${it.chunkId}`)!]++;
      expect(it.assignments.map((a) => a.calibration)).toEqual([true, true]);
    }
    expect(counted).toEqual(r.audit?.byGrade);
    // Every non-empty stratum is represented.
    for (const [g, n] of sizes) if (n > 0) expect(counted[g]).toBeGreaterThan(0);
    // Same seed, same data: the same sample (in a fresh copy of the choice, without writing).
    expect(auditAllocation(sizes, 8)).toEqual(want);
  });

  it("pool --chunking B adds only the unjudged pairs, keeps the audit items, and reports the saved ones", async () => {
    const { buildPool } = await import("../../lib/pooling/build.ts");
    const before = new Set(
      (await db.poolItem.findMany({ where: { projectId }, select: { id: true } })).map((p) => p.id),
    );
    const r = await buildPool(db, projectId, { depth: 10, chunking: "B" });
    // 60 top-10 pairs: 12 unjudged are added, the 8 audit items get provenance, 48 − 8 = 40 are saved.
    expect(r).toMatchObject({
      chunking: "B",
      transferJudges: ["transfer:A->B"],
      pooledResults: 60,
      newItems: 12,
      newProvenance: 20,
      saved: 40,
      totalItems: 20,
    });
    const grades = await transferGrade();
    const added = (
      await db.poolItem.findMany({ where: { projectId }, select: { id: true, queryId: true, chunkId: true } })
    ).filter((p) => !before.has(p.id));
    expect(
      added.every((p) => !grades.has(`${p.queryId}:${p.chunkId}`) && chunkIds.B.slice(8).includes(p.chunkId)),
    ).toBe(true);
    await expect(buildPool(db, projectId, { depth: 10, chunking: "A" })).rejects.toThrow(
      "no runs to pool in chunking A",
    );
  });

  it("the dashboard audits transfer:A->B on the graded audit items like any judge (agreement, PPI)", async () => {
    const { submitJudgement } = await import("../../lib/labels/submit.ts");
    const { getAgreement, getPpi } = await import("../../lib/dashboard/panels.ts");
    const grades = await transferGrade();
    const assignments = await db.assignment.findMany({
      where: { calibration: true },
      select: { userId: true, poolItem: { select: { id: true, queryId: true, chunkId: true } } },
      orderBy: { poolItemId: "asc" },
    });
    // Both annotators give the derived grade, except on the first audited item, where they give (grade + 1) mod 4.
    const first = assignments[0].poolItem.id;
    const human = new Map<string, number>();
    for (const [k, a] of assignments.entries()) {
      const derived = grades.get(`${a.poolItem.queryId}:${a.poolItem.chunkId}`)!;
      const grade = a.poolItem.id === first ? (derived + 1) % 4 : derived;
      human.set(a.poolItem.id, grade);
      await submitJudgement(db, a.userId, {
        poolItemId: a.poolItem.id,
        grade,
        startSeconds: null,
        notes: "",
        flags: [],
        timeSpentMs: null,
        idempotencyKey: `audit-${k}-key`,
      });
    }
    const panel = await getAgreement(db, projectId, { source: "human", gain: "exponential" });
    const block = panel.judges.find((j) => j.name === "transfer:A->B");
    expect(block?.report?.n).toBe(8);
    // Confusion (human rows, judge columns) and quadratic-weighted kappa (Cohen 1968: 1 − Σ w·o / Σ w·e, w = (i − j)²) by hand.
    const o = [0, 1, 2, 3].map(() => [0, 0, 0, 0]);
    for (const a of assignments.filter((_, i) => i % 2 === 0))
      o[human.get(a.poolItem.id)!][grades.get(`${a.poolItem.queryId}:${a.poolItem.chunkId}`)!]++;
    expect(block?.report?.confusion).toEqual(o);
    const rows = o.map((r) => r.reduce((x, y) => x + y, 0));
    const cols = [0, 1, 2, 3].map((j) => o.reduce((x, r) => x + r[j], 0));
    let wo = 0;
    let we = 0;
    for (let i = 0; i < 4; i++)
      for (let j = 0; j < 4; j++) {
        wo += (i - j) ** 2 * o[i][j];
        we += ((i - j) ** 2 * rows[i] * cols[j]) / 8;
      }
    expect(block?.report?.kappa.quadratic).toBeCloseTo(1 - wo / we, 10);
    // PPI takes the transfer judge by name. No question is complete yet (b8, b9 are pooled and unlabelled everywhere).
    const before = await getPpi(db, projectId, { source: "human", gain: "exponential", judge: "transfer:A->B" });
    expect(before).toMatchObject({ judge: "transfer:A->B", table: null });
    expect(before.empty).toContain("completely human-labelled");
    // Grade every pool item of q0 and q1: two complete questions; the transfer labels serve the other four.
    const { assign } = await import("../../lib/assignment/assign.ts");
    await assign(db, projectId, { perItem: 2, seed: 1 });
    const open = await db.assignment.findMany({
      where: { calibration: false, poolItem: { queryId: { in: queryIds.slice(0, 2) } } },
      select: { userId: true, poolItemId: true },
    });
    for (const [k, a] of open.entries())
      await submitJudgement(db, a.userId, {
        poolItemId: a.poolItemId,
        grade: 0,
        startSeconds: null,
        notes: "",
        flags: [],
        timeSpentMs: null,
        idempotencyKey: `rest-${k}-key`,
      });
    const ppi = await getPpi(db, projectId, { source: "human", gain: "exponential", judge: "transfer:A->B" });
    expect(ppi).toMatchObject({ judge: "transfer:A->B", empty: null });
    expect(ppi.table).not.toBeNull();
  });
});
