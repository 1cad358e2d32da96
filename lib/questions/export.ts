/**
 * `assessor export questions`: the file a team's retrievers read to produce runs.
 * - jsonl: one object per line, `{id, text, status, author, tags, places: [{video, start, end}]}`
 *   (the import's format: `assessor import queries` reads it back);
 * - csv / tsv: columns id, text, status, author, tags (comma-separated), places (`video@start-end`
 *   or `video@start`, several joined by `;`); TSV has no quoting, so tabs and line breaks in a
 *   text become spaces; in both, a cell a spreadsheet would run as a formula is neutralised
 *   (lib/formats/csv-write.ts);
 * - trec: TREC topics, one `<top>` per question: `<num> Number: ID` and `<title> TEXT`, the form
 *   Anserini and Pyserini read as topics (title only).
 * Only accepted questions by default (the ones evaluated); `status` chooses another set.
 */
import type { Db, QuestionStatus } from "../db/client.ts";
import { safeCsv, safeTsv } from "../formats/csv-write.ts";
import { listQuestions, type TQuestion } from "./store.ts";

export const QUESTION_FORMATS = ["jsonl", "csv", "tsv", "trec"] as const;
export type TQuestionFormat = (typeof QUESTION_FORMATS)[number];

const placeText = (q: TQuestion) =>
  q.places.map((p) => `${p.video ?? ""}@${p.start}${p.end === null ? "" : `-${p.end}`}`).join(";");
const oneLine = (s: string) => s.replace(/[\t\r\n]+/g, " ");

export function questionsText(questions: readonly TQuestion[], format: TQuestionFormat): string {
  switch (format) {
    case "jsonl":
      return questions
        .map(
          (q) =>
            `${JSON.stringify({ id: q.qid, text: q.text, status: q.status, author: q.author, tags: q.tags, places: q.places.map((p) => ({ video: p.video, start: p.start, end: p.end })) })}\n`,
        )
        .join("");
    case "csv":
      return safeCsv([
        ["id", "text", "status", "author", "tags", "places"],
        ...questions.map((q) => [q.qid, q.text, q.status, q.author, q.tags.join(","), placeText(q)]),
      ]);
    case "tsv":
      return safeTsv([
        ["id", "text", "status", "author", "tags", "places"],
        ...questions.map((q) => [q.qid, q.text, q.status, q.author, q.tags.join(","), placeText(q)]),
      ]);
    case "trec":
      return questions.map((q) => `<top>\n<num> Number: ${q.qid}\n<title> ${oneLine(q.text)}\n</top>\n\n`).join("");
  }
}

export async function exportQuestions(
  db: Db,
  projectId: number,
  format: TQuestionFormat,
  status: QuestionStatus | "all" = "accepted",
): Promise<{ content: string; count: number }> {
  const questions = await listQuestions(db, projectId, status === "all" ? {} : { status });
  return { content: questionsText(questions, format), count: questions.length };
}
