import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../helpers/fixtures.ts";
import type { Db } from "../../lib/db/client.ts";
import { assign, calibrationCounts } from "../../lib/assignment/assign.ts";
import { questionSample } from "../../lib/assignment/questions.ts";
import { calibrationSample } from "../../lib/assignment/sample.ts";
import { mulberry32 } from "../../lib/stats/random.ts";
import { makeChunks, makeJudgeLabels, makeProject, makeQueries, makeUser } from "../helpers/factories.ts";

useTestDatabase();
let db: Db;

beforeAll(async () => {
  db = await (await import("../../lib/db/client.ts")).getDb();
});

/** A project whose pool has `perQuery[i]` items for query i (pool rows written directly). */
async function pooledProject(perQuery: number[]) {
  const p = await makeProject(db);
  const queries = await makeQueries(
    db,
    p.id,
    perQuery.map((_, i) => `q${i + 1}`),
  );
  const total = perQuery.reduce((a, b) => a + b, 0);
  const chunks = await makeChunks(
    db,
    p.id,
    Array.from({ length: total }, (_, i) => `c${i + 1}`),
  );
  const items: { queryId: number; chunkId: number; qid: string }[] = [];
  let c = 1;
  perQuery.forEach((n, qi) => {
    for (let k = 0; k < n; k++)
      items.push({ queryId: queries.get(`q${qi + 1}`)!.id, chunkId: chunks.get(`c${c++}`)!.id, qid: `q${qi + 1}` });
  });
  await db.poolItem.createMany({ data: items.map(({ queryId, chunkId }) => ({ projectId: p.id, queryId, chunkId })) });
  return { project: p, items };
}

async function loads(projectId: number) {
  const rows = await db.assignment.findMany({ where: { poolItem: { projectId } }, include: { user: true } });
  const byUser = new Map<string, number>();
  const byItem = new Map<string, string[]>();
  for (const r of rows) {
    byUser.set(r.user.email, (byUser.get(r.user.email) ?? 0) + 1);
    byItem.set(r.poolItemId, [...(byItem.get(r.poolItemId) ?? []), r.userId]);
  }
  return { rows, byUser, byItem };
}

describe("assign", () => {
  it("balances 7 items × 2 over 3 annotators (5, 5, 4), never twice on an item, random order keys", async () => {
    const { project } = await pooledProject([4, 3]);
    const users = await Promise.all(["a", "b", "c"].map((n) => makeUser(db, { email: `${n}-bal@example.org` })));
    const r = await assign(db, project.id, { perItem: 2, annotators: users.map((u) => u.email), seed: 7 });
    expect(r).toMatchObject({ seed: 7, items: 7, itemsToppedUp: 7, created: 14, calibration: 0, shortfall: 0 });
    const { rows, byUser, byItem } = await loads(project.id);
    // 14 assignments over 3 people: the only split with spread ≤ 1 is 5, 5, 4.
    expect([...byUser.values()].sort()).toEqual([4, 5, 5]);
    for (const list of byItem.values()) expect(new Set(list).size).toBe(2);
    expect(new Set(rows.map((x) => x.orderKey)).size).toBe(14);
    expect(rows.every((x) => x.orderKey >= 0 && x.orderKey < 1 && !x.calibration)).toBe(true);
  });

  it("tops up only what is missing: again adds nothing; a 4th annotator and perItem 3 add one per item", async () => {
    const { project } = await pooledProject([5]);
    const users = await Promise.all(["a", "b", "c"].map((n) => makeUser(db, { email: `${n}-top@example.org` })));
    await assign(db, project.id, { perItem: 2, annotators: users.map((u) => u.email), seed: 1 });
    expect((await assign(db, project.id, { perItem: 2, annotators: users.map((u) => u.email), seed: 2 })).created).toBe(
      0,
    );
    const d = await makeUser(db, { email: "d-top@example.org" });
    const r = await assign(db, project.id, {
      perItem: 3,
      annotators: [...users.map((u) => u.email), d.email],
      seed: 3,
    });
    expect(r.created).toBe(5);
    const { byUser, byItem } = await loads(project.id);
    for (const list of byItem.values()) expect(new Set(list).size).toBe(3);
    // Before: 10 assignments as 4, 3, 3 over a–c and 0 for d. The least-loaded rule gives d the
    // new ones until it reaches the others: d ends with at least 3 of the 5.
    expect(byUser.get("d-top@example.org")).toBeGreaterThanOrEqual(3);
    expect(Math.max(...byUser.values()) - Math.min(...byUser.values())).toBeLessThanOrEqual(1);
  });

  it("defaults to every active annotator and refuses impossible or wrong requests", async () => {
    const { project } = await pooledProject([2]);
    await expect(assign(db, project.id, { perItem: 2, annotators: ["nobody@example.org"] })).rejects.toThrow(
      "--annotators: nobody@example.org: no such user",
    );
    const lead = await makeUser(db, { email: "lead-x@example.org", role: "lead" });
    const gone = await makeUser(db, { email: "gone-x@example.org", active: false });
    await expect(assign(db, project.id, { perItem: 1, annotators: [lead.email, gone.email] })).rejects.toThrow(
      "--annotators: lead-x@example.org: role is lead, expected annotator; gone-x@example.org: deactivated",
    );
    const one = await makeUser(db, { email: "only-x@example.org" });
    await expect(assign(db, project.id, { perItem: 2, annotators: [one.email] })).rejects.toThrow(
      "--per-item 2 needs at least 2 annotators, but only 1 is available (only-x@example.org)",
    );
    const activeAnnotators = await db.user.count({ where: { role: "annotator", active: true } });
    const r = await assign(db, project.id, { perItem: 1, seed: 5 });
    expect(r.annotators).toHaveLength(activeAnnotators);
    expect(r.annotators.some((a) => a.email === gone.email || a.email === lead.email)).toBe(false);
    const empty = await makeProject(db);
    await expect(assign(db, empty.id, { perItem: 1 })).rejects.toThrow("the pool is empty");
  });
});

describe("calibration sample", () => {
  it("without judge labels: round-robin over queries (3 items from 3 queries → one each)", async () => {
    const { project, items } = await pooledProject([4, 4, 4]);
    const users = await Promise.all(["a", "b"].map((n) => makeUser(db, { email: `${n}-cal1@example.org` })));
    const r = await assign(db, project.id, { perItem: 2, annotators: users.map((u) => u.email), sample: 3, seed: 11 });
    expect(r).toMatchObject({ items: 3, created: 6, calibration: 6 });
    const rows = await db.assignment.findMany({
      where: { poolItem: { projectId: project.id } },
      include: { poolItem: true },
    });
    expect(rows.every((x) => x.calibration)).toBe(true);
    const queryIds = new Set(rows.map((x) => x.poolItem.queryId));
    expect(queryIds.size).toBe(3);
    // A second sample takes only items not yet assigned.
    const again = await assign(db, project.id, {
      perItem: 2,
      annotators: users.map((u) => u.email),
      sample: 100,
      seed: 12,
    });
    expect(again.items).toBe(items.length - 3);
  });

  it("with judge labels: the rare grades are all in, the rest spread over queries", async () => {
    const { project, items } = await pooledProject([4, 4, 4]);
    // Judge grades: item 0 → 3, item 5 → 2, all others → 0 (10 items).
    await makeJudgeLabels(
      db,
      project.id,
      "gpt",
      items.map((it, i) => ({ queryId: it.queryId, chunkId: it.chunkId, grade: i === 0 ? 3 : i === 5 ? 2 : 0 })),
    );
    const users = await Promise.all(["a", "b"].map((n) => makeUser(db, { email: `${n}-cal2@example.org` })));
    await assign(db, project.id, { perItem: 2, annotators: users.map((u) => u.email), sample: 4, seed: 99 });
    const rows = await db.assignment.findMany({
      where: { poolItem: { projectId: project.id } },
      include: { poolItem: true },
    });
    const sampled = [...new Set(rows.map((x) => x.poolItem.chunkId))];
    expect(sampled).toHaveLength(4);
    // Strata by size: grade 3 (1 item), grade 2 (1), grade 0 (10). Turns: 3, 2, 0, then 0 again
    // (3 and 2 are exhausted) → both rare items plus two grade-0 items from two different queries.
    expect(sampled).toContain(items[0].chunkId);
    expect(sampled).toContain(items[5].chunkId);
    const zeros = items.filter((it) => sampled.includes(it.chunkId) && it !== items[0] && it !== items[5]);
    expect(zeros).toHaveLength(2);
    expect(zeros[0].qid).not.toBe(zeros[1].qid);
  });

  it("with tags: draws only from queries carrying one of them", async () => {
    const { project, items } = await pooledProject([3, 3, 3]);
    await db.queryTag.create({ data: { queryId: items[3].queryId, tag: "named-entity" } });
    const users = await Promise.all(["a", "b"].map((n) => makeUser(db, { email: `${n}-cal3@example.org` })));
    const r = await assign(db, project.id, {
      perItem: 2,
      annotators: users.map((u) => u.email),
      sample: 10,
      tags: ["named-entity"],
      seed: 4,
    });
    // Only q2 (items 3–5) has the tag: 3 items, 6 assignments.
    expect(r).toMatchObject({ items: 3, created: 6 });
    const rows = await db.assignment.findMany({
      where: { poolItem: { projectId: project.id } },
      include: { poolItem: true },
    });
    expect(new Set(rows.map((x) => x.poolItem.queryId))).toEqual(new Set([items[3].queryId]));
    await expect(assign(db, project.id, { perItem: 2, tags: ["x"] })).rejects.toThrow(
      "--tags only applies with --sample",
    );
  });

  it("fills the thin cells first: the largest deficit, ties to the cell with fewer candidates, then equal allocation", () => {
    // Minimum 2 per grade. Overall: grade 3 has 1 (deficit 1); tag "entity": grade 2 has 0
    // (deficit 2); every other cell has enough.
    const counts = { minPerGrade: 2, overall: [5, 5, 5, 1], byTag: new Map([["entity", [2, 2, 0, 2]]]) };
    const q1 = (id: string, judgeGrade: number) => ({ id, queryId: 1, judgeGrade, tags: ["entity"] });
    const q2 = (id: string, judgeGrade: number) => ({ id, queryId: 2, judgeGrade, tags: [] });
    const cands = [
      q1("c1", 2),
      q1("c2", 2),
      q1("c3", 2),
      q1("c4", 0),
      q2("c5", 3),
      q2("c6", 3),
      q2("c7", 0),
      q2("c8", 0),
    ];
    for (const seed of [1, 2, 3]) {
      const ids = calibrationSample(cands, 4, mulberry32(seed), counts).map((c) => c.id);
      // 1: entity/2 (deficit 2) → one of c1–c3. 2: entity/2 and overall/3 tie at 1; overall/3 has
      // fewer candidates (2 < 3) → c5 or c6. 3: entity/2 → another of c1–c3. Deficits are met;
      // 4: equal allocation over the rest, smallest stratum first (grade 3: one left; grade 2:
      // one left; ties to the higher grade) → the other of c5, c6.
      expect(ids.filter((id) => ["c1", "c2", "c3"].includes(id))).toHaveLength(2);
      expect(ids.filter((id) => ["c5", "c6"].includes(id))).toHaveLength(2);
      expect(ids[1] === "c5" || ids[1] === "c6").toBe(true);
    }
    // Without counts: equal allocation alone (grade 3's stratum, the smallest, first).
    expect(calibrationSample(cands, 2, mulberry32(1)).map((c) => c.judgeGrade)).toEqual([3, 2]);
  });

  it("counts final human labels at their grade and assigned, not yet final items at their judge grade", () => {
    const tagsOf = new Map([
      [1, ["entity", "entity"]],
      [2, []],
    ]);
    const counts = calibrationCounts(
      [
        { queryId: 1, chunkId: 10, grade: 3 },
        { queryId: 2, chunkId: 20, grade: 0 },
      ],
      10,
      [
        { queryId: 1, chunkId: 10 },
        { queryId: 1, chunkId: 11 },
        { queryId: 2, chunkId: 21 },
      ],
      (it) => (it.chunkId === 11 ? 2 : it.chunkId === 21 ? null : 1),
      tagsOf,
    );
    // (1, 10) is final (grade 3), so its judge grade is not counted again; (1, 11) counts at judge
    // grade 2; (2, 21) has no judge grade and counts nowhere. A tag listed twice counts once.
    expect(counts).toEqual({ minPerGrade: 10, overall: [1, 0, 1, 1], byTag: new Map([["entity", [0, 0, 1, 1]]]) });
  });

  it("a sample through assign() goes to the grade human labels lack, not to the rarest judge stratum", async () => {
    const { project, items } = await pooledProject([4, 4]);
    await db.project.update({ where: { id: project.id }, data: { minPerGrade: 2 } });
    // Judge grades: item 0 → 3, items 1 and 5 → 1, others 0. Final human labels (imported, on
    // chunks outside this pool's candidates' grades): two at grade 3, two at 0, two at 2, none at 1.
    await makeJudgeLabels(
      db,
      project.id,
      "gpt",
      items.map((it, i) => ({
        queryId: it.queryId,
        chunkId: it.chunkId,
        grade: i === 0 ? 3 : i === 1 || i === 5 ? 1 : 0,
      })),
    );
    const extra = await makeChunks(db, project.id, ["x1", "x2", "x3", "x4", "x5", "x6"]);
    const grades = [3, 3, 0, 0, 2, 2];
    await db.referenceLabel.createMany({
      data: [...extra.values()].map((c, i) => ({
        projectId: project.id,
        source: "old",
        queryId: items[0].queryId,
        chunkId: c.id,
        grade: grades[i],
      })),
    });
    const users = await Promise.all(["a", "b"].map((n) => makeUser(db, { email: `${n}-cal4@example.org` })));
    await assign(db, project.id, { perItem: 2, annotators: users.map((u) => u.email), sample: 2, seed: 5 });
    const rows = await db.assignment.findMany({
      where: { poolItem: { projectId: project.id } },
      include: { poolItem: true },
    });
    // Grade 1 is short by 2 and has exactly two candidates (items 1 and 5); equal allocation alone
    // would have taken the grade-3 item first (its stratum is the smallest).
    expect(new Set(rows.map((r) => r.poolItem.chunkId))).toEqual(new Set([items[1].chunkId, items[5].chunkId]));
  });

  it("is reproducible from the seed and stops when candidates run out", () => {
    const cands = Array.from({ length: 9 }, (_, i) => ({ id: `i${i}`, queryId: i % 3, judgeGrade: i % 2 }));
    const a = calibrationSample(cands, 5, mulberry32(3)).map((c) => c.id);
    const b = calibrationSample([...cands].reverse(), 5, mulberry32(3)).map((c) => c.id);
    expect(a).toEqual(b);
    expect(calibrationSample(cands, 50, mulberry32(3))).toHaveLength(9);
  });
});

describe("whole-question calibration sample (--sample-queries)", () => {
  it("assigns every pooled item of N questions to perItem annotators, marks them calibration, and skips finished questions next time", async () => {
    const { project, items } = await pooledProject([3, 2, 4, 1]);
    const users = await Promise.all(["a", "b", "c"].map((n) => makeUser(db, { email: `${n}-wq@example.org` })));
    // q4's one item already has a final (imported) label: nothing to assign there.
    await db.referenceLabel.create({
      data: { projectId: project.id, source: "gold", queryId: items[9].queryId, chunkId: items[9].chunkId, grade: 1 },
    });
    const r = await assign(db, project.id, {
      perItem: 2,
      annotators: users.map((u) => u.email),
      sampleQueries: 2,
      seed: 4,
    });
    expect(r.questions).toBe(2);
    const rows = await db.assignment.findMany({
      where: { poolItem: { projectId: project.id } },
      include: { poolItem: true },
    });
    const byItem = new Map<string, number>();
    for (const x of rows) byItem.set(x.poolItemId, (byItem.get(x.poolItemId) ?? 0) + 1);
    expect([...byItem.values()].every((n) => n === 2)).toBe(true);
    expect(rows.every((x) => x.calibration)).toBe(true);
    const sampledQueries = new Set(rows.map((x) => x.poolItem.queryId));
    expect(sampledQueries.size).toBe(2);
    // Every pool item of each sampled question is assigned.
    for (const q of sampledQueries)
      expect(items.filter((it) => it.queryId === q).length).toBe(
        new Set(rows.filter((x) => x.poolItem.queryId === q).map((x) => x.poolItemId)).size,
      );
    const again = await assign(db, project.id, {
      perItem: 2,
      annotators: users.map((u) => u.email),
      sampleQueries: 10,
      seed: 5,
    });
    expect(again.questions).toBe(1);
    expect(sampledQueries.has(items[9].queryId)).toBe(false);
    await expect(
      assign(db, project.id, { perItem: 2, annotators: users.map((u) => u.email), sampleQueries: 1 }),
    ).rejects.toThrow(/no question has pool items left to assign/);
    await expect(assign(db, project.id, { perItem: 2, sample: 1, sampleQueries: 1 })).rejects.toThrow(
      /do not go together/,
    );
  });

  it("stratifies by tag set with proportional allocation (largest remainder), reproducibly", () => {
    // 6 "a" questions, 3 "b", 1 untagged; N = 5 → quotas 3, 1.5, 0.5 → 3 + 2 or 3 + 1 + 1 by remainder.
    const cands = [
      ...Array.from({ length: 6 }, (_, i) => ({ queryId: i, tags: ["a"] })),
      ...Array.from({ length: 3 }, (_, i) => ({ queryId: 10 + i, tags: ["b"] })),
      { queryId: 20, tags: [] },
    ];
    const picked = questionSample(cands, 5, mulberry32(1));
    expect(picked).toHaveLength(5);
    expect(picked.filter((q) => q < 10)).toHaveLength(3);
    expect(questionSample([...cands].reverse(), 5, mulberry32(1))).toEqual(picked);
    expect(questionSample(cands, 50, mulberry32(1)).sort((x, y) => x - y)).toEqual(cands.map((c) => c.queryId));
  });
});
