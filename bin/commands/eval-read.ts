/**
 * The files of `assessor eval` (eval.ts), read as trec_eval reads them: qrels, any input file with
 * a located error when it cannot be read, and run files ranked query by query as they stream.
 */
import { readFileSync } from "node:fs";
import { ValidationError, type LocatedError } from "../../lib/errors.ts";
import { parseQrels, scanRunFile } from "../../lib/formats/trec.ts";
import {
  judgementsFrom,
  rankQueryChecked,
  type Judgements,
  type RankOptions,
  type RunQuery,
} from "../../lib/stats/evaluate.ts";
import type { RankedQuery } from "../../lib/stats/measures/types.ts";

const MAX_ERRORS = 1000;

/** Run lines as trec_eval reads them: the rank column is never read (any text), columns after the sixth are ignored. */
const RUN_READ = { rank: "ignored" } as const;

export function readQrelsFile(path: string, clip: boolean): { judgements: Judgements; clipped: number } {
  const bytes = readInput(path);
  // trec_eval's relevance values (any integer, negative = in the pool but unjudged), unless --clip
  // asks for the 0–3 scale.
  const parsed = parseQrels(bytes, path, { clip, scale: "trec" });
  if (parsed.errors.length) throw new ValidationError(parsed.errors);
  return { judgements: judgementsFrom(parsed.rows), clipped: parsed.clipped };
}

export function readInput(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    throw new ValidationError([
      {
        file: path,
        line: 0,
        message: `cannot read the file (${e instanceof Error && "code" in e ? String((e as { code: unknown }).code) : String(e)})`,
      },
    ]);
  }
}

/**
 * Reads a run file and ranks each query as soon as its block of lines ends, so only one query's
 * lines are in memory at a time (runs list a query's lines together). Queries the qrels do not
 * judge are skipped (trec_eval ignores them) and their ids collected. A query whose lines are
 * split across the file is read again in a second pass; a docid twice in one query is detected per
 * query and only then is the file read again to name the lines.
 */
export async function rankRunFile(
  path: string,
  judgements: Judgements,
  rankOpts: RankOptions,
): Promise<{ ranked: Map<string, RankedQuery>; ignored: Set<string>; runid: string }> {
  let runid = "";
  const ranked = new Map<string, RankedQuery>();
  const ignored = new Set<string>();
  const split = new Set<string>();
  const duplicated = new Set<string>();
  const errors: LocatedError[] = [];
  let blockQid: string | null = null;
  let keep = false; // the current block belongs to a judged query read in this pass
  const block: RunQuery = { docids: [], scores: [] };
  const finish = (qid: string, q: RunQuery) => {
    const judged = judgements.get(qid);
    if (!judged) return;
    const r = rankQueryChecked(qid, q, judged, rankOpts);
    if (r) ranked.set(qid, r);
    else duplicated.add(qid);
  };
  const onError = (e: LocatedError) => {
    if (errors.length < MAX_ERRORS) errors.push(e);
  };
  try {
    await scanRunFile(
      path,
      (qid, docid, _rank, score, tag) => {
        runid = tag; // trec_eval prints the tag of the last line as runid
        if (qid !== blockQid) {
          if (blockQid !== null && keep) finish(blockQid, block);
          block.docids.length = 0;
          block.scores.length = 0;
          blockQid = qid;
          keep = judgements.has(qid);
          if (!keep) ignored.add(qid);
          else if (split.has(qid)) keep = false;
          else if (ranked.has(qid) || duplicated.has(qid)) {
            split.add(qid); // seen before: its lines are not together; read it whole in pass two
            ranked.delete(qid);
            duplicated.delete(qid);
            keep = false;
          }
        }
        if (keep) {
          block.docids.push(docid);
          block.scores.push(score);
        }
      },
      onError,
      RUN_READ,
    );
    if (blockQid !== null && keep) finish(blockQid, block);
    if (errors.length) throw new ValidationError(errors);
    if (split.size) {
      const whole = new Map<string, RunQuery>([...split].map((qid) => [qid, { docids: [], scores: [] }]));
      await scanRunFile(
        path,
        (qid, docid, _rank, score) => {
          const q = whole.get(qid);
          if (q) {
            q.docids.push(docid);
            q.scores.push(score);
          }
        },
        onError,
        RUN_READ,
      );
      for (const [qid, q] of whole) finish(qid, q);
    }
  } catch (e) {
    if (e instanceof ValidationError) throw e;
    throw new ValidationError([
      {
        file: path,
        line: 0,
        message: `cannot read the file (${e instanceof Error && "code" in e ? String((e as { code: unknown }).code) : String(e)})`,
      },
    ]);
  }
  if (duplicated.size) throw new ValidationError(await locateDuplicates(path, duplicated));
  return { ranked, ignored, runid };
}

async function locateDuplicates(path: string, qids: Set<string>): Promise<LocatedError[]> {
  const firstLine = new Map<string, Map<string, number>>();
  const errors: LocatedError[] = [];
  await scanRunFile(
    path,
    (qid, docid, _rank, _score, _tag, line) => {
      if (!qids.has(qid) || errors.length >= MAX_ERRORS) return;
      let seen = firstLine.get(qid);
      if (!seen) firstLine.set(qid, (seen = new Map()));
      const first = seen.get(docid);
      if (first === undefined) seen.set(docid, line);
      else
        errors.push({
          file: path,
          line,
          field: "docid",
          message: `docid "${docid}" appears twice for query "${qid}" (first on line ${first})`,
        });
    },
    () => undefined,
    RUN_READ,
  );
  return errors;
}
