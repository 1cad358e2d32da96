import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseJsonl } from "../../../lib/formats/jsonl.ts";
import { parseDelimited } from "../../../lib/formats/delimited.ts";
import { ZChunkRow } from "../../../lib/imports/schemas.ts";

describe("parseJsonl", () => {
  it("validates each line and locates problems by line and field", () => {
    const text = [
      '{"id":"c1","video":"v1","start":0,"end":10,"text":"ok"}',
      "",
      '{"id":"c2","video":"v1","start":20,"end":10,"text":"backwards"}',
      '{"id":"c3","video":"v1","start":-1,"end":10,"text":"negative"}',
      '{"id":"c4","video":"v1","start":"x","end":10,"text":"not a number"}',
      "not json",
      "[1,2]",
      '{"id":"c5","video":"v1","start":0,"end":1,"text":"t","strat":3}',
    ].join("\n");
    const r = parseJsonl(text, "c.jsonl", ZChunkRow);
    expect(r.rows).toEqual([{ id: "c1", video: "v1", start: 0, end: 10, text: "ok", line: 1 }]);
    expect(r.errors.map((e) => [e.line, e.field, e.message])).toEqual([
      [3, "end", "expected the end not before the start (20 s)"],
      [4, "start", "expected the start of 0 seconds or more"],
      [5, "start", "expected the start as a number of seconds"],
      [6, undefined, expect.stringMatching(/^expected a JSON object \(one JSON object per line\): /)],
      [7, undefined, "expected a JSON object (one JSON object per line), found an array"],
      [8, "strat", 'unknown field "strat" (misspelt?); expected only the documented fields'],
    ]);
  });

  it("reports an empty file and bytes that are not UTF-8", () => {
    const Z = z.object({ id: z.string() });
    expect(parseJsonl("\n\n", "e.jsonl", Z).errors).toEqual([
      { file: "e.jsonl", line: 1, message: "the file is empty: expected one JSON object per line" },
    ]);
    expect(parseJsonl(Buffer.from('{"id":"a"}\n{"id":"\xe9"}\n', "latin1"), "l.jsonl", Z).errors).toEqual([
      { file: "l.jsonl", line: 2, message: "not valid UTF-8: byte 0xe9 at column 8 (save the file as UTF-8)" },
    ]);
  });
});

describe("parseDelimited", () => {
  const opts = { columns: ["id", "title", "duration"], required: ["id", "title"] } as const;
  it("reads CSV with quotes, trims cells and treats empty cells as absent", () => {
    const r = parseDelimited('id,title,duration\nv1,"A, quoted title",12\nv2, plain ,\n', "v.csv", {
      delimiter: ",",
      ...opts,
    });
    expect(r.errors).toEqual([]);
    expect(r.records).toEqual([
      { line: 2, values: { id: "v1", title: "A, quoted title", duration: "12" } },
      { line: 3, values: { id: "v2", title: "plain", duration: undefined } },
    ]);
  });
  it("locates a wrong column count, an unknown column and a missing one", () => {
    expect(parseDelimited("id\ttitle\tduration\nq1\tt\n", "q.tsv", { delimiter: "\t", ...opts }).errors).toEqual([
      { file: "q.tsv", line: 2, message: "expected 3 columns (id, title, duration); found 2" },
    ]);
    expect(parseDelimited("id,name\nv1,x\n", "v.csv", { delimiter: ",", ...opts }).errors).toEqual([
      {
        file: "v.csv",
        line: 1,
        field: "name",
        message: 'unknown column "name"; expected columns: id, title, duration',
      },
      { file: "v.csv", line: 1, field: "title", message: 'missing column "title" in the header row' },
    ]);
    expect(parseDelimited("", "v.csv", { delimiter: ",", ...opts }).errors[0].message).toBe(
      "the file is empty: expected a CSV header row (id, title, duration) and data rows",
    );
  });
});
