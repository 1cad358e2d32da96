import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import type { Db } from "../../lib/db/client.ts";
import { createTestDatabase, type TestDb } from "../helpers/db.ts";
import { runCli } from "../helpers/cli.ts";
import { makeAssignedItems, makeJudgeLabels, makeProject, makeUser } from "../helpers/factories.ts";
import type { TAnnotatorsReport } from "../../lib/annotators/report.ts";

/**
 * `assessor annotators report` on the real database: 4 questions × 4 items, both annotators
 * graded every item through the annotator's submit path (lib/labels/submit.ts), one disagreement
 * adjudicated through lib/adjudication/decide.ts. Annotator "lenient" gives one grade more than
 * "steady" on the first item of every question (grade 1 where steady gives 0); the adjudicator
 * sides with steady on q1 only; q2–q4's disagreements wait for adjudication, so they are not in
 * the reference.
 */
let tdb: TestDb;
let db: Db;
let projectName: string;
let steady: { id: string; email: string };
let lenient: { id: string; email: string };

beforeAll(async () => {
  tdb = await createTestDatabase();
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  const p = await makeProject(db, { name: "quality", annotatorsPerItem: 2 });
  projectName = p.name;
  steady = await makeUser(db, { role: "annotator" });
  lenient = await makeUser(db, { role: "annotator" });
  const lead = await makeUser(db, { role: "lead" });
  const { submitJudgement } = await import("../../lib/labels/submit.ts");
  const { adjudicate } = await import("../../lib/adjudication/decide.ts");
  let n = 0;
  const judge: { queryId: number; chunkId: number; grade: number }[] = [];
  for (const q of ["q1", "q2", "q3", "q4"]) {
    const items = await makeAssignedItems(db, p.id, 4, [steady, lenient], q);
    for (const [k, it] of items.entries()) {
      const grade = [0, 3, 2, 0][k];
      for (const u of [steady, lenient]) {
        await submitJudgement(db, u.id, {
          poolItemId: it.id,
          grade: u === lenient && k === 0 ? 1 : grade,
          startSeconds: grade === 3 ? (u === steady ? 10 : 12) : null,
          notes: "",
          flags: [],
          timeSpentMs: u === lenient ? 2000 : 20_000 + 1000 * k,
          idempotencyKey: `quality-${n++}`,
        });
      }
      judge.push({ queryId: it.queryId, chunkId: it.chunkId, grade });
    }
    if (q === "q1")
      await adjudicate(db, lead.id, {
        poolItemId: items[0].id,
        grade: 0,
        startSeconds: null,
        idempotencyKey: "quality-adjudication",
      });
  }
  await makeJudgeLabels(db, p.id, "j1", judge);
});

afterAll(async () => {
  await tdb.cleanup();
});

describe("assessor annotators report", () => {
  it("reports each annotator against the reference, the other annotator and a judge", () => {
    const r = runCli([
      "annotators",
      "report",
      "--project",
      projectName,
      "--judge",
      "j1",
      "--format",
      "json",
      "--names",
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as TAnnotatorsReport;
    expect(report.judge).toBe("j1");
    const byName = new Map(report.annotators.map((a) => [a.annotator, a]));
    const s = byName.get(steady.email)!;
    const l = byName.get(lenient.email)!;
    expect(s.graded).toBe(16);
    expect(l.graded).toBe(16);
    // Reference pairs: the 12 agreed items (grades 3, 2, 0 per question) and q1's adjudicated one.
    // steady: 13 pairs, all equal: kappa 1. lenient: the same 12 plus (0 → 1) on q1.
    expect(s.reference).toMatchObject({ n: 13, questions: 4, linear: 1, quadratic: 1 });
    expect(l.reference).toMatchObject({ n: 13, questions: 4 });
    if ("reason" in l.reference) throw new Error(l.reference.reason);
    // lenient's leniency: one +1 in 13 pairs.
    expect(l.reference.leniency?.value).toBeCloseTo(1 / 13, 12);
    expect(s.reference.leniency?.value).toBe(0);
    // Adjudication overturned lenient's grade once (of 16 graded), steady's never.
    expect(l.adjudication).toEqual({ adjudicated: 1, overturned: 1, share: 1 / 16 });
    expect(s.adjudication).toEqual({ adjudicated: 1, overturned: 0, share: 0 });
    // Start: steady 10, lenient 12 on each question's grade-3 item (agreed: the other's start is
    // the reference): error 2 s, four times each.
    expect(s.start).toEqual({ n: 4, meanAbsError: 2, medianAbsError: 2 });
    // lenient took 2 s for every item: all at or under the 3 s threshold; steady 20–23 s.
    expect(l.time).toMatchObject({ n: 16, medianMs: 2000, p10Ms: 2000, fastShare: 1 });
    expect(s.time).toMatchObject({ n: 16, medianMs: 21_500, p10Ms: 20_000, fastShare: 0 });
    expect(s.peers).toEqual([expect.objectContaining({ other: lenient.email, n: 16 })]);
    // The ability model (Dawid–Skene) sees lenient grade higher than steady.
    const model = new Map(report.model!.annotators.map((m) => [m.annotator, m]));
    expect(model.get(lenient.email)!.bias).toBeGreaterThan(model.get(steady.email)!.bias);
    expect(report.model!.items).toBe(16);
    // No generated answers in this project: no answer-label rows.
    expect(report.answers).toEqual([]);
    // The judge gave the true grade everywhere: steady agrees fully.
    expect(s.judge).toMatchObject({ n: 16, linear: 1, quadratic: 1 });
  });

  it("names annotators by a pseudonym unless asked for names, and writes CSV with one row per comparison", () => {
    const r = runCli(["annotators", "report", "--project", projectName, "--format", "csv", "--fast-seconds", "25"]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain(steady.email);
    const rows = parse(r.stdout, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(4);
    expect(rows.every((row) => /^annotator-[0-9a-f]{8}$/.test(row.annotator))).toBe(true);
    expect(rows.map((row) => row.compared_with).filter((c) => c === "reference")).toHaveLength(2);
    // Threshold 25 s: every grade of both annotators is at or under it.
    expect(rows.every((row) => row.fast_share === "1" && row.fast_threshold_s === "25")).toBe(true);
  });

  it("refuses an unknown judge and a negative threshold, naming them", () => {
    const r = runCli(["annotators", "report", "--project", projectName, "--judge", "nope"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('"nope"');
    const t = runCli(["annotators", "report", "--project", projectName, "--fast-seconds", "-1"]);
    expect(t.code).not.toBe(0);
    expect(t.stderr).toContain("--fast-seconds");
  });
});
