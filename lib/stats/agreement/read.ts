/**
 * A label file for `assessor agreement`: TREC qrels (`qid iter docid grade`), or JSONL as the
 * imports read it (`import labels`, `import judge`: query, chunk, grade, …) and as `judge export
 * --format jsonl` writes it. The two are told apart as the import does (by extension, else by the
 * first character: lib/formats/text.ts isJsonlLabelFile), so a judge file that imports is a file
 * `agreement` reads (the demo's demo/judge.jsonl was refused line by line).
 */
import { z } from "zod";
import type { LocatedError } from "../../errors.ts";
import { forEachJsonl } from "../../formats/jsonl.ts";
import { parseQrels, type QrelRow } from "../../formats/trec.ts";
import { isJsonlLabelFile } from "../../formats/text.ts";
import { ZExternalId } from "../../imports/schemas.ts";

/** Other keys (rationale, start, injection, samples, …) are not read. A null grade is a judge run's pair without one (unfinished or unparsed). */
const ZAgreementRow = z.object({
  query: ZExternalId,
  chunk: ZExternalId,
  grade: z
    .number({ error: "expected an integer grade 0–3" })
    .int({ error: "expected an integer grade 0–3" })
    .nullable(),
});

export type TLabelFile = {
  rows: QrelRow[];
  errors: LocatedError[];
  clipped: number;
  ungraded: number;
  format: "qrels" | "jsonl";
};

export function readLabelFile(bytes: Buffer, file: string, opts: { clip?: boolean } = {}): TLabelFile {
  if (!isJsonlLabelFile(file, bytes)) return { ...parseQrels(bytes, file, opts), ungraded: 0, format: "qrels" };
  const rows: QrelRow[] = [];
  const errors: LocatedError[] = [];
  const seen = new Map<string, number>();
  let clipped = 0;
  let ungraded = 0;
  const what = "one JSON object per line: query, chunk, grade 0–3";
  forEachJsonl(
    bytes,
    file,
    ZAgreementRow,
    what,
    (r, line) => {
      if (r.grade === null) {
        ungraded++;
        return;
      }
      let grade = r.grade;
      if (grade < 0 || grade > 3) {
        if (!opts.clip)
          return errors.push({
            file,
            line,
            field: "grade",
            message: `expected a grade 0–3, found ${grade} (--clip maps grades outside 0–3 into range)`,
          });
        grade = Math.min(3, Math.max(0, grade));
        clipped++;
      }
      const key = `${r.query}\u0000${r.chunk}`;
      const first = seen.get(key);
      if (first !== undefined)
        return errors.push({
          file,
          line,
          field: "chunk",
          message: `chunk "${r.chunk}" is labelled twice for query "${r.query}" (first on line ${first}); expected one label per query and chunk`,
        });
      seen.set(key, line);
      rows.push({ qid: r.query, docid: r.chunk, grade, line });
    },
    errors,
  );
  return { rows, errors, clipped, ungraded, format: "jsonl" };
}
