import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { forEachRunLine, parseQrels, parseRun, decodeUtf8, type RunRow } from "../../../lib/formats/trec.ts";
import type { LocatedError } from "../../../lib/errors.ts";

const dir = mkdtempSync(join(tmpdir(), "trec-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("parseQrels", () => {
  it("reads whitespace-separated columns (spaces, tabs, CRLF) and counts blank lines", () => {
    const r = parseQrels("q1 0 d1 3\r\n\nq1\t0\td2\t0\n  q2  0  d1  1  \n", "a.qrels");
    expect(r.errors).toEqual([]);
    expect(r.rows).toEqual([
      { qid: "q1", docid: "d1", grade: 3, line: 1 },
      { qid: "q1", docid: "d2", grade: 0, line: 3 },
      { qid: "q2", docid: "d1", grade: 1, line: 4 },
    ]);
  });
  it("locates a wrong column count, a non-integer grade and a grade outside 0–3", () => {
    const r = parseQrels("q1 0 d1\nq1 0 d2 2.5\nq1 0 d3 x\nq1 0 d4 4\nq1 0 d5 -1\nq1 0 d6 2\n", "b.qrels");
    expect(r.rows.map((x) => x.docid)).toEqual(["d6"]);
    expect(r.errors.map((e) => [e.line, e.field])).toEqual([
      [1, undefined],
      [2, "grade"],
      [3, "grade"],
      [4, "grade"],
      [5, "grade"],
    ]);
    expect(r.errors[0]).toMatchObject({ file: "b.qrels", message: expect.stringContaining("expected 4 columns") });
    expect(r.errors[3].message).toContain("found 4");
  });
  it("clips out-of-range grades when asked and says how many changed", () => {
    const r = parseQrels("q1 0 d1 4\nq1 0 d2 -1\nq1 0 d3 2\n", "c.qrels", { clip: true });
    expect(r.errors).toEqual([]);
    expect(r.rows.map((x) => x.grade)).toEqual([3, 0, 2]);
    expect(r.clipped).toBe(2);
  });
  it("on trec_eval's scale takes any relevance value from -127 to 127, and only those", () => {
    const r = parseQrels("q1 0 d1 4\nq1 0 d2 -2\nq1 0 d3 127\nq1 0 d4 128\nq1 0 d5 -128\nq1 0 d6 1.5\n", "t.qrels", {
      scale: "trec",
    });
    expect(r.rows.map((x) => [x.docid, x.grade])).toEqual([
      ["d1", 4],
      ["d2", -2],
      ["d3", 127],
    ]);
    expect(r.errors.map((e) => [e.line, e.field, e.message])).toEqual([
      [4, "grade", "expected a relevance value from -127 to 127, found 128"],
      [5, "grade", "expected a relevance value from -127 to 127, found -128"],
      [6, "grade", 'expected an integer grade (relevance value -127 to 127), found "1.5"'],
    ]);
    // clip wins over the scale: the 0–3 scale, clipped.
    expect(parseQrels("q1 0 d1 4\n", "t.qrels", { scale: "trec", clip: true }).rows[0].grade).toBe(3);
  });
  it("reads BEIR's qrels (header query-id corpus-id score, 3 tab-separated columns)", () => {
    const r = parseQrels("query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t0\r\nq2\td1\t2\n", "test.tsv");
    expect(r.errors).toEqual([]);
    expect(r.rows).toEqual([
      { qid: "q1", docid: "d1", grade: 1, line: 2 },
      { qid: "q1", docid: "d2", grade: 0, line: 3 },
      { qid: "q2", docid: "d1", grade: 2, line: 4 },
    ]);
    // After the header every line has the 3 columns; a TREC line there is an error, and so is a
    // header alone. Without the header, 3 columns are not qrels.
    expect(parseQrels("query-id\tcorpus-id\tscore\nq1 0 d1 1\n", "b.tsv").errors).toEqual([
      {
        file: "b.tsv",
        line: 2,
        message: "expected 3 columns after the BEIR header: query-id corpus-id score; found 4 columns",
      },
    ]);
    expect(parseQrels("query-id\tcorpus-id\tscore\n", "h.tsv").errors[0]).toMatchObject({
      line: 2,
      message: expect.stringContaining("only the BEIR header"),
    });
    expect(parseQrels("q1\td1\t1\n", "n.tsv").errors[0].message).toBe(
      "expected 4 columns: qid iter docid grade; found 3 columns",
    );
  });
  it("rejects a chunk judged twice for one query, naming the first line", () => {
    const r = parseQrels("q1 0 d1 1\nq2 0 d1 1\nq1 0 d1 2\n", "d.qrels");
    expect(r.errors).toEqual([
      { file: "d.qrels", line: 3, field: "docid", message: expect.stringContaining("first on line 1") },
    ]);
  });
  it("rejects an empty or blank file", () => {
    expect(parseQrels("", "e.qrels").errors[0]).toMatchObject({
      file: "e.qrels",
      line: 1,
      message: expect.stringContaining("empty"),
    });
    expect(parseQrels("\n  \n", "e.qrels").errors).toHaveLength(1);
  });
  it("rejects bytes that are not UTF-8 and names the line", () => {
    const bytes = Buffer.concat([Buffer.from("q1 0 d1 1\nq1 0 d"), Buffer.from([0xff]), Buffer.from(" 2\n")]);
    const r = parseQrels(bytes, "f.qrels");
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ file: "f.qrels", line: 2, message: expect.stringContaining("0xff") });
    // Valid multi-byte UTF-8 is accepted.
    expect(parseQrels(Buffer.from("q1 0 dé 1\n"), "g.qrels").rows[0].docid).toBe("dé");
  });
});

describe("decodeUtf8", () => {
  it("rejects overlong encodings and truncated sequences", () => {
    expect(decodeUtf8(Buffer.from([0x61, 0xc0, 0xaf]), "x").error?.message).toContain("0xc0");
    expect(decodeUtf8(Buffer.from([0x61, 0x0a, 0x62, 0xe2, 0x82]), "x").error).toMatchObject({ line: 2 });
  });
});

describe("parseRun", () => {
  it("reads the six columns and keeps the given rank", () => {
    const r = parseRun("q1 Q0 d1 1 2.5 sys\nq1 Q0 d2 2 -1e-3 sys\n", "a.run");
    expect(r.errors).toEqual([]);
    expect(r.rows).toEqual([
      { qid: "q1", docid: "d1", rank: 1, score: 2.5, tag: "sys", line: 1 },
      { qid: "q1", docid: "d2", rank: 2, score: -0.001, tag: "sys", line: 2 },
    ]);
  });
  it("parses scores to the same double as Number()", () => {
    const scores = ["0.123456", "1", "-0.5", "12345678.123456", "0.1234567890123456789", "1e-7", "3.", ".5"];
    const r = parseRun(scores.map((s, i) => `q Q0 d${i} ${i} ${s} t`).join("\n"), "n.run");
    expect(r.errors).toEqual([]);
    expect(r.rows.map((x) => x.score)).toEqual(scores.map(Number));
  });
  it("locates wrong column counts, non-numeric rank and score, and a docid twice in a query", () => {
    const r = parseRun(
      "q1 Q0 d1 1 0.5\nq1 Q0 d2 x 0.5 t\nq1 Q0 d3 3 abc t\nq1 Q0 d4 4 NaN t\nq1 Q0 d5 5 0x10 t\nq1 Q0 d6 6 0.1 t\nq2 Q0 d6 1 0.1 t\nq1 Q0 d6 7 0.2 t\n",
      "b.run",
    );
    expect(r.errors.map((e) => [e.line, e.field])).toEqual([
      [1, undefined],
      [2, "rank"],
      [3, "score"],
      [4, "score"],
      [5, "score"],
      [8, "docid"],
    ]);
    expect(r.errors[0].message).toContain("expected 6 columns");
    expect(r.errors[5].message).toContain("first on line 6");
    expect(r.rows.map((x) => `${x.qid}/${x.docid}`)).toEqual(["q1/d6", "q2/d6"]);
  });
  it("rejects an empty file", () => {
    expect(parseRun("", "e.run").errors[0]).toMatchObject({ file: "e.run", line: 1 });
  });
  it("ignores columns after the sixth, as trec_eval 10.0 (its test file results.trunc)", () => {
    const r = parseRun(
      "301\tQ0\tFBIS3-27619\t99\t  2.138276\tSTANDARD more junk at\n303 Q0 FT941-17652 99 1.857372 STANDARD end of lines. a b c d e f\n",
      "t.run",
    );
    expect(r.errors).toEqual([]);
    expect(r.rows.map((x) => [x.qid, x.docid, x.score, x.tag])).toEqual([
      ["301", "FBIS3-27619", 2.138276, "STANDARD"],
      ["303", "FT941-17652", 1.857372, "STANDARD"],
    ]);
  });
  it("with rank: 'ignored' takes any text as rank (trec_eval never reads it), still refusing a bad score", () => {
    const r = parseRun("q1 Q0 d1 one 0.5 t\nq1 Q0 d2 2.5 0.4 t\nq1 Q0 d3 3 abc t\n", "r.run", { rank: "ignored" });
    expect(r.rows.map((x) => [x.docid, x.rank])).toEqual([
      ["d1", NaN],
      ["d2", NaN],
    ]);
    expect(r.errors.map((e) => [e.line, e.field])).toEqual([[3, "score"]]);
    expect(parseRun("q1 Q0 d1 one 0.5 t\n", "r.run").errors[0]).toMatchObject({ line: 1, field: "rank" });
  });
});

describe("forEachRunLine", () => {
  async function collect(content: string | Buffer, opts: { checkDuplicates?: boolean } = {}) {
    const path = join(dir, `r${Math.random().toString(36).slice(2)}.run`);
    writeFileSync(path, content);
    const rows: RunRow[] = [];
    const errors: LocatedError[] = [];
    const counts = await forEachRunLine(
      path,
      (r) => rows.push(r),
      (e) => errors.push(e),
      { ...opts, file: "x.run" },
    );
    return { rows, errors, counts };
  }
  it("streams the same rows as parseRun, across chunk boundaries, with the right line numbers", async () => {
    // More than one 8 MiB chunk, so lines straddle a read boundary.
    const lines: string[] = [];
    for (let i = 0; i < 300_000; i++) lines.push(`q${i % 7} Q0 doc_${i} ${i} ${(i % 1000) / 7} run_tag_name`);
    lines[250_000] = "bad line";
    const text = `${lines.join("\n")}\n`;
    expect(Buffer.byteLength(text)).toBeGreaterThan(8 << 20);
    const { rows, errors, counts } = await collect(text);
    expect(errors).toEqual([{ file: "x.run", line: 250_001, message: expect.stringContaining("found 2 columns") }]);
    expect(counts).toEqual({ rows: 299_999, errors: 1 });
    const expected = parseRun(text, "x.run").rows;
    expect(rows.length).toBe(expected.length);
    expect(rows[260_000]).toEqual(expected[260_000]);
    expect(rows.at(-1)).toEqual({
      qid: "q0",
      docid: "doc_299999",
      rank: 299999,
      score: 999 / 7,
      tag: "run_tag_name",
      line: 300_000,
    });
  });
  it("splits on tabs, spaces and CRLF in both the ASCII and the UTF-8 paths", async () => {
    const ascii = await collect("q1\tQ0\td1\t1\t0.5\tt\r\nq1  Q0 d2 2 0.4 t\r\n");
    expect(ascii.errors).toEqual([]);
    expect(ascii.rows.map((r) => [r.docid, r.score, r.tag, r.line])).toEqual([
      ["d1", 0.5, "t", 1],
      ["d2", 0.4, "t", 2],
    ]);
    const utf8 = await collect("q1\tQ0\tdé\t1\t0.5\tt\r\nq1  Q0 d2 2 0.4 t\r\n");
    expect(utf8.rows.map((r) => [r.docid, r.score, r.tag, r.line])).toEqual([
      ["dé", 0.5, "t", 1],
      ["d2", 0.4, "t", 2],
    ]);
  });
  it("reads lines with more than six columns in the fast path too", async () => {
    const { rows, errors } = await collect("q1 Q0 d1 1 0.5 t junk\nq1 Q0 d2 2 0.4 t more junk here and there\n");
    expect(errors).toEqual([]);
    expect(rows.map((r) => [r.docid, r.rank, r.score, r.tag])).toEqual([
      ["d1", 1, 0.5, "t"],
      ["d2", 2, 0.4, "t"],
    ]);
  });
  it("reads the same rows and line numbers as parseRun from comments, blank lines, short lines and control characters", async () => {
    const text =
      "# a comment\n\n   \nq1 Q0 d1 1 0.5 t\n  # indented comment\nq1 Q0 d\u00012 2 0.4 t\nq1 Q0 d3 3\nq1 Q0 d4 4 0.3 t   \nq1 Q0 d5 x 0.2 t\nq2 Q0 d6 1 .5 t x";
    const fast = await collect(text, { checkDuplicates: false });
    const slow = parseRun(text, "x.run");
    expect(fast.rows).toEqual(slow.rows);
    expect(fast.errors).toEqual(slow.errors);
    expect(fast.rows.map((r) => [r.docid, r.line])).toEqual([
      ["d1", 4],
      ["d\u00012", 6],
      ["d4", 8],
      ["d6", 10],
    ]);
    expect(fast.errors.map((e) => [e.line, e.field])).toEqual([
      [7, undefined],
      [9, "rank"],
    ]);
  });
  it("reports duplicates unless the caller checks them itself", async () => {
    const text = "q1 Q0 d1 1 1 t\nq1 Q0 d1 2 0.5 t";
    expect((await collect(text)).errors[0]).toMatchObject({ line: 2, field: "docid" });
    expect((await collect(text, { checkDuplicates: false })).rows).toHaveLength(2);
  });
  it("reports an empty file and non-UTF-8 bytes with their line", async () => {
    expect((await collect("")).errors[0].message).toContain("empty");
    const bad = await collect(
      Buffer.concat([
        Buffer.from("q1 Q0 d1 1 1 t\nq1 Q0 d2 2 1 t\nq1 Q0 d"),
        Buffer.from([0xe9]),
        Buffer.from(" 3 1 t\n"),
      ]),
    );
    expect(bad.errors).toEqual([{ file: "x.run", line: 3, message: expect.stringContaining("UTF-8") }]);
  });
});
