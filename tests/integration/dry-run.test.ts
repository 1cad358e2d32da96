import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../helpers/fixtures.ts";
import type { Db } from "../../lib/db/client.ts";
import { assign } from "../../lib/assignment/assign.ts";
import { buildPool } from "../../lib/pooling/build.ts";
import { makeChunks, makeProject, makeQueries, makeRun, makeUser } from "../helpers/factories.ts";

/**
 * Pool and assign previews: `dryRun` computes in the real transaction, then rolls
 * it back. The preview says what the confirmed call then does (assign: with the preview's seed,
 * the very same assignments), and writes nothing.
 */
useTestDatabase();
let db: Db;

beforeAll(async () => {
  db = await (await import("../../lib/db/client.ts")).getDb();
});

describe("dry runs of pool and assign", () => {
  it("previews, writes nothing, and the confirmed call does what the preview said", async () => {
    const p = await makeProject(db, { name: "dry" });
    const ids = {
      queries: await makeQueries(db, p.id, ["q1", "q2"]),
      chunks: await makeChunks(db, p.id, ["c1", "c2", "c3", "c4"]),
    };
    await makeRun(
      db,
      p.id,
      "A",
      [
        ["q1", "c1", 0.9],
        ["q1", "c2", 0.8],
        ["q2", "c3", 0.7],
      ],
      ids,
    );
    await makeRun(
      db,
      p.id,
      "B",
      [
        ["q1", "c2", 0.9],
        ["q1", "c4", 0.8],
        ["q2", "c3", 0.7],
      ],
      ids,
    );
    const users = [
      await makeUser(db, { role: "annotator" }),
      await makeUser(db, { role: "annotator" }),
      await makeUser(db, { role: "annotator" }),
    ];

    const preview = await buildPool(db, p.id, { depth: 2, dryRun: true });
    expect(await db.poolItem.count({ where: { projectId: p.id } })).toBe(0);
    expect(await db.poolProvenance.count({ where: { poolItem: { projectId: p.id } } })).toBe(0);
    // q1: A c1 c2, B c2 c4 → c1, c2, c4; q2: c3 from both → 4 items from 6 results.
    expect(preview).toMatchObject({ queries: 2, pooledResults: 6, newItems: 4, totalItems: 4 });
    expect(await buildPool(db, p.id, { depth: 2 })).toEqual(preview);
    expect(await db.poolItem.count({ where: { projectId: p.id } })).toBe(4);

    const emails = users.map((u) => u.email);
    const planned = await assign(db, p.id, { perItem: 2, annotators: emails, dryRun: true });
    expect(await db.assignment.count({ where: { poolItem: { projectId: p.id } } })).toBe(0);
    expect(planned).toMatchObject({ items: 4, created: 8, shortfall: 0 });
    const made = await assign(db, p.id, { perItem: 2, annotators: emails, seed: planned.seed });
    expect(made).toEqual(planned);
    expect(await db.assignment.count({ where: { poolItem: { projectId: p.id } } })).toBe(8);
    // A second preview: nothing left to do.
    expect(await assign(db, p.id, { perItem: 2, annotators: emails, dryRun: true })).toMatchObject({ created: 0 });
  });
});
