import { describe, expect, it } from "vitest";
import { readLabelFile } from "../../../lib/stats/agreement/read.ts";

/** `assessor agreement` reads qrels, and JSONL as the imports read it, told apart as the import does. */
const buf = (s: string) => Buffer.from(s, "utf8");

describe("readLabelFile", () => {
  it("reads the importer's JSONL (by extension or first character), keeping query, chunk and grade", () => {
    const text = '{"query":"q1","chunk":"c1","grade":3,"rationale":"yes"}\n\n{"query":"q1","chunk":"c2","grade":0}\n';
    for (const name of ["judge.jsonl", "judge.json", "judge"]) {
      const r = readLabelFile(buf(text), name);
      expect([r.format, r.errors, r.rows]).toEqual([
        "jsonl",
        [],
        [
          { qid: "q1", docid: "c1", grade: 3, line: 1 },
          { qid: "q1", docid: "c2", grade: 0, line: 3 },
        ],
      ]);
    }
    expect(readLabelFile(buf("q1 0 c1 3\n"), "x.qrels").rows).toEqual([{ qid: "q1", docid: "c1", grade: 3, line: 1 }]);
  });

  it("leaves out a judge run's ungraded pairs, counting them; refuses twice-labelled pairs and grades outside 0–3 with file:line (unless --clip)", () => {
    const r = readLabelFile(
      buf(
        '{"query":"q1","chunk":"c1","grade":null}\n{"query":"q1","chunk":"c2","grade":4}\n{"query":"q1","chunk":"c3","grade":1}\n{"query":"q1","chunk":"c3","grade":2}\n{"query":"q1"}\n',
      ),
      "j.jsonl",
    );
    expect(r.ungraded).toBe(1);
    expect(r.errors.map((e) => `${e.file}:${e.line}: ${e.field ?? ""}: ${e.message}`)).toEqual([
      "j.jsonl:2: grade: expected a grade 0–3, found 4 (--clip maps grades outside 0–3 into range)",
      'j.jsonl:4: chunk: chunk "c3" is labelled twice for query "q1" (first on line 3); expected one label per query and chunk',
      "j.jsonl:5: chunk: expected an id (a non-empty string)",
      "j.jsonl:5: grade: expected an integer grade 0–3",
    ]);
    const clipped = readLabelFile(buf('{"query":"q1","chunk":"c2","grade":4}\n'), "j.jsonl", { clip: true });
    expect([clipped.clipped, clipped.rows[0]?.grade]).toEqual([1, 3]);
  });
});
