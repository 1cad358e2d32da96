import { describe, expect, it } from "vitest";
import { referenceSpans } from "../../../../lib/stats/time/reference.ts";

/* Reference spans (lib/stats/time/reference.ts); each expectation derived by hand from the definition. */
describe("reference spans", () => {
  it("answer places: [start, end], open without an end, dropped without a video, an end before the start is no end", () => {
    // p1 [10, 18]; p2 start 40 no end → open; p3 no video → dropped; p4 end 5 < start 60 → open.
    expect(
      referenceSpans(
        [
          { video: "v", start: 10, end: 18 },
          { video: "v", start: 40 },
          { video: null, start: 50, end: 55 },
          { video: "w", start: 60, end: 5 },
        ],
        [],
      ),
    ).toEqual([
      { video: "v", start: 10, end: 18 },
      { video: "v", start: 40, end: null },
      { video: "w", start: 60, end: null },
    ]);
  });

  it("a corrected start within 5 s of a known span marks the same answer; one elsewhere is a span of its own", () => {
    // place [100, 108]. Start 104: inside → known. Start 112: 112 ≤ 108 + 5 → known. Start 114:
    // 114 > 113 → new open span at 114. Start 95: 95 ≥ 100 − 5 → known. Start 100 in video w: other
    // video → new. With end 130 marked: [120, 130] → new (120 > 119, and 114's open span reaches
    // only 114 + 5 = 119).
    expect(
      referenceSpans(
        [{ video: "v", start: 100, end: 108 }],
        [
          { video: "v", start: 104 },
          { video: "v", start: 112 },
          { video: "v", start: 120, end: 130 },
          { video: "v", start: 114 },
          { video: "v", start: 95 },
          { video: "w", start: 100 },
        ],
      ),
    ).toEqual([
      { video: "v", start: 100, end: 108 },
      { video: "v", start: 114, end: null },
      { video: "v", start: 120, end: 130 },
      { video: "w", start: 100, end: null },
    ]);
  });

  it("starts marked twice (two chunkings' annotators) count once, whatever the order they come in", () => {
    // 200 then 203: 203 ≤ 200 + 5 → known. Read in the other order the sort puts 200 first again.
    const a = referenceSpans(
      [],
      [
        { video: "v", start: 203 },
        { video: "v", start: 200 },
      ],
    );
    const b = referenceSpans(
      [],
      [
        { video: "v", start: 200 },
        { video: "v", start: 203 },
      ],
    );
    expect(a).toEqual([{ video: "v", start: 200, end: null }]);
    expect(b).toEqual(a);
  });

  it("no place and no corrected start: no reference span; the merge distance is a parameter", () => {
    expect(referenceSpans([], [])).toEqual([]);
    // With mergeSeconds 0, start 109 is outside [100, 108] → its own span.
    expect(referenceSpans([{ video: "v", start: 100, end: 108 }], [{ video: "v", start: 109 }], 0)).toEqual([
      { video: "v", start: 100, end: 108 },
      { video: "v", start: 109, end: null },
    ]);
  });

  it("a grade-3 label's marked end makes its corrected start a span [start, end]; an end before the start is none", () => {
    // No place. [30, 42]: a span with an end. Start 60 with end 55: before the start → open at 60.
    // Start 70 with end 65 → open at 70 (70 > 60 + 5, so a span of its own).
    expect(
      referenceSpans(
        [],
        [
          { video: "v", start: 30, end: 42 },
          { video: "v", start: 60, end: 55 },
          { video: "v", start: 70, end: 65 },
        ],
      ),
    ).toEqual([
      { video: "v", start: 30, end: 42 },
      { video: "v", start: 60, end: null },
      { video: "v", start: 70, end: null },
    ]);
  });

  it("a marked span reaches to its end + 5 s for the starts after it; a start inside a place keeps the place", () => {
    // Place [100, 108]: [104, 140] starts inside → known (the place stands, its end is not widened).
    // Marked [200, 215]; [203, 220]: 203 ≤ 215 + 5 → known; [219, 230]: 219 ≤ 215 + 5 = 220 → known
    // (the spans listed are [100, 108] and [200, 215] only); [221, 230]: 221 > 220 → a span of its own.
    expect(
      referenceSpans(
        [{ video: "v", start: 100, end: 108 }],
        [
          { video: "v", start: 219, end: 230 },
          { video: "v", start: 203, end: 220 },
          { video: "v", start: 104, end: 140 },
          { video: "v", start: 200, end: 215 },
          { video: "v", start: 221, end: 230 },
        ],
      ),
    ).toEqual([
      { video: "v", start: 100, end: 108 },
      { video: "v", start: 200, end: 215 },
      { video: "v", start: 221, end: 230 },
    ]);
  });
});
