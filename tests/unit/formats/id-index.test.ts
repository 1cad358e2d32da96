import { describe, expect, it } from "vitest";
import { IdIndex } from "../../../lib/db/id-index.ts";
import { ZExternalId } from "../../../lib/imports/schemas.ts";

// The run importer's external-id → internal-id table (lib/db/id-index.ts), checked against
// a plain Map built from the same rows.
describe("IdIndex", () => {
  it("finds every id of the database string and nothing else", () => {
    const rows: [number, string][] = [];
    for (let i = 1; i <= 5000; i++) rows.push([i * 3, `d${i % 50}_${i}`]);
    rows.push([7, "ünïcode-ïd"], [8, "a"], [10, "ab"]); // ids no other row has
    const index = new IdIndex(rows.map(([id, e]) => `${id}\x1f${e}`).join("\x1e"));
    expect(index.size).toBe(rows.length);
    expect(index.maxId).toBe(15000);
    for (const [id, e] of rows) expect(index.get(e)).toBe(id);
    for (const missing of ["", "d0", "d1_1x", "b", "ünïcode", "abc", "d0_50 "])
      expect(index.get(missing)).toBeUndefined();
    // And back: the run importer names tied and duplicated chunks from the same string.
    for (const [id, e] of rows) expect(index.externalIdOf(id)).toBe(e);
    for (const missing of [0, 1, 2, 4, 15001, -1]) expect(index.externalIdOf(missing)).toBeUndefined();
  });

  it("is empty for a project without rows", () => {
    const index = new IdIndex("");
    expect(index.size).toBe(0);
    expect(index.get("x")).toBeUndefined();
    expect(index.externalIdOf(0)).toBeUndefined();
  });

  it("is fed only ids without whitespace or control characters", () => {
    expect(ZExternalId.safeParse("d1_2").success).toBe(true);
    expect(ZExternalId.safeParse(42).data).toBe("42");
    for (const bad of ["", "a b", "a\x1fb", "a\tb"]) expect(ZExternalId.safeParse(bad).success).toBe(false);
  });
});
