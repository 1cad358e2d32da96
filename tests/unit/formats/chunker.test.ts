import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseCaptions } from "../../../lib/formats/captions.ts";
import { checkChunkOptions, chunkCues, longCues } from "../../../lib/formats/chunker.ts";

const cues = parseCaptions(
  readFileSync(join(import.meta.dirname, "..", "..", "fixtures", "imports", "talk.vtt")),
  "talk.vtt",
).cues;
// Cue starts 0, 20, 45.5, 70, 100 s; ends 20, 45.5, 70, 100, 120 s (talk.vtt).

describe("chunkCues by seconds", () => {
  it("cuts 60 s windows 45 s apart (overlap 15 s), chunks spanning their cues", () => {
    // Windows [0,60): cues 1–3 → 0–70 s; [45,105): cues 3–5 → 45.5–120 s; [90,150): cue 5 → 100–120 s;
    // the next window would start at 135 s, after the last cue's start (100 s).
    expect(chunkCues("v1", cues, { by: "seconds", size: 60, overlap: 15 })).toEqual([
      {
        id: "v1_0-70000",
        start: 0,
        end: 70,
        text: "Welcome to the talk. Today we discuss ranking. Pooling & judging.",
      },
      {
        id: "v1_45500-120000",
        start: 45.5,
        end: 120,
        text: "Pooling & judging. Agreement between annotators. Thanks.",
      },
      { id: "v1_100000-120000", start: 100, end: 120, text: "Thanks." },
    ]);
  });

  it("gives the same ids for the same input and options", () => {
    const a = chunkCues("v1", cues, { by: "seconds", size: 30, overlap: 0 }).map((c) => c.id);
    expect(chunkCues("v1", cues, { by: "seconds", size: 30, overlap: 0 }).map((c) => c.id)).toEqual(a);
    // [0,30): 1–2; [30,60): 3; [60,90): 4; [90,120): 5.
    expect(a).toEqual(["v1_0-45500", "v1_45500-70000", "v1_70000-100000", "v1_100000-120000"]);
  });

  it("does not repeat a window holding exactly the previous window's cues", () => {
    const sparse = [
      { start: 0, end: 5, text: "a", line: 1 },
      { start: 200, end: 205, text: "b", line: 2 },
    ];
    // 10 s windows 5 s apart: [0,10) holds "a", [5,15) … [190,200) nothing, [195,205) and
    // [200,210) both hold only "b" — kept once.
    expect(chunkCues("v", sparse, { by: "seconds", size: 10, overlap: 5 }).map((c) => c.text)).toEqual(["a", "b"]);
  });
});

describe("chunkCues by words", () => {
  it("cuts 4 words with 1 word of overlap, times interpolated inside each cue", () => {
    // Words 0–3 in cue 1 (5 s each), 4–7 in cue 2 (6.375 s each), 8–10 in cue 3 (24.5/3 s each),
    // 11–13 in cue 4 (10 s each), 14 in cue 5. Chunks start every 3 words.
    expect(chunkCues("v1", cues, { by: "words", size: 4, overlap: 1 })).toEqual([
      { id: "v1_0-20000", start: 0, end: 20, text: "Welcome to the talk." },
      { id: "v1_15000-39125", start: 15, end: 39.125, text: "talk. Today we discuss" },
      { id: "v1_32750-61833", start: 32.75, end: 61.833, text: "discuss ranking. Pooling &" },
      { id: "v1_53667-90000", start: 53.667, end: 90, text: "& judging. Agreement between" },
      { id: "v1_80000-120000", start: 80, end: 120, text: "between annotators. Thanks." },
    ]);
  });
});

describe("checkChunkOptions", () => {
  it("rejects an overlap not smaller than the size, a zero size and fractional words", () => {
    expect(checkChunkOptions({ by: "seconds", size: 30, overlap: 30 })).toBe(
      "expected the overlap (30 seconds) to be smaller than the chunk size (30 seconds)",
    );
    expect(checkChunkOptions({ by: "seconds", size: 0, overlap: 0 })).toBe(
      "expected a chunk size above 0 seconds, got 0",
    );
    expect(checkChunkOptions({ by: "words", size: 2.5, overlap: 0 })).toBe(
      "expected a whole number of words per chunk, got 2.5",
    );
    expect(checkChunkOptions({ by: "words", size: 100, overlap: 20 })).toBeNull();
  });
});

describe("longCues", () => {
  it("lists the cues longer than a seconds-chunking's size, none for words", () => {
    const c = [
      { start: 0, end: 5, text: "a", line: 3 },
      { start: 10, end: 105, text: "b", line: 6 },
      { start: 106, end: 126, text: "c", line: 9 }, // exactly the size: not longer
    ];
    expect(longCues(c, { by: "seconds", size: 20, overlap: 0 }, "f.vtt")).toEqual([
      {
        file: "f.vtt",
        line: 6,
        field: "end",
        message: "cue lasts 95.0 s, longer than the chunk size (20 s): the chunks holding it run to its end",
      },
    ]);
    expect(longCues(c, { by: "words", size: 20, overlap: 0 }, "f.vtt")).toEqual([]);
  });
});
