import { createHash, randomUUID } from "node:crypto";
import { hasNul, NUL_MESSAGE } from "../bounds.ts";
import type { Db } from "../db/client.ts";
import { AppError, saidMessage, type LocatedError } from "../errors.ts";
import { forEachJsonl } from "../formats/jsonl.ts";
import { bulkTransaction } from "../db/bulk.ts";
import { dateValue } from "../db/dialect.ts";
import { insertImportRecord } from "../imports/record.ts";
import { ErrorList, readInput, type ImportOptions, type ImportResult } from "../imports/input.ts";
import { MAX_CLAIMS, splitClaims, type TClaimSpan } from "./claims.ts";
import { PRIVATE_VERSION_MIN } from "./claims-edit.ts";
import { field, say } from "../terms.ts";
import { WHAT, ZAnswerRow, type TAnswerRow } from "./import-schema.ts";
import { answerChunking, chunkIdsOf, matchQuestions } from "./import-resolve.ts";

export { ZAnswerRow, type TAnswerRow };

/**
 * Answers of one generator configuration (a "system") from JSONL, one line per
 * question (docs/formats.md "Answers"): the question, the answer text, the ids of the chunks given
 * to the model in order (its context), and optional citations (chunk ids per sentence of the
 * default split). Field names of common RAG tooling are accepted as well: `question_id`/`query_id`
 * for `qid`, RAGAS's `user_input` (the question's text), `response` for `answer`,
 * `contexts`/`context_ids`/RAGAS's `retrieved_context_ids` for `context`.
 */

export type TAnswersInput = { system: string; fileName?: string } & ({ text: string | Buffer } | { path: string });
export type TAnswersImportOptions = ImportOptions & {
  /** The chunking the chunk ids belong to; recognised from the ids when not given (as for runs). */
  chunking?: string;
  /** Replace the answers whose content changed; without it an existing (system, question) with other content is an error. */
  replace?: boolean;
  /** With `replace`: replace answers that already have human labels (the labels are removed). */
  force?: boolean;
};
export type TAnswersImportResult = ImportResult & {
  kind: "answers";
  system: string;
  /** The chunking the context ids were resolved in (null: the file names no chunk). */
  chunking: string | null;
  /** Claims written (the default split of the new and replaced answers). */
  claims: number;
  /** Human labels (annotators' and adjudications) and judge labels removed with replaced answers (`force`). */
  labelsRemoved: number;
  judgeLabelsRemoved: number;
};

/** The stored hash of an answer's content: an unchanged line is a no-op on re-import. */
export function answerContentHash(text: string, context: readonly string[], citations: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify([text, context, citations ?? null]))
    .digest("hex");
}

type Resolved = {
  line: number;
  qid: string;
  queryId: number;
  text: string;
  context: { externalId: string; chunkId: number }[];
  citations: TAnswerRow["citations"];
  hash: string;
};

/**
 * Validates the whole file (bad JSON, unknown or repeated question, empty answer, a context or cited
 * chunk not in the chunking, a citation of a sentence the answer does not have; file, line and
 * field each), then writes in one transaction: per new answer an Answer (random id), its
 * AnswerContext rows in order, AnswerClaim rows of version 1 from `splitClaims` (source
 * "sentence") and an AnswerEvent "import"; an ImportRecord of kind "answers". Nothing is written
 * when any line is wrong.
 *
 * The same system again: an unchanged line (same answer, context and citations) is a no-op; a
 * changed one is an error unless `replace`, which rewrites the answer in place (same id): text,
 * context, citations, and a new claim version from the default split. An answer with human labels
 * (AnswerJudgement, AnswerAdjudication) is refused, naming the count, unless `force`, which removes
 * them, its judge labels and its dispute mark (the labels were about another text; the event's
 * `before` keeps what was removed). A question that is not accepted is imported with a warning.
 */
export async function importAnswers(
  db: Db,
  projectId: number,
  input: TAnswersInput,
  opts: TAnswersImportOptions = {},
): Promise<TAnswersImportResult> {
  const system = input.system.trim();
  if (!system)
    throw new AppError(
      "bad_input",
      say`answers need a system name (${field("system", "NAME")}): the generator configuration that wrote them`,
    );
  if (hasNul(system)) throw new AppError("bad_input", `system: ${NUL_MESSAGE}`);
  const fileName = input.fileName ?? ("path" in input ? input.path : "answers.jsonl");
  const { name, bytes, sha256 } =
    "path" in input
      ? await readInput(input.path).then((r) => ({ ...r, name: fileName }))
      : await readInput({
          name: fileName,
          bytes: typeof input.text === "string" ? Buffer.from(input.text, "utf8") : input.text,
        });

  const errors: LocatedError[] = [];
  const warnings: LocatedError[] = [];
  const rows: (TAnswerRow & { line: number })[] = [];
  forEachJsonl(bytes, name, ZAnswerRow, WHAT, (row, line) => rows.push({ ...row, line }), errors);

  const found = await matchQuestions(db, projectId, name, rows, errors, warnings);

  const { chunking, chunks } = await answerChunking(db, projectId, name, rows, opts.chunking, errors);

  const resolved: Resolved[] = [];
  for (const { row, q } of found) {
    let bad = false;
    const context: Resolved["context"] = [];
    const positions = new Map<string, number>();
    if (chunks && chunking) {
      for (const { id, field } of chunkIdsOf(row)) {
        const chunkId = chunks.get(id);
        if (chunkId === undefined) {
          bad = true;
          errors.push({
            file: name,
            line: row.line,
            field,
            message: `unknown chunk "${id}"; expected the id of a chunk of chunking "${chunking.name}"`,
          });
        }
      }
      row.context.forEach((id, i) => {
        const chunkId = chunks!.get(id);
        if (chunkId === undefined) return;
        const at = positions.get(id);
        if (at !== undefined)
          warnings.push({
            file: name,
            line: row.line,
            field: `${row.contextField}.${i}`,
            message: `chunk "${id}" is in the context twice (also at position ${at}); both are kept`,
          });
        else positions.set(id, i);
        context.push({ externalId: id, chunkId });
      });
    }
    const sentences = splitClaims(row.answer).length;
    if (sentences > MAX_CLAIMS) {
      bad = true;
      errors.push({
        file: name,
        line: row.line,
        field: row.answerField,
        message: `the answer has ${sentences} sentences (claims); expected at most ${MAX_CLAIMS}, the most a label can carry (split it, or leave it out)`,
      });
    }
    (row.citations ?? []).forEach((c, j) => {
      if (c.sentence >= sentences) {
        bad = true;
        errors.push({
          file: name,
          line: row.line,
          field: `citations.${j}.sentence`,
          message: `the answer has ${sentences} sentence${sentences === 1 ? "" : "s"} (0 to ${sentences - 1}); sentence ${c.sentence} does not exist`,
        });
      }
    });
    if (bad) continue;
    resolved.push({
      line: row.line,
      qid: q.externalId,
      queryId: q.id,
      text: row.answer,
      context,
      citations: row.citations,
      hash: answerContentHash(row.answer, row.context, row.citations),
    });
  }
  errors.sort((a, b) => a.line - b.line);
  const list = new ErrorList();
  list.push(...errors);
  list.throwIfAny();

  // What exists for this system: unchanged lines are no-ops, changed ones need `replace`.
  const existing = new Map(
    (
      await db.answer.findMany({
        where: { projectId, system },
        select: { id: true, queryId: true, contentHash: true, createdAt: true },
      })
    ).map((a) => [a.queryId, a]),
  );
  const create: Resolved[] = [];
  const changed: { r: Resolved; id: string }[] = [];
  let unchanged = 0;
  for (const r of resolved) {
    const old = existing.get(r.queryId);
    if (!old) create.push(r);
    else if (old.contentHash === r.hash) unchanged++;
    else if (!opts.replace)
      list.push({
        file: name,
        line: r.line,
        field: "answer",
        ...saidMessage(
          say`system "${system}" already has a different answer to question "${r.qid}" (imported ${old.createdAt.toISOString()}); use ${field("replaceAnswers")} to replace changed answers`,
        ),
      });
    else changed.push({ r, id: old.id });
  }
  list.throwIfAny();
  // The answers replaced, with what the event keeps of them and their labels.
  const olds = new Map(
    (
      await db.answer.findMany({
        where: { id: { in: changed.map((c) => c.id) } },
        select: {
          id: true,
          text: true,
          citations: true,
          claimVersion: true,
          context: { select: { chunk: { select: { externalId: true } } }, orderBy: { position: "asc" } },
          // The last shared version: annotators' private sets (from PRIVATE_VERSION_MIN) do not count.
          claims: {
            where: { version: { lt: PRIVATE_VERSION_MIN } },
            select: { version: true },
            orderBy: { version: "desc" },
            take: 1,
          },
          judgements: { select: { userId: true, claimVersion: true, claimLabels: true, relevance: true, notes: true } },
          adjudication: {
            select: { adjudicatorId: true, claimVersion: true, claimLabels: true, relevance: true, rationale: true },
          },
          judgeLabels: { select: { judge: true, claimVersion: true, claimLabels: true, relevance: true } },
        },
      })
    ).map((a) => [a.id, a]),
  );
  const replace = changed.map((c) => ({ r: c.r, old: olds.get(c.id)! }));
  const humanLabels = (o: (typeof replace)[number]["old"]) => o.judgements.length + (o.adjudication ? 1 : 0);
  const labelled = replace.filter((x) => humanLabels(x.old) > 0);
  if (labelled.length > 0 && !opts.force) {
    const n = labelled.reduce((s, x) => s + humanLabels(x.old), 0);
    throw new AppError(
      "conflict",
      say`${labelled.length} of the changed answers already ha${labelled.length === 1 ? "s" : "ve"} human labels (${n} label${n === 1 ? "" : "s"}: questions ${labelled
        .slice(0, 10)
        .map((x) => `"${x.r.qid}"`)
        .join(
          ", ",
        )}${labelled.length > 10 ? ", …" : ""}); replacing them removes those labels: use ${field("force")} to replace anyway`,
      { labelled: labelled.length, labels: n },
    );
  }

  // Everything to write, as rows; then one transaction through the bulk path (lib/db/bulk.ts:
  // Prisma's createMany went row by row, about 10 ms an answer).
  type Row = { id: string; r: Resolved; version: number; claims: TClaimSpan[]; before: string | null };
  const writes: Row[] = [
    ...create.map((r) => ({ id: randomUUID(), r, version: 1, claims: splitClaims(r.text), before: null })),
    ...replace.map(({ r, old }) => ({
      id: old.id,
      r,
      version: Math.max(old.claimVersion, old.claims[0]?.version ?? 0) + 1,
      claims: splitClaims(r.text),
      before: JSON.stringify({
        text: old.text,
        context: old.context.map((c) => c.chunk.externalId),
        citations: old.citations ? (JSON.parse(old.citations) as unknown) : null,
        claimVersion: old.claimVersion,
        removed:
          humanLabels(old) + old.judgeLabels.length > 0
            ? { judgements: old.judgements, adjudication: old.adjudication, judgeLabels: old.judgeLabels }
            : null,
      }),
    })),
  ];
  const labelsRemoved = replace.reduce((s, x) => s + humanLabels(x.old), 0);
  const judgeLabelsRemoved = replace.reduce((s, x) => s + x.old.judgeLabels.length, 0);
  const contexts = writes.flatMap((w) => w.r.context.map((c, position) => [w.id, position, c.chunkId]));
  const claimRows = writes.flatMap((w) => w.claims.map((c, position) => ({ w, c, position })));
  const citationsOf = (r: Resolved) => (r.citations ? JSON.stringify(r.citations) : null);
  await bulkTransaction(db, async (tx) => {
    const at = dateValue(tx.provider);
    for (const { r, old } of replace) {
      if (humanLabels(old) + old.judgeLabels.length > 0)
        for (const table of ["AnswerJudgement", "AnswerAdjudication", "AnswerJudgeLabel"] as const)
          await tx.query((k) => k.deleteFrom(table).where("answerId", "=", old.id));
      await tx.query((k) => k.deleteFrom("AnswerContext").where("answerId", "=", old.id));
      const version = writes.find((w) => w.id === old.id)!.version;
      await tx.query((k) =>
        k
          .updateTable("Answer")
          .set({
            text: r.text,
            citations: citationsOf(r),
            contentHash: r.hash,
            claimVersion: version,
            disputedAt: null,
          })
          .where("id", "=", old.id),
      );
    }
    await tx.insert(
      "Answer",
      [
        { name: "id", type: "text" },
        { name: "projectId", type: "int" },
        { name: "system", type: "text" },
        { name: "queryId", type: "int" },
        { name: "text", type: "text" },
        { name: "citations", type: "text" },
        { name: "contentHash", type: "text" },
        { name: "claimVersion", type: "int" },
        { name: "createdAt", type: "timestamp" },
      ],
      create.length,
      (i) => [
        writes[i].id,
        projectId,
        system,
        writes[i].r.queryId,
        writes[i].r.text,
        citationsOf(writes[i].r),
        writes[i].r.hash,
        1,
        at,
      ],
    );
    await tx.insert(
      "AnswerContext",
      [
        { name: "answerId", type: "text" },
        { name: "position", type: "int" },
        { name: "chunkId", type: "int" },
      ],
      contexts.length,
      (i) => contexts[i],
    );
    await tx.insert(
      "AnswerClaim",
      [
        { name: "answerId", type: "text" },
        { name: "version", type: "int" },
        { name: "position", type: "int" },
        { name: "text", type: "text" },
        { name: "startChar", type: "int" },
        { name: "endChar", type: "int" },
        { name: "source", type: "text" },
        { name: "createdAt", type: "timestamp" },
      ],
      claimRows.length,
      (i) => {
        const { w, c, position } = claimRows[i];
        return [w.id, w.version, position, c.text, c.startChar, c.endChar, "sentence", at];
      },
    );
    await tx.insert(
      "AnswerEvent",
      [
        { name: "projectId", type: "int" },
        { name: "answerId", type: "text" },
        { name: "kind", type: "text" },
        { name: "before", type: "text" },
        { name: "after", type: "text" },
        { name: "createdAt", type: "timestamp" },
      ],
      writes.length,
      (i) => {
        const w = writes[i];
        const after = {
          file: name,
          system,
          qid: w.r.qid,
          text: w.r.text,
          context: w.r.context.map((c) => c.externalId),
          citations: w.r.citations,
          claimVersion: w.version,
          claims: w.claims.map((c) => c.text),
        };
        return [projectId, w.id, "import", w.before, JSON.stringify(after), at];
      },
    );
    await insertImportRecord(tx, { projectId, kind: "answers", fileName: name, sha256, rows: writes.length });
  });
  const claims = claimRows.length;
  opts.onProgress?.(rows.length, rows.length);
  return {
    kind: "answers",
    file: name,
    sha256,
    rows: rows.length,
    created: create.length,
    updated: replace.length,
    unchanged,
    system,
    chunking: chunking?.name ?? null,
    claims,
    labelsRemoved,
    judgeLabelsRemoved,
    ...(warnings.length ? { warnings: warnings.sort((a, b) => a.line - b.line) } : {}),
  };
}
