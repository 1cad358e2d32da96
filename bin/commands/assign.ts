import type { Command } from "commander";
import { fail, out, projectOption, withProject } from "../context.ts";

const wholeNumber = (flag: string, v: string | undefined, min: number): number | undefined => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) fail(`${flag}: expected a whole number ≥ ${min}, got "${v}"`);
  return n;
};

export function registerAssign(program: Command): void {
  program
    .command("assign")
    .description(
      "assign pool items to annotators: balanced load, never the same person twice on an item; tops up items to --per-item",
    )
    .option("--per-item <n>", "annotators per item (default: the project's setting)")
    .option("--annotators <emails>", "comma-separated annotator emails (default: every active annotator)")
    .option(
      "--sample <n>",
      "assign only a calibration sample of N unassigned items: first for the grades (overall and per query tag) short of the project's minimum per grade, by judge grade, then spread over judge grades and queries",
    )
    .option(
      "--sample-queries <n>",
      "whole-question calibration sample: N questions stratified by tag (proportional allocation), every pooled item of each assigned, so they become completely human-labelled (what the dashboard's judge + human (PPI) estimates need)",
    )
    .option(
      "--tags <tags>",
      "with --sample or --sample-queries: draw only from queries with one of these comma-separated tags",
    )
    .option(
      "--unstable-first <run>",
      "with --sample: first the pairs whose samples disagree in this judge run (name or id; a run with --samples N), or whose members disagree in this jury (judge combine), then the usual scheme",
    )
    .option(
      "--chunking <name>",
      "with --sample N: the audit sample of label transfer onto this chunking: N transfer-labelled pairs, stratified by derived grade (proportional, at least one per grade), pool items created when missing",
    )
    .option(
      "--include-labelled",
      "also assign pooled items that already have an imported reference label, to re-grade them (a calibration of the old labels); by default they are left out",
    )
    .option(
      "--regrade-older-guidelines",
      "send items graded under an older guidelines revision back to their annotators for a second look (all, or --sample N of them; --seed S; with --answers, answer labels); the history keeps both grades",
    )
    .option("--seed <n>", "random seed, to reproduce an assignment")
    .option(
      "--checks <share>",
      "hidden check items: mark this share (e.g. 0.05) of the items whose reference is settled (agreed or adjudicated) and serve each again to one annotator who has not seen it; their grades never change the reference (accuracy: annotators report)",
    )
    .option(
      "--decision <name>",
      "the next batch of a decision (npx assessor decide create): --budget N questions drawn where the judge is least sure and the compared systems rank differently, each with its inclusion probability; the pairs to label of each (for generators, the compared answers) to --per-item annotators",
    )
    .option("--budget <n>", "with --decision: questions to draw in this batch")
    .option(
      "--answers",
      "assign generated answers (the answer task) instead of pool items: every answer to --per-item annotators, balanced, topped up",
    )
    .option("--system <name>", "with --answers: only this system's answers")
    .option("--dry-run", "with --answers: show what would be assigned, write nothing")
    .addOption(projectOption())
    .action(
      async (opts: {
        perItem?: string;
        annotators?: string;
        sample?: string;
        sampleQueries?: string;
        tags?: string;
        unstableFirst?: string;
        chunking?: string;
        includeLabelled?: boolean;
        seed?: string;
        project?: string;
        answers?: boolean;
        system?: string;
        dryRun?: boolean;
        decision?: string;
        budget?: string;
        regradeOlderGuidelines?: boolean;
        checks?: string;
      }) => {
        const perItem = wholeNumber("--per-item", opts.perItem, 1);
        const sample = wholeNumber("--sample", opts.sample, 1);
        const sampleQueries = wholeNumber("--sample-queries", opts.sampleQueries, 1);
        const seed = wholeNumber("--seed", opts.seed, 0);
        if (opts.regradeOlderGuidelines) {
          const others = [
            opts.perItem,
            opts.annotators,
            opts.sampleQueries,
            opts.tags,
            opts.unstableFirst,
            opts.chunking,
          ];
          if (
            others.some((o) => o !== undefined) ||
            opts.includeLabelled ||
            opts.system ||
            opts.decision ||
            opts.dryRun
          )
            fail(
              "--regrade-older-guidelines sends grades back to their own annotators: only --answers, --sample N and --seed S apply",
            );
          const { requestRegrade, requestAnswerRegrade } = await import("../../lib/assignment/regrade.ts");
          await withProject(opts.project, async (db, project) => {
            const r = await (opts.answers ? requestAnswerRegrade : requestRegrade)(db, project.id, { sample, seed });
            const [labels, items, done] = opts.answers
              ? ["answer label(s)", "answer(s)", "labelled"]
              : ["grade(s)", "item(s)", "graded"];
            out(
              `${r.requested} ${labels} on ${r.chosen} of ${r.items} ${items} ${done} under guidelines older than revision ${r.revision} sent back for a second look${sample !== undefined ? `, seed ${r.seed}` : ""}`,
            );
            for (const a of r.annotators) out(`  ${a.email}\t${a.requested}`);
          });
          return;
        }
        if (opts.checks !== undefined) {
          await assignCheckItems(opts, seed);
          return;
        }
        if (opts.decision !== undefined || opts.budget !== undefined) {
          if (opts.decision === undefined || opts.budget === undefined)
            fail("--decision and --budget go together: npx assessor assign --decision NAME --budget N");
          if (
            opts.answers ||
            sample !== undefined ||
            sampleQueries !== undefined ||
            opts.tags ||
            opts.unstableFirst ||
            opts.chunking ||
            opts.includeLabelled ||
            opts.dryRun
          )
            fail(
              "--decision draws its own questions: without --answers, --sample, --sample-queries, --tags, --unstable-first, --chunking, --include-labelled and --dry-run",
            );
          const budget = wholeNumber("--budget", opts.budget, 1) ?? 1;
          const { findDecision, decisionReport } = await import("../../lib/decisions/store.ts");
          const { drawBatch } = await import("../../lib/decisions/draw.ts");
          const { describeDecision } = await import("./decide.ts");
          await withProject(opts.project, async (db, project) => {
            const annotators = opts.annotators
              ?.split(",")
              .map((s) => s.trim())
              .filter(Boolean);
            const r = await drawBatch(db, project.id, opts.decision ?? "", {
              budget,
              perItem: perItem ?? project.annotatorsPerItem,
              annotators,
              seed,
            });
            out(
              `batch ${r.look} of decision ${opts.decision}: ${r.drawn.length} question(s) drawn, ${r.newQuestions.length} new; ${r.assignment ? `${r.assignment.created} new assignment(s) on ${r.assignment.itemsToppedUp} item(s), ${r.assignment.perItem} per item` : "nothing new to assign"}`,
            );
            if (r.assignment)
              for (const a of r.assignment.annotators) out(`  ${a.email}\t+${a.added}\t${a.total} in total`);
            for (const line of describeDecision(
              await decisionReport(db, project.id, await findDecision(db, project.id, opts.decision ?? "")),
            ))
              out(line);
          });
          return;
        }
        if (opts.answers) {
          if (
            sample !== undefined ||
            sampleQueries !== undefined ||
            opts.tags ||
            opts.unstableFirst ||
            opts.chunking ||
            opts.includeLabelled
          )
            fail(
              "--answers assigns every answer: --sample, --sample-queries, --tags, --unstable-first, --chunking and --include-labelled apply to pool items",
            );
          const { assignAnswers } = await import("../../lib/answers/assign.ts");
          await withProject(opts.project, async (db, project) => {
            const annotators = opts.annotators
              ?.split(",")
              .map((s) => s.trim())
              .filter(Boolean);
            const r = await assignAnswers(db, project.id, {
              perItem,
              annotators,
              system: opts.system,
              seed,
              dryRun: opts.dryRun,
            });
            out(
              `${r.dryRun ? "dry run: would make " : ""}${r.created} new answer assignment(s) on ${r.answersToppedUp} of ${r.answers} answer(s), ${r.perItem} per answer, seed ${r.seed}`,
            );
            for (const a of r.annotators) out(`  ${a.email}\t+${a.added}\t${a.total} in total`);
            if (r.shortfall)
              out(
                `warning: ${r.shortfall} answer(s) have fewer than ${r.perItem} annotators: not enough eligible annotators`,
              );
          });
          return;
        }
        if (opts.system || opts.dryRun) fail("--system and --dry-run apply with --answers");
        const { assign } = await import("../../lib/assignment/assign.ts");
        await withProject(opts.project, async (db, project) => {
          const annotators = opts.annotators
            ?.split(",")
            .map((s) => s.trim())
            .filter(Boolean);
          const tags = opts.tags
            ?.split(",")
            .map((s) => s.trim())
            .filter(Boolean);
          const r = await assign(db, project.id, {
            perItem: perItem ?? project.annotatorsPerItem,
            annotators,
            sample,
            sampleQueries,
            tags,
            seed,
            unstableFrom: opts.unstableFirst,
            chunking: opts.chunking,
            includeLabelled: opts.includeLabelled ?? false,
          });
          const what = r.audit
            ? ` (audit sample of ${r.audit.judges.join(", ")}: ${[0, 1, 2, 3].map((g) => `${r.audit?.byGrade[g] ?? 0} of derived grade ${g}`).join(", ")}; ${r.audit.newItems} new pool item(s))`
            : sampleQueries
              ? ` of ${r.questions} question(s) (whole-question calibration sample)`
              : sample
                ? ` (calibration sample${opts.unstableFirst ? `; ${r.unstable} unstable pair(s) of ${opts.unstableFirst} first` : ""})`
                : "";
          out(
            `${r.created} new assignment(s) on ${r.itemsToppedUp} of ${r.items} item(s)${what}, ${r.perItem} per item, seed ${r.seed}`,
          );
          for (const a of r.annotators) out(`  ${a.email}\t+${a.added}\t${a.total} in total`);
          if (r.labelledSkipped)
            out(
              `${r.labelledSkipped} pooled item(s) with an imported label left out (--include-labelled to re-grade them)`,
            );
          if (r.shortfall)
            out(
              `warning: ${r.shortfall} item(s) have fewer than ${r.perItem} annotators: not enough eligible annotators`,
            );
        });
      },
    );
}

/** `assign --checks SHARE`: hidden check items (lib/assignment/checks.ts). */
async function assignCheckItems(
  opts: { checks?: string; annotators?: string; project?: string; dryRun?: boolean } & Record<string, unknown>,
  seed: number | undefined,
): Promise<void> {
  const others = [
    "perItem",
    "sample",
    "sampleQueries",
    "tags",
    "unstableFirst",
    "chunking",
    "includeLabelled",
    "answers",
    "system",
    "decision",
    "budget",
  ];
  const given = others.filter((k) => opts[k] !== undefined);
  if (given.length)
    fail(
      `--checks assigns check items on its own: with --annotators, --seed and --dry-run only (not ${given.join(", ")})`,
    );
  const share = Number(opts.checks);
  if (opts.checks === undefined || opts.checks.trim() === "" || !Number.isFinite(share) || share <= 0 || share > 1)
    fail(`--checks: expected a share in (0, 1], e.g. 0.05, got "${opts.checks}"`);
  const { assignChecks } = await import("../../lib/assignment/checks.ts");
  await withProject(opts.project, async (db, project) => {
    const annotators = opts.annotators
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const r = await assignChecks(db, project.id, { share, annotators, seed, dryRun: opts.dryRun });
    out(
      `${r.dryRun ? "dry run: would make " : ""}${r.created} new check item(s): ${r.existing + r.created} of ${r.settled} settled item(s) (target ${r.target}, share ${r.share}), seed ${r.seed}`,
    );
    for (const a of r.annotators) out(`  ${a.email}\t+${a.added}\t${a.total} in total`);
    if (r.shortfall) out(`warning: ${r.shortfall} check item(s) short: no annotator left who has not seen the item`);
  });
}
