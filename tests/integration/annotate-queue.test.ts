import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { makeChunks, makeProject, makeQueries, makeUser } from "../helpers/factories.ts";
import { submitJudgement } from "../../lib/labels/submit.ts";
import type { TAnnotatorQueueItem, TQueuePage } from "../../lib/annotate/queue.ts";
import { setGradingClosed } from "../../lib/projects/grading.ts";

/**
 * The annotator's queue a page at a time: order (question in import order, then
 * the annotator's own orderKey), cursors both ways, positions and counts from the database, pages
 * per project, and nothing of anyone else's.
 */

useTestDatabase();
let db: Db;
let view: typeof import("../../lib/annotate/view.ts") & typeof import("../../lib/annotate/queue.ts");

beforeAll(async () => {
  db = await (await import("../../lib/db/client.ts")).getDb();
  view = { ...(await import("../../lib/annotate/view.ts")), ...(await import("../../lib/annotate/queue.ts")) };
});

/** A project with questions of `sizes[i]` items each, all assigned to `user` with order keys that reverse the chunk order. */
async function project(name: string, sizes: number[], users: { id: string }[]) {
  const p = await makeProject(db, { name });
  const queries = await makeQueries(
    db,
    p.id,
    sizes.map((_, i) => `${name}-q${i}`),
  );
  const chunks = await makeChunks(
    db,
    p.id,
    Array.from({ length: Math.max(...sizes) }, (_, i) => `${name}-c${i}`),
  );
  const expected: { id: string; question: number; index: number }[] = [];
  for (const [qi, n] of sizes.entries()) {
    const q = queries.get(`${name}-q${qi}`)!;
    const ids: string[] = [];
    for (let c = 0; c < n; c++)
      ids.push(
        (
          await db.poolItem.create({
            data: { projectId: p.id, queryId: q.id, chunkId: chunks.get(`${name}-c${c}`)!.id },
          })
        ).id,
      );
    // orderKey: the last chunk first (and a tie on the key, decided by the assignment id).
    for (const u of users)
      for (const [c, id] of ids.entries())
        await db.assignment.create({
          data: { poolItemId: id, userId: u.id, orderKey: c === 0 ? (n - 1) / n : (n - 1 - c) / n },
        });
    const order = ids
      .map((id, c) => ({ id, key: c === 0 ? (n - 1) / n : (n - 1 - c) / n, c }))
      .sort((a, b) => a.key - b.key || a.c - b.c);
    order.forEach((o, i) => expected.push({ id: o.id, question: qi + 1, index: i + 1 }));
  }
  return { p, expected };
}

const grade = (userId: string, poolItemId: string) =>
  submitJudgement(db, userId, {
    poolItemId,
    grade: 1,
    startSeconds: null,
    notes: "",
    flags: [],
    timeSpentMs: null,
    idempotencyKey: randomUUID(),
  });

async function walk(
  userId: string,
  projectId: number,
  limit: number,
  from: "after" | "before",
  cursor: string,
): Promise<TQueuePage[]> {
  const pages: TQueuePage[] = [];
  let c = cursor;
  for (;;) {
    const page = (await view.annotatorQueuePage(db, userId, projectId, { [from]: c, limit }))!;
    pages.push(page);
    const more = from === "after" ? page.hasAfter : page.hasBefore;
    if (!more) return pages;
    c = from === "after" ? page.items[page.items.length - 1].id : page.items[0].id;
  }
}

describe("the annotator's queue, paged", () => {
  it("walks the order forwards and backwards with positions, question counts and bounded pages; starts at the first ungraded item", async () => {
    const [ann, ben] = await Promise.all([makeUser(db, { name: "Ann" }), makeUser(db, { name: "Ben" })]);
    const { p, expected } = await project("paged", [5, 1, 7, 3], [ann, ben]);
    // Nothing graded: the first page starts at the first item, with positions from 1.
    const first = (await view.annotatorQueuePage(db, ann.id, p.id, { limit: 4 }))!;
    expect(first.items).toEqual(expected.slice(0, 4).map((e) => ({ ...e, done: false })));
    expect(first).toMatchObject({
      hasBefore: false,
      hasAfter: true,
      project: { id: p.id, name: "paged", questions: 4 },
    });
    expect((await view.annotatorProjects(db, ann.id)).projects).toMatchObject([
      { id: p.id, total: 16, done: 0, questions: 4 },
    ]);
    expect(first.questions).toEqual([{ index: 1, text: "question paged-q0?", done: 0, total: 5 }]);

    // Ann grades the first six items (and Ben one, which counts only for Ben).
    for (const e of expected.slice(0, 6)) await grade(ann.id, e.id);
    await grade(ben.id, expected[10].id);
    const start = (await view.annotatorQueuePage(db, ann.id, p.id, { limit: 4 }))!;
    expect(start.items.map((i) => i.id)).toEqual(expected.slice(6, 10).map((e) => e.id));
    expect(start).toMatchObject({ hasBefore: true, hasAfter: true });
    expect((await view.annotatorProjects(db, ann.id)).projects).toMatchObject([{ id: p.id, total: 16, done: 6 }]);
    expect(start.questions.map((q) => [q.index, q.done, q.total])).toEqual([[3, 0, 7]]);

    // Forwards from the first item: pages of 3, in order, every position right.
    const forward = await walk(ann.id, p.id, 3, "after", expected[0].id);
    const seen: TAnnotatorQueueItem[] = [
      (await view.annotatorQueuePage(db, ann.id, p.id, { before: expected[1].id, limit: 3 }))!.items[0],
      ...forward.flatMap((pg) => pg.items),
    ];
    expect(seen.map(({ id, question, index }) => ({ id, question, index }))).toEqual(expected);
    expect(seen.map((i) => i.done)).toEqual(expected.map((_, i) => i < 6));
    expect(forward.every((pg) => pg.items.length <= 3)).toBe(true);
    expect(forward.at(-1)!.hasAfter).toBe(false);
    // Question counts on the pages: q1 (5 items) and q2 (1) done, q3 none of 7, q4 none of 3.
    const qs = new Map(forward.flatMap((pg) => pg.questions).map((q) => [q.index, q]));
    expect([...qs.values()].sort((a, b) => a.index - b.index)).toEqual([
      { index: 1, text: "question paged-q0?", done: 5, total: 5 },
      { index: 2, text: "question paged-q1?", done: 1, total: 1 },
      { index: 3, text: "question paged-q2?", done: 0, total: 7 },
      { index: 4, text: "question paged-q3?", done: 0, total: 3 },
    ]);
    // Backwards from the last item: the same order.
    const backward = await walk(ann.id, p.id, 5, "before", expected[15].id);
    expect([...backward.reverse().flatMap((pg) => pg.items.map((i) => i.id)), expected[15].id]).toEqual(
      expected.map((e) => e.id),
    );
    expect(backward[0].hasBefore).toBe(false);

    // A page is never larger than the bound, whatever is asked.
    expect((await view.annotatorQueuePage(db, ann.id, p.id, { limit: 10_000 }))!.items.length).toBe(10);
    expect(view.MAX_QUEUE_PAGE).toBe(200);
    expect(view.queuePageSize({ ...process.env, ASSESSOR_QUEUE_PAGE: "3" })).toBe(3);
    expect(view.queuePageSize({ ...process.env, ASSESSOR_QUEUE_PAGE: "1000" })).toBe(50);
  });

  it("reads a queue of many questions in batches: the same order, positions and counts across batch boundaries", async () => {
    const dee = await makeUser(db, { name: "Dee" });
    // 21 questions (more than the first batches of lib/annotate/queue-walk.ts walkQueue and lib/annotate/queue-projects.ts annotatorProjects).
    const sizes = Array.from({ length: 21 }, (_, i) => 1 + (i % 3));
    const { p, expected } = await project("many", sizes, [dee]);
    const total = sizes.reduce((a, b) => a + b, 0);
    // Everything but the last two items graded, in order: the first page starts at the first of those two.
    for (const e of expected.slice(0, total - 2)) await grade(dee.id, e.id);
    const start = (await view.annotatorQueuePage(db, dee.id, p.id, { limit: 5 }))!;
    expect(start.items).toEqual(expected.slice(total - 2).map((e) => ({ ...e, done: false })));
    expect(start).toMatchObject({ hasBefore: true, hasAfter: false, project: { questions: 21 } });
    const forward = await walk(dee.id, p.id, 10, "after", expected[0].id);
    expect([expected[0].id, ...forward.flatMap((pg) => pg.items.map((i) => i.id))]).toEqual(expected.map((e) => e.id));
    expect(forward.flatMap((pg) => pg.items.map(({ id, question, index }) => ({ id, question, index })))).toEqual(
      expected.slice(1),
    );
    const backward = await walk(dee.id, p.id, 7, "before", expected[total - 1].id);
    expect([...backward.reverse().flatMap((pg) => pg.items.map((i) => i.id)), expected[total - 1].id]).toEqual(
      expected.map((e) => e.id),
    );
    expect((await view.annotatorProjects(db, dee.id)).projects).toMatchObject([
      { id: p.id, total, done: total - 2, questions: 21, lastGradedAt: expect.any(String) },
    ]);
    // All graded: the last page, ending at the last item (the page's end card; u goes back to it), and no item to open.
    for (const e of expected.slice(total - 2)) await grade(dee.id, e.id);
    const done = (await view.annotatorQueuePage(db, dee.id, p.id, { limit: 3 }))!;
    expect(done.items.map((i) => i.id)).toEqual(expected.slice(total - 3).map((e) => e.id));
    expect(done.items.map(({ id, question, index }) => ({ id, question, index }))).toEqual(expected.slice(total - 3));
    expect(done).toMatchObject({ hasBefore: true, hasAfter: false });
    expect(done.items.every((i) => i.done)).toBe(true);
    const opening = (await view.annotatorOpening(db, dee.id, p.id, 3))!;
    expect(opening.page).toEqual(done);
    expect(opening.item).toBeNull();
  });

  it("keeps projects apart, counts per project and opens the one graded in most recently that has work left", async () => {
    const [ann, cat] = await Promise.all([makeUser(db, { name: "Ann2" }), makeUser(db, { name: "Cat" })]);
    const a = await project("alpha", [2, 2], [ann]);
    const b = await project("beta", [3], [ann]);
    const c = await project("gamma", [2], [cat]);
    // Nothing graded: the first project with work.
    expect((await view.annotatorProjects(db, ann.id)).current).toBe(a.p.id);
    await grade(ann.id, b.expected[0].id);
    const projects = await view.annotatorProjects(db, ann.id);
    expect(projects.current).toBe(b.p.id);
    expect(projects.projects.map(({ lastGradedAt, ...rest }) => ({ ...rest, graded: lastGradedAt !== null }))).toEqual([
      { id: a.p.id, name: "alpha", done: 0, total: 4, questions: 2, graded: false },
      { id: b.p.id, name: "beta", done: 1, total: 3, questions: 1, graded: true },
    ]);
    // Beta's grading closed by the lead: alpha opens although beta was graded last; the page says it is closed.
    await setGradingClosed(db, b.p.id, true);
    expect((await view.annotatorProjects(db, ann.id)).current).toBe(a.p.id);
    expect((await view.annotatorQueuePage(db, ann.id, b.p.id, { limit: 50 }))?.project?.gradingClosedAt).toMatch(
      /^\d{4}-\d\d-\d\dT/,
    );
    expect((await view.annotatorQueuePage(db, ann.id, a.p.id, { limit: 50 }))?.project?.gradingClosedAt).toBeNull();
    await setGradingClosed(db, b.p.id, false);
    expect((await view.annotatorProjects(db, ann.id)).current).toBe(b.p.id);
    // Beta finished: back to the first project with work.
    for (const e of b.expected.slice(1)) await grade(ann.id, e.id);
    expect((await view.annotatorProjects(db, ann.id)).current).toBe(a.p.id);

    const alpha = (await view.annotatorQueuePage(db, ann.id, a.p.id, { limit: 50 }))!;
    expect(alpha.items.map((i) => i.id)).toEqual(a.expected.map((e) => e.id));
    // Not Ann's: another project, another annotator's project, a cursor from another project or of another user.
    expect(await view.annotatorQueuePage(db, ann.id, c.p.id, { limit: 50 })).toBeNull();
    expect(await view.annotatorQueuePage(db, ann.id, 999_999, { limit: 50 })).toBeNull();
    expect(await view.annotatorQueuePage(db, ann.id, a.p.id, { after: b.expected[0].id, limit: 50 })).toBeNull();
    expect(await view.annotatorQueuePage(db, ann.id, c.p.id, { after: c.expected[0].id, limit: 50 })).toBeNull();
    expect((await view.annotatorProjects(db, cat.id)).projects.map((p) => p.name)).toEqual(["gamma"]);
  });

  it("reads the opening page and its first open item for the page's first paint, under the same rule", async () => {
    const [ann, cat, nobody] = await Promise.all([
      makeUser(db, { name: "Ann3" }),
      makeUser(db, { name: "Cat3" }),
      makeUser(db, { name: "Nobody" }),
    ]);
    const a = await project("delta", [3, 2], [ann]);
    const c = await project("epsilon", [2], [cat]);
    await grade(ann.id, a.expected[0].id);
    await grade(ann.id, a.expected[1].id);
    // The server's pick (project of the latest grade, with work left): the same page as the queue API's, and the item after the two graded.
    const opening = (await view.annotatorOpening(db, ann.id, null, 50))!;
    expect(opening.page).toEqual(await view.annotatorQueuePage(db, ann.id, a.p.id, { limit: 50 }));
    expect(opening.item).toEqual(await view.annotatorItem(db, ann.id, a.expected[2].id));
    expect(opening.item?.id).toBe(a.expected[2].id);
    // A project named in the URL; one that is not theirs gives nothing (the client asks the API and shows its 404).
    expect((await view.annotatorOpening(db, ann.id, a.p.id, 2))?.page.items.map((i) => i.id)).toEqual([
      a.expected[2].id,
      a.expected[3].id,
    ]);
    expect(await view.annotatorOpening(db, ann.id, c.p.id, 50)).toBeNull();
    // Nothing assigned: no project, no item.
    expect(await view.annotatorOpening(db, nobody.id, null, 50)).toEqual({
      page: { project: null, items: [], questions: [], hasBefore: false, hasAfter: false },
      item: null,
    });
  });
});
