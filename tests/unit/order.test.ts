import { describe, expect, it } from "vitest";
import { evaluatedOrder } from "../../lib/stats/order.ts";

describe("evaluatedOrder (trec_eval's order)", () => {
  it("sorts by score descending and ignores the given ranks", () => {
    const rows = [
      { docid: "a", score: 0.1, rank: 1 },
      { docid: "b", score: 0.9, rank: 2 },
    ];
    expect(evaluatedOrder(rows).map((r) => r.docid)).toEqual(["b", "a"]);
  });
  it("breaks ties by docid descending in byte order (uppercase sorts before lowercase)", () => {
    // Byte order: "B" (0x42) < "a" (0x61) < "b" (0x62); descending gives b, a, B.
    const rows = ["a", "B", "b"].map((docid) => ({ docid, score: 1 }));
    expect(evaluatedOrder(rows).map((r) => r.docid)).toEqual(["b", "a", "B"]);
  });
});
