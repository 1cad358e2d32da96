import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseCaptions, parseTimestamp, sniffCaptionFormat } from "../../../lib/formats/captions.ts";

const fixtures = join(import.meta.dirname, "..", "..", "fixtures", "imports");
const read = (f: string) => readFileSync(join(fixtures, f));

// The three fixture files hold the same five cues, written by hand (see talk.vtt).
const expected = [
  { start: 0, end: 20, text: "Welcome to the talk." },
  { start: 20, end: 45.5, text: "Today we discuss ranking." },
  { start: 45.5, end: 70, text: "Pooling & judging." },
  { start: 70, end: 100, text: "Agreement between annotators." },
  { start: 100, end: 120, text: "Thanks." },
];

describe("parseCaptions", () => {
  it.each(["talk.vtt", "talk.srt", "talk.json3"])(
    "reads %s into cues (tags stripped, entities decoded, lines joined)",
    (f) => {
      const r = parseCaptions(read(f), f);
      expect(r.errors).toEqual([]);
      expect(r.cues.map(({ start, end, text }) => ({ start, end, text }))).toEqual(expected);
    },
  );

  it("sniffs the format when the extension does not say", () => {
    expect(sniffCaptionFormat("x.txt", "WEBVTT\n\n00:01.000 --> 00:02.000\nhi\n")).toBe("vtt");
    expect(sniffCaptionFormat("x", "1\n00:00:01,000 --> 00:00:02,000\nhi\n")).toBe("srt");
    expect(sniffCaptionFormat("x", '{"events":[]}')).toBe("json3");
    expect(sniffCaptionFormat("x", "hello")).toBeNull();
  });

  it("parses WebVTT and SRT timestamps", () => {
    expect(parseTimestamp("01:02:03.456")).toBeCloseTo(3723.456, 9);
    expect(parseTimestamp("02:03.5")).toBeCloseTo(123.5, 9);
    expect(parseTimestamp("00:00:01,250")).toBeCloseTo(1.25, 9);
    expect(parseTimestamp("1:2:3")).toBeNaN();
  });

  it("locates a cue that ends before it starts and a malformed timestamp", () => {
    const r = parseCaptions(
      "WEBVTT\n\n00:00:10.000 --> 00:00:05.000\nbackwards\n\n00:00:aa.000 --> 00:00:12.000\nbad\n",
      "bad.vtt",
    );
    expect(r.errors).toEqual([
      {
        file: "bad.vtt",
        line: 3,
        field: "end",
        message:
          'expected the end (00:00:05.000) not before the start (00:00:10.000) (repair policy "clip" sets such an end to the start, "skip" drops the cue)',
      },
      {
        file: "bad.vtt",
        line: 6,
        field: "start",
        message: 'expected a timestamp hh:mm:ss.ttt or mm:ss.ttt, found "00:00:aa.000"',
      },
    ]);
  });

  it("repairs a backwards cue under clip and skip, with a warning at its line; a bad timestamp stays an error", () => {
    const text = "WEBVTT\n\n00:00:10.000 --> 00:00:05.000\nbackwards\n\n00:00:11.000 --> 00:00:12.000\nfine\n";
    const clip = parseCaptions(text, "r.vtt", "vtt", "clip");
    expect(clip.errors).toEqual([]);
    expect(clip.cues.map((c) => [c.start, c.end, c.text])).toEqual([
      [10, 10, "backwards"],
      [11, 12, "fine"],
    ]);
    expect(clip.warnings).toEqual([
      {
        file: "r.vtt",
        line: 3,
        field: "end",
        message: "cue clipped: its end (00:00:05.000) was before its start (00:00:10.000); the end is now the start",
      },
    ]);
    const skip = parseCaptions(text, "r.vtt", "vtt", "skip");
    expect(skip.cues.map((c) => c.text)).toEqual(["fine"]);
    expect(skip.warnings).toEqual([
      {
        file: "r.vtt",
        line: 3,
        field: "end",
        message: "cue skipped: its end (00:00:05.000) is before its start (00:00:10.000)",
      },
    ]);
    expect(parseCaptions("WEBVTT\n\n00:00:aa.000 --> 00:00:12.000\nbad\n", "s.vtt", "vtt", "clip").errors).toHaveLength(
      1,
    );
  });

  it("reports a cue timing line without --> at its line, not as an empty file", () => {
    const t = (found: string) =>
      `expected a cue timing line "start --> end" (hh:mm:ss.ttt or mm:ss.ttt), found "${found}"`;
    // The only cue's timing line lacks its arrow: one error at line 3, and nothing else said.
    expect(parseCaptions("WEBVTT\n\n00:00:01.000 00:00:04.000\nHello there.\n", "a.vtt").errors).toEqual([
      { file: "a.vtt", line: 3, field: "timing", message: t("00:00:01.000 00:00:04.000") },
    ]);
    // With an identifier before it, and a good cue after it that still parses.
    const r = parseCaptions(
      "WEBVTT\n\nintro\n00:01.000 - 00:04.000\nHello.\n\n00:05.000 --> 00:06.000\nNext.\n",
      "b.vtt",
    );
    expect(r.errors).toEqual([{ file: "b.vtt", line: 4, field: "timing", message: t("00:01.000 - 00:04.000") }]);
    // An identifier followed by text, no timing line at all: reported at the line where the timing was expected.
    expect(parseCaptions("WEBVTT\n\ncue-1\nHello.\n", "c.vtt").errors).toEqual([
      { file: "c.vtt", line: 4, field: "timing", message: t("Hello.") },
    ]);
    // SRT: the same rule, with its own timestamp form.
    expect(parseCaptions("1\n00:00:01,000 00:00:02,000\nhi\n", "d.srt").errors).toEqual([
      {
        file: "d.srt",
        line: 2,
        field: "timing",
        message: 'expected a cue timing line "start --> end" (hh:mm:ss,ttt), found "00:00:01,000 00:00:02,000"',
      },
    ]);
  });

  it("rejects a json3 event with a negative start, an empty file and non-UTF-8 bytes", () => {
    expect(
      parseCaptions('{"events":[{"tStartMs":-5,"dDurationMs":10,"segs":[{"utf8":"x"}]}]}', "a.json3").errors,
    ).toEqual([
      {
        file: "a.json3",
        line: 1,
        field: "events[0].tStartMs",
        message: "expected a non-negative number of milliseconds up to 10000000000, found -5",
      },
    ]);
    expect(parseCaptions("", "e.vtt").errors).toEqual([
      { file: "e.vtt", line: 1, message: "the file is empty: expected captions (WebVTT, SRT or YouTube json3)" },
    ]);
    expect(parseCaptions(Buffer.from([0x57, 0x45, 0x42, 0x56, 0x54, 0x54, 0x0a, 0xff]), "b.vtt").errors).toEqual([
      { file: "b.vtt", line: 2, message: "not valid UTF-8: byte 0xff at column 1 (save the file as UTF-8)" },
    ]);
  });
});
