/**
 * What an answers file refers to (import.ts): its questions — by id, or by text (RAGAS's
 * user_input), each once in the file; an unknown, ambiguous or repeated question is an error at its
 * line, a question not accepted a warning — and the one chunking its chunk ids belong to.
 */
import type { Db } from "../db/client.ts";
import { ValidationError, type LocatedError } from "../errors.ts";
import { recogniseChunking } from "../chunkings/recognise.ts";
import type { ChunkingInfo } from "../chunkings/store.ts";
import type { IdIndex } from "../db/id-index.ts";
import type { TAnswerRow } from "./import-schema.ts";

type TQuestion = { id: number; externalId: string; text: string; status: string };

export async function matchQuestions<R extends TAnswerRow & { line: number }>(
  db: Db,
  projectId: number,
  name: string,
  rows: readonly R[],
  errors: LocatedError[],
  warnings: LocatedError[],
): Promise<{ row: R; q: TQuestion }[]> {
  const questions = await db.query.findMany({
    where: { projectId },
    select: { id: true, externalId: true, text: true, status: true },
  });
  const byId = new Map(questions.map((q) => [q.externalId, q]));
  const normal = (t: string) => t.trim().replace(/\s+/g, " ");
  const byText = new Map<string, TQuestion[]>();
  for (const q of questions) byText.set(normal(q.text), [...(byText.get(normal(q.text)) ?? []), q]);
  const seen = new Map<number, number>();
  const found: { row: R; q: TQuestion }[] = [];
  for (const row of rows) {
    let q: TQuestion | undefined;
    if (row.questionField === "user_input") {
      const matches = byText.get(normal(row.question)) ?? [];
      if (matches.length === 0) {
        errors.push({
          file: name,
          line: row.line,
          field: "user_input",
          message: `no question of this project has the text "${row.question}"; expected a question's exact text (or its id as qid)`,
        });
        continue;
      }
      if (matches.length > 1) {
        errors.push({
          file: name,
          line: row.line,
          field: "user_input",
          message: `${matches.length} questions have this text (${matches.map((m) => `"${m.externalId}"`).join(", ")}); give the question's id as qid`,
        });
        continue;
      }
      q = matches[0];
    } else {
      q = byId.get(row.question);
      if (!q) {
        errors.push({
          file: name,
          line: row.line,
          field: row.questionField,
          message: `unknown question "${row.question}"; expected the id of a question of this project`,
        });
        continue;
      }
    }
    const first = seen.get(q.id);
    if (first !== undefined) {
      errors.push({
        file: name,
        line: row.line,
        field: row.questionField,
        message: `question "${q.externalId}" is answered twice (first on line ${first}); expected one line per question`,
      });
      continue;
    }
    seen.set(q.id, row.line);
    if (q.status !== "accepted")
      warnings.push({
        file: name,
        line: row.line,
        field: row.questionField,
        message: `question "${q.externalId}" is ${q.status === "draft" ? "a draft" : q.status}: its answer is imported but not assigned or evaluated until the question is accepted`,
      });
    found.push({ row, q });
  }

  return found;
}

/** Every chunk id a line names, with its field: the context in order, then the citations'. */
export const chunkIdsOf = (r: TAnswerRow) => [
  ...r.context.map((id, i) => ({ id, field: `${r.contextField}.${i}` })),
  ...(r.citations ?? []).flatMap((c, j) => c.chunks.map((id, k) => ({ id, field: `citations.${j}.chunks.${k}` }))),
];

/**
 * One chunking for the whole file, named or recognised from the ids (as for runs); none when the
 * file names no chunk and no chunking is given. Errors at lines join `errors` (in line order with
 * the file's others); the rest (no chunks, an ambiguous file, an unknown chunking) stand alone once
 * the lines are right.
 */
export async function answerChunking(
  db: Db,
  projectId: number,
  name: string,
  rows: readonly (TAnswerRow & { line: number })[],
  named: string | undefined,
  errors: LocatedError[],
): Promise<{ chunking: ChunkingInfo | null; chunks: IdIndex | null }> {
  if (!rows.some((r) => chunkIdsOf(r).length > 0) && named === undefined) return { chunking: null, chunks: null };
  try {
    return await recogniseChunking(db, projectId, name, named, "answer file", (visit) => {
      for (const r of rows) for (const { id, field } of chunkIdsOf(r)) visit(id, r.line, field);
    });
  } catch (e) {
    if (e instanceof ValidationError) errors.push(...e.errors);
    else if (errors.length === 0) throw e;
    return { chunking: null, chunks: null };
  }
}
