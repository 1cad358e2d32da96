import { describe, expect, it } from "vitest";
import { cachedShapes, cachedStatement, compileFor, type TBuilder } from "../../../lib/db/query.ts";
import type { TProvider } from "../../../lib/db/dialect.ts";

/**
 * A cached statement (lib/db/query.ts) is built and compiled once per dialect and shape; every
 * later use only fills in its parameters. It must give the same SQL and parameters as building
 * and compiling the statement each time, on both dialects, and a value or shape that changes the
 * SQL must not reuse another shape's SQL.
 */
const DIALECTS: TProvider[] = ["sqlite", "postgres"];

// Each statement written once as a plain build (compiled each time) and cached from the same build.
const gradeBuild = (k: TBuilder, v: { poolItemId: string; userId: string }) =>
  k
    .selectFrom("Judgement")
    .select(["id", "grade", "updatedAt"])
    .where("poolItemId", "=", v.poolItemId)
    .where("userId", "=", v.userId);
const grade = cachedStatement(gradeBuild);

// A value used twice, a constant parameter between values, a row-value comparison and a limit.
const pageBuild = (
  k: TBuilder,
  v: { userId: string; projectId: number; orderKey: number; aid: number; limit: number },
) =>
  k
    .selectFrom("PoolItem as p")
    .crossJoin("Assignment as a")
    .select(["a.id as aid", "p.queryId as queryId"])
    .whereRef("a.poolItemId", "=", "p.id")
    .where("a.userId", "=", v.userId)
    .where("p.projectId", "=", v.projectId)
    .where("a.calibration", "=", false)
    .where((eb) => eb(eb.refTuple("a.orderKey", "a.id"), ">", eb.tuple(v.orderKey, v.aid)))
    .where("a.userId", "!=", "nobody")
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom("Judgement as j")
          .select("j.id")
          .whereRef("j.poolItemId", "=", "p.id")
          .where("j.userId", "=", v.userId),
      ),
    )
    .orderBy("a.orderKey")
    .limit(v.limit);
const page = cachedStatement(pageBuild);

// An IN list (its length is part of the shape) and a shape: direction and an optional condition.
type TListShape = { back: boolean; open: boolean };
const listBuild = (k: TBuilder, v: { projectId: number; ids: readonly number[]; limit: number }, s: TListShape) =>
  k
    .selectFrom("PoolItem as p")
    .select(["p.id as id"])
    .where("p.projectId", "=", v.projectId)
    .where("p.queryId", "in", v.ids)
    .$if(s.open, (qb) => qb.where("p.chunkId", ">", 0))
    .orderBy("p.queryId", s.back ? "desc" : "asc")
    .limit(v.limit);
const list = cachedShapes(listBuild);

describe("cached statements", () => {
  it("compile to the same SQL and parameters as building each time, on both dialects", () => {
    for (const p of DIALECTS)
      for (const [userId, poolItemId] of [
        ["u1", "p1"],
        ["u2", "p2"],
        ["u1", "p1"],
      ]) {
        const v = { poolItemId, userId };
        expect(grade(v).compiled(p)).toEqual(compileFor(p, (k) => gradeBuild(k, v)));
      }
  });

  it("fill a value used twice, keep constant parameters, bind row values and limits", () => {
    for (const p of DIALECTS)
      for (const v of [
        { userId: "u1", projectId: 1, orderKey: 0.25, aid: 7, limit: 51 },
        { userId: "u9", projectId: 3, orderKey: 0.75, aid: 2, limit: 2 },
      ]) {
        const cached = page(v).compiled(p);
        expect(cached).toEqual(compileFor(p, (k) => pageBuild(k, v)));
        expect(cached.params.filter((x) => x === v.userId)).toHaveLength(2);
        expect(cached.params).toContain("nobody");
      }
  });

  it("compile one entry per IN-list length and shape, never another shape's SQL", () => {
    const shapes: TListShape[] = [
      { back: false, open: false },
      { back: true, open: false },
      { back: false, open: true },
      { back: true, open: true },
    ];
    const lists = [[1], [1, 2, 3], [4, 5], [6], [7, 8, 9, 10]];
    for (const p of DIALECTS)
      // Twice: the second round reads every entry from the cache.
      for (let round = 0; round < 2; round++)
        for (const s of shapes)
          for (const ids of lists) {
            const v = { projectId: 2, ids, limit: 10 };
            expect(list(v, s).compiled(p)).toEqual(compileFor(p, (k) => listBuild(k, v, s)));
          }
    const short = list({ projectId: 1, ids: [1], limit: 5 }, { back: false, open: false }).compiled("sqlite");
    const long = list({ projectId: 1, ids: [1, 2, 3], limit: 5 }, { back: false, open: false }).compiled("sqlite");
    const back = list({ projectId: 1, ids: [1], limit: 5 }, { back: true, open: false }).compiled("sqlite");
    expect(short.sql).toContain("in (?)");
    expect(long.sql).toContain("in (?, ?, ?)");
    expect(back.sql).toContain("desc");
    expect(short.sql).not.toContain("desc");
    expect(long.params).toEqual([1, 1, 2, 3, 5]);
  });

  it("refuse a build that reads a value in JavaScript instead of binding it", () => {
    const misuse = cachedStatement((k: TBuilder, v: { projectId: number; limit: number }) =>
      k
        .selectFrom("Query")
        .select("id")
        .where("projectId", "=", v.projectId)
        .limit(typeof v.limit === "number" ? v.limit : 10),
    );
    expect(() => misuse({ projectId: 1, limit: 5 }).compiled("sqlite")).toThrow(/value "limit" is in no parameter/);
  });

  it("do not share a compiled entry between dialects", () => {
    const v = { poolItemId: "p", userId: "u" };
    expect(grade(v).compiled("sqlite").sql).toContain("?");
    expect(grade(v).compiled("postgres").sql).toContain("$2");
  });
});
