import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { runCli } from "../helpers/cli.ts";
import { makeAssignedItems, makeJudgeLabels, makeProject, makeUser } from "../helpers/factories.ts";
import type { Db } from "../../lib/db/client.ts";

/**
 * Hidden check items on the real database (SQLite, and PostgreSQL with TEST_DATABASE_URL): 3
 * questions × 8 items graded by two annotators (reference grades 0,1,2,3,0,1,2,3 per question);
 * on q1 two items disagree and wait, on q2 two disagree and are adjudicated: 22 settled items.
 * `assign --checks` serves them again to two fresh annotators; their grades (one always right, one
 * always wrong) must never move the reference, the agreement panels, the adjudication queue or the
 * exports, and come back as each annotator's check accuracy.
 */
useTestDatabase();
let db: Db;
let projectName: string;
let projectId: number;
let fresh: { id: string; email: string }[];
const REF = [0, 1, 2, 3, 0, 1, 2, 3];
const refOf = new Map<string, number>();

async function snapshot() {
  const { referenceLabels } = await import("../../lib/labels/reference.ts");
  const { adjudicationQueue } = await import("../../lib/adjudication/queue.ts");
  const { exportLabels } = await import("../../lib/exports/labels.ts");
  const { servePanel } = await import("../../lib/dashboard/serve.ts");
  const { ZDashboardQuery } = await import("../../lib/dashboard/options.ts");
  const q = ZDashboardQuery.parse({ judge: "j" });
  const now = new Date(Date.UTC(2026, 0, 1));
  return JSON.stringify({
    reference: await referenceLabels(db, projectId),
    queue: await adjudicationQueue(db, projectId),
    jsonl: (await exportLabels(db, projectId, "jsonl", now)).content,
    agreement: await servePanel(db, String(projectId), "agreement", q),
    human: await servePanel(db, String(projectId), "human", q),
    progress: await servePanel(db, String(projectId), "progress", q),
    items: await db.poolItem.findMany({
      where: { projectId },
      select: { id: true, disputedAt: true },
      orderBy: { id: "asc" },
    }),
    judgements: await db.judgement.count(),
    events: await db.labelEvent.count(),
  });
}

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  const p = await makeProject(db, { name: "checks", annotatorsPerItem: 2 });
  projectName = p.name;
  projectId = p.id;
  const [a, b] = [await makeUser(db), await makeUser(db)];
  fresh = [await makeUser(db), await makeUser(db)];
  const lead = await makeUser(db, { role: "lead" });
  const { submitJudgement } = await import("../../lib/labels/submit.ts");
  const { adjudicate } = await import("../../lib/adjudication/decide.ts");
  let n = 0;
  const judge: { queryId: number; chunkId: number; grade: number }[] = [];
  for (const q of ["q1", "q2", "q3"]) {
    const items = await makeAssignedItems(db, p.id, 8, [a, b], q);
    for (const [k, it] of items.entries()) {
      const disagree = q !== "q3" && k < 2;
      for (const u of [a, b])
        await submitJudgement(db, u.id, {
          poolItemId: it.id,
          grade: disagree && u === b ? 3 : REF[k],
          startSeconds: null,
          notes: "",
          flags: [],
          timeSpentMs: 1000,
          idempotencyKey: `checks-${n++}`,
        });
      if (disagree && q === "q2")
        await adjudicate(db, lead.id, {
          poolItemId: it.id,
          grade: REF[k],
          startSeconds: null,
          idempotencyKey: `adjudicate-${k}`,
        });
      if (!disagree || q === "q2") refOf.set(it.id, REF[k]);
      judge.push({ queryId: it.queryId, chunkId: it.chunkId, grade: REF[k] });
    }
  }
  await makeJudgeLabels(db, p.id, "j", judge);
});

describe("hidden check items", () => {
  it("assign --checks marks the share of settled items, each to one annotator who has not seen it, balanced", async () => {
    const bad = runCli(["assign", "--checks", "0", "--project", projectName]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("--checks");
    const mixed = runCli(["assign", "--checks", "0.5", "--sample", "3", "--project", projectName]);
    expect(mixed.code).not.toBe(0);
    expect(await db.assignment.count({ where: { checkItem: true } })).toBe(0);

    const r = runCli(["assign", "--checks", "0.5", "--seed", "7", "--project", projectName]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    // 22 settled items, round(0.5 · 22) = 11.
    expect(r.stdout).toContain("11 new check item(s): 11 of 22 settled item(s) (target 11, share 0.5), seed 7");
    const checks = await db.assignment.findMany({
      where: { checkItem: true },
      select: { poolItemId: true, userId: true },
    });
    expect(checks).toHaveLength(11);
    expect(new Set(checks.map((c) => c.poolItemId)).size).toBe(11);
    for (const c of checks) {
      expect(refOf.has(c.poolItemId), "only settled items").toBe(true);
      expect(fresh.map((u) => u.id)).toContain(c.userId);
    }
    const perUser = fresh.map((u) => checks.filter((c) => c.userId === u.id).length).sort();
    expect(perUser).toEqual([5, 6]);
    // Again at the same share: nothing missing, nothing added.
    const again = runCli(["assign", "--checks", "0.5", "--project", projectName]);
    expect(again.stdout).toContain("0 new check item(s): 11 of 22");
    const status = JSON.parse(runCli(["status", "--json", "--project", projectName]).stdout) as { checks: unknown };
    expect(status.checks).toEqual({ items: 11, assigned: 11, graded: 0 });
  });

  it("takes the annotators' check grades without moving the reference, agreement, queue or exports", async () => {
    const { assignChecks } = await import("../../lib/assignment/checks.ts");
    const { submitJudgement } = await import("../../lib/labels/submit.ts");
    const { annotatorQueuePage } = await import("../../lib/annotate/queue.ts");
    const { annotatorItem } = await import("../../lib/annotate/view.ts");
    const all = await assignChecks(db, projectId, { share: 1, seed: 3 });
    expect(all).toMatchObject({ settled: 22, target: 22, existing: 11, created: 11, shortfall: 0 });
    const before = await snapshot();
    const checks = await db.assignment.findMany({
      where: { checkItem: true },
      select: { poolItemId: true, userId: true },
    });
    const [right] = fresh;
    let n = 0;
    for (const c of checks) {
      const ref = refOf.get(c.poolItemId)!;
      // `right` gives the reference; `wrong` gives (reference + 1) mod 4, never equal, which would dispute an ordinary item.
      const grade = c.userId === right.id ? ref : (ref + 1) % 4;
      const key = `check-key-${n++}`;
      const first = await submitJudgement(db, c.userId, {
        poolItemId: c.poolItemId,
        grade,
        startSeconds: null,
        notes: "mine",
        flags: [],
        timeSpentMs: 500,
        idempotencyKey: key,
      });
      expect(first.applied).toBe(true);
      // A retry of the same key: not applied again, the stored grade echoed.
      const retry = await submitJudgement(db, c.userId, {
        poolItemId: c.poolItemId,
        grade,
        startSeconds: null,
        notes: "mine",
        flags: [],
        timeSpentMs: 500,
        idempotencyKey: key,
      });
      expect(retry).toMatchObject({ applied: false, judgement: { grade, poolItemId: c.poolItemId } });
    }
    // The key of a check grade reused for another item is the same conflict as an ordinary key's.
    const other = checks.find((c) => c.userId === checks[0].userId && c.poolItemId !== checks[0].poolItemId)!;
    await expect(
      submitJudgement(db, other.userId, {
        poolItemId: other.poolItemId,
        grade: 1,
        startSeconds: null,
        notes: "",
        flags: [],
        timeSpentMs: 1,
        idempotencyKey: "check-key-0",
      }),
    ).rejects.toMatchObject({ code: "conflict" });

    expect(await snapshot()).toEqual(before);
    expect(await db.checkJudgement.count()).toBe(22);
    expect(await db.checkEvent.count()).toBe(22);

    // The annotator's own views count and show the check grades like any other.
    const page = await annotatorQueuePage(db, right.id, projectId, { limit: 50 });
    expect(page?.items.length).toBe(11);
    expect(page?.items.every((i) => i.done)).toBe(true);
    expect(
      (await annotatorItem(db, right.id, checks.find((c) => c.userId === right.id)!.poolItemId))?.own,
    ).toMatchObject({ notes: "mine" });
    const status = JSON.parse(runCli(["status", "--json", "--project", projectName]).stdout) as { checks: unknown };
    expect(status.checks).toEqual({ items: 22, assigned: 22, graded: 22 });
  });

  it("reports each annotator's accuracy on check items (json and csv)", async () => {
    const r = runCli(["annotators", "report", "--names", "--format", "json", "--project", projectName]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as import("../../lib/annotators/report.ts").TAnnotatorsReport;
    const [right, wrong] = fresh;
    const byName = new Map(report.checks.map((c) => [c.annotator, c]));
    const good = byName.get(right.email)!;
    const bad = byName.get(wrong.email)!;
    if ("reason" in good || "reason" in bad) throw new Error("expected numbers");
    // 11 of 11 equal: exact 1, Wilson [0.741167, 1] (tests/unit/stats/annotators-checks.test.ts), difference 0.
    expect(good).toMatchObject({ n: 11, questions: 3, exact: 1, meanSignedDifference: 0 });
    expect(good.exactInterval.low).toBeCloseTo(0.741167, 5);
    // (ref + 1) mod 4 − ref: +1 for references 0–2, −3 for 3; 11 items of which k have reference 3.
    const wrongItems = (await db.assignment.findMany({ where: { checkItem: true, userId: wrong.id } })).map((a) =>
      refOf.get(a.poolItemId),
    );
    const threes = wrongItems.filter((g) => g === 3).length;
    expect(bad).toMatchObject({ n: 11, exact: 0 });
    expect(bad.meanSignedDifference).toBeCloseTo((11 - 4 * threes) / 11, 12);
    // The people who made the reference have no check grades; the check grades are not in their kappas' pairs.
    expect(report.checks).toHaveLength(2);
    expect(report.annotators.map((a) => a.annotator).sort()).not.toContain(right.email);

    const csv = runCli(["annotators", "report", "--names", "--format", "csv", "--project", projectName]);
    const rows = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    const row = rows.find((x) => x.annotator === right.email && x.compared_with === "check items (settled reference)");
    expect(row).toMatchObject({ n: "11", check_exact: "1", check_mean_signed_difference: "0" });
  });
});
