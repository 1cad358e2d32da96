import { writeFileSync } from "node:fs";
import type { Command } from "commander";
import type { Db } from "../../lib/db/client.ts";
import type { TLabelSet } from "../../lib/judge/label-sets.ts";
import { decimalOption, fail, out, projectOption, withProject } from "../context.ts";
import { attachReport } from "./judge-report.ts";

/** Lines to a file (saying how many on stderr) or to stdout. */
function writeLines(lines: string[], file: string | undefined): void {
  const text = lines.length ? `${lines.join("\n")}\n` : "";
  if (file) {
    writeFileSync(file, text);
    process.stderr.write(`wrote ${lines.length} line(s) to ${file}\n`);
  } else process.stdout.write(text);
}

/**
 * A judge without a run (imported, or transferred: lib/judge/label-sets.ts): qrels, or JSONL in the
 * format `import judge` reads (query, chunk, grade, rationale), so the file imports again as it is.
 */
async function exportLabelSet(
  db: Db,
  projectId: number,
  set: TLabelSet,
  o: { format: string; out?: string; chunking?: string },
): Promise<void> {
  const [{ labelSetRows }, { findChunking }] = await Promise.all([
    import("../../lib/judge/label-sets.ts"),
    import("../../lib/chunkings/store.ts"),
  ]);
  const chunking = o.chunking === undefined ? undefined : await findChunking(db, projectId, o.chunking);
  // Labels of several chunkings in one file can name one docid twice for a query (qrels readers refuse that).
  if (!chunking && set.chunkings.length > 1)
    process.stderr.write(
      `note: judge "${set.judge}" has labels in ${set.chunkings.length} chunkings (${set.chunkings.join(", ")}); this export holds all of them. Compare with one chunking's labels: --chunking NAME\n`,
    );
  const rows = await labelSetRows(db, projectId, set.judge, chunking?.id);
  writeLines(
    o.format === "qrels"
      ? rows.map((l) => `${l.qid} 0 ${l.docid} ${l.grade}`)
      : rows.map((l) =>
          JSON.stringify({
            query: l.qid,
            chunk: l.docid,
            grade: l.grade,
            rationale: l.rationale,
            // An imported judge's probabilities go back out as they came in (import judge reads them).
            ...(l.pGe1 !== null ? { p_ge1: l.pGe1 } : {}),
            ...(l.pGe2 !== null ? { p_ge2: l.pGe2 } : {}),
          }),
        ),
    o.out,
  );
}

/** `assessor judge combine` and `judge export`: a jury from several judges, and a judge's labels to a file. */
export function registerJudgeLabels(judge: Command): void {
  judge
    .command("combine <judges...>")
    .description(
      "make a jury: one judge from several judges' labels (runs by id or name, imported or transferred judges) on the pairs they all labelled: median (rounded down), majority (ties to the lower grade), mean (rounded), or weighted (least squares on the human reference labels, cross-fitted over questions so no pair's own label weighs its grade)",
    )
    .requiredOption("--judge <name>", "the jury's name (a judge name like any other)")
    .requiredOption("--method <method>", "median, majority, mean or weighted")
    .option("--folds <n>", "weighted: the cross-fitting folds (default 5)")
    .option("--seed <n>", "weighted: the seed of the questions' split into folds (default 1)")
    .option("--replace", "make an existing jury of this name again")
    .addOption(projectOption())
    .action(
      async (
        refs: string[],
        o: { judge: string; method: string; folds?: string; seed?: string; replace?: boolean; project?: string },
      ) => {
        const folds = decimalOption("--folds", o.folds);
        const seed = decimalOption("--seed", o.seed);
        const { combineJudges } = await import("../../lib/judge/combine.ts");
        const r = await withProject(o.project, (db, p) =>
          combineJudges(db, p.id, { judge: o.judge, method: o.method, members: refs, folds, seed, replace: o.replace }),
        );
        out(
          `jury ${r.judge} (${r.method} of ${r.members.join(", ")}): ${r.pairs} pairs labelled (grades 0/1/2/3: ${[0, 1, 2, 3].map((g) => r.byGrade[g]).join("/")}); ${r.notShared} pairs not labelled by every member left out`,
        );
        if (r.method === "weighted")
          out(
            `learned on ${r.humanLabels} human reference labels, cross-fitted over questions${r.fallbacks ? `; ${r.fallbacks} pairs in folds with too few human labels took the mean rule` : ""}`,
          );
      },
    );

  judge
    .command("export <judge>")
    .description(
      "a judge's labels (a run by id or name, or a judge without a run: imported or transferred): TREC qrels (one line per labelled pair: for a run the median of its samples) or JSONL (a run's: every sample with its raw answer, the only format for answer runs; a judge without a run: the import's format, query, chunk, grade, rationale)",
    )
    .option("--format <format>", "qrels or jsonl", "qrels")
    .option("--out <file>", "write to a file instead of stdout")
    .option("--chunking <name>", "a judge without a run: only its labels of this chunking's chunks (default: all)")
    .addOption(projectOption())
    .action(async (ref: string, o: { format: string; out?: string; chunking?: string; project?: string }) => {
      if (o.format !== "qrels" && o.format !== "jsonl") fail(`--format: expected qrels or jsonl, got "${o.format}"`);
      const [{ runLabels }, { findJudge }] = await Promise.all([
        import("../../lib/judge/store.ts"),
        import("../../lib/judge/label-sets.ts"),
      ]);
      await withProject(o.project, async (db, project) => {
        const found = await findJudge(db, project.id, ref);
        if (found.labelSet) {
          await exportLabelSet(db, project.id, found.labelSet, o);
          return attachReport(db, project.id, found.labelSet.judge, o);
        }
        const run = found.run;
        if (run.target === "answers") {
          if (o.format === "qrels")
            fail(`run ${run.id} (${run.judge}) judged answers, which have no qrels: use --format jsonl`);
          const { answerRunLabels } = await import("../../lib/judge/answers-kind.ts");
          return writeLines(
            (await answerRunLabels(db, run)).map((l) =>
              JSON.stringify({ ...l, judge: run.judge, model: run.model, template_sha256: run.templateSha256 }),
            ),
            o.out,
          );
        }
        const labels = await runLabels(db, run.id);
        const lines =
          o.format === "qrels"
            ? labels.filter((l) => l.grade !== null).map((l) => `${l.qid} 0 ${l.docid} ${l.grade}`)
            : labels.map((l) =>
                JSON.stringify({
                  query: l.qid,
                  chunk: l.docid,
                  grade: l.grade,
                  injection: l.injection,
                  judge: run.judge,
                  model: run.model,
                  template_sha256: run.templateSha256,
                  samples: l.samples,
                }),
              );
        writeLines(lines, o.out);
        await attachReport(db, project.id, run.judge, o);
      });
    });
}
