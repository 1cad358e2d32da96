import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { makeChunks, makeProject, makeQueries, makeUser } from "../helpers/factories.ts";

/**
 * The neighbouring transcript an annotator sees comes from the item's own chunking:
 * `default` cuts the video into 0-30, 30-60, 60-90 s (a, b, c); chunking `c20` cuts the same
 * speech into 0-20, 20-40, 40-60 s. The item is b (30-60): before it is a only, after it c only,
 * never c20's chunks (which start at 0, 20 and 40 s and would otherwise interleave).
 */

useTestDatabase();
let db: Db;

beforeAll(async () => {
  db = await (await import("../../lib/db/client.ts")).getDb();
});

describe("neighbours per chunking", () => {
  it("shows only the item's own chunking before and after it", async () => {
    const p = await makeProject(db, { name: "neighbours" });
    const chunks = await makeChunks(db, p.id, ["a", "b", "c"]);
    const b = await db.chunk.findUniqueOrThrow({ where: { id: chunks.get("b")!.id } });
    const c20 = await db.chunking.create({
      data: { projectId: p.id, name: "c20", method: "seconds", size: 20, overlap: 0 },
    });
    for (const start of [0, 20, 40])
      await db.chunk.create({
        data: {
          projectId: p.id,
          chunkingId: c20.id,
          externalId: `x${start}`,
          videoId: b.videoId,
          startSeconds: start,
          endSeconds: start + 20,
          text: `other chunking ${start}`,
        },
      });
    const q = await makeQueries(db, p.id, ["q1"]);
    const user = await makeUser(db, { name: "Ann" });
    const item = await db.poolItem.create({ data: { projectId: p.id, queryId: q.get("q1")!.id, chunkId: b.id } });
    await db.assignment.create({ data: { poolItemId: item.id, userId: user.id, orderKey: 0.5 } });
    const { annotatorItem } = await import("../../lib/annotate/view.ts");
    const view = await annotatorItem(db, user.id, item.id);
    expect(view!.before.map((s) => s.text)).toEqual(["text of a"]);
    expect(view!.after.map((s) => s.text)).toEqual(["text of c"]);
  });
});
