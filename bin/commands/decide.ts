import type { Command } from "commander";
import { decimalOption, fail, out, projectOption, withProject } from "../context.ts";
import type { TDecisionReport } from "../../lib/decisions/store.ts";
import { labelsNote } from "../../lib/decisions/labels-note.ts";

const signed = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(3)}`;

/** The lines `decide show` and `decide list` print for one decision. */
export function describeDecision(r: TDecisionReport): string[] {
  const { decision: d, state: s } = r;
  const lines = [
    `decision ${d.name}: ${d.systems.join(" vs ")} on ${d.measure}${d.margin ? ` (margin ±${d.margin})` : ""}, ${Math.round(d.level * 100)}% confidence`,
  ];
  const status =
    s.status === "settled"
      ? `settled: ${s.outcome === "equivalent" ? `equivalent within ±${d.margin}` : `${s.outcome} is better`}`
      : s.status === "labelling"
        ? `waiting for labels: ${s.pending} drawn question(s) not yet completely labelled`
        : s.status === "no_basis"
          ? "no basis yet: draw a first batch of questions for people to label"
          : "open";
  lines.push(`  status: ${status}`);
  lines.push(
    `  questions: ${s.questions} (${s.certain} completely labelled when created, ${s.drawn} drawn in ${d.batches.length} batch(es)); look ${s.look}: each interval at ${(s.level * 100).toFixed(2)}% (error spent over the looks by ${s.spending}${s.looks.length ? `, ${(s.looks[s.looks.length - 1].spent * 100).toFixed(3)}% of it by ${Math.round(s.looks[s.looks.length - 1].t * 100)}% of the questions` : ""})${r.missingQuestions ? `; ${r.missingQuestions} question(s) no longer accepted or pooled, left out` : ""}`,
  );
  for (const p of s.pairs) {
    const e = p.estimate;
    const what =
      s.status === "labelling"
        ? "; provisional until the drawn questions are labelled"
        : p.verdict === "open"
          ? p.toSettle === null
            ? s.status === "no_basis"
              ? ""
              : "; labels alone cannot settle it: more questions are needed"
            : `; about ${p.toSettle} more question(s) to settle${labelsNote(p.toSettle, r.labelsPerQuestion)}`
          : `; ${p.verdict}`;
    lines.push(
      `  ${p.a} − ${p.b}: ${e ? `${signed(e.estimate)} [${signed(e.low)}, ${signed(e.high)}]` : "no estimate"}${what}`,
    );
  }
  if (s.status !== "settled") {
    const next =
      s.status === "labelling"
        ? "let annotators finish the drawn questions, then look again"
        : `npx assessor assign --decision ${d.name} --budget ${Math.max(1, s.toSettle ?? 10)}`;
    lines.push(`  next: ${next}`);
  }
  return lines;
}

export function registerDecide(program: Command): void {
  const decide = program
    .command("decide")
    .description(
      "decisions settled with few human labels: which system is better on a measure (or whether they are equivalent), Assessor picks the questions people label next (assign --decision) and says when to stop",
    );

  decide
    .command("create <name>")
    .description(
      "name a decision: compare systems on one measure: runs on a retrieval measure, or generators (answer systems) on faithfulness or answer relevance",
    )
    .requiredOption("--compare <systems>", "comma-separated run names (or answer systems), at least two")
    .requiredOption(
      "--measure <m>",
      "runs: ndcg@10, ndcg@5, recall@10, recall@5, mrr, or a column id such as recall_10@2; generators: faithfulness, faithfulness_strict (partial support counts 0) or relevance",
    )
    .option(
      "--margin <d>",
      "equivalence margin: settled as equivalent when the interval of the difference lies inside ±d",
      "0",
    )
    .option("--confidence <level>", "confidence of the decision over all looks (0.5–0.999)", "0.95")
    .option("--gain <g>", "nDCG gain: linear or exponential", "linear")
    .option(
      "--judge <name>",
      "the judge whose labels predict the measure (default: the dashboard's default judge; for generators, the first answer judge)",
    )
    .option(
      "--spending <family>",
      "how the error is spent over the looks: hsd(γ) (Hwang–Shih–DeCani; hsd(-4) the default), obf (O'Brien–Fleming type) or pocock",
    )
    .addOption(projectOption())
    .action(
      async (
        name: string,
        opts: {
          compare: string;
          measure: string;
          margin: string;
          confidence: string;
          gain: string;
          judge?: string;
          spending?: string;
          project?: string;
        },
      ) => {
        const { createDecision, decisionReport } = await import("../../lib/decisions/store.ts");
        await withProject(opts.project, async (db, project) => {
          const systems = opts.compare
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean);
          if (opts.gain !== "linear" && opts.gain !== "exponential")
            fail(`--gain: expected linear or exponential, got "${opts.gain}"`);
          const d = await createDecision(db, project.id, {
            name,
            systems,
            measure: opts.measure,
            margin: decimalOption("--margin", opts.margin),
            level: decimalOption("--confidence", opts.confidence),
            gain: opts.gain,
            judge: opts.judge,
            spending: opts.spending,
          });
          for (const line of describeDecision(await decisionReport(db, project.id, d))) out(line);
        });
      },
    );

  decide
    .command("list")
    .description("every decision of the project with its status")
    .addOption(projectOption())
    .action(async (opts: { project?: string }) => {
      const { decisionReports } = await import("../../lib/decisions/store.ts");
      await withProject(opts.project, async (db, project) => {
        const reports = await decisionReports(db, project.id);
        if (reports.length === 0)
          out("no decision yet: npx assessor decide create NAME --compare A,B --measure ndcg@10");
        for (const r of reports) for (const line of describeDecision(r)) out(line);
      });
    });

  decide
    .command("show <name>")
    .description("a decision's estimate, interval, status and the questions still needed")
    .option("--format <f>", "text or json", "text")
    .addOption(projectOption())
    .action(async (name: string, opts: { format: string; project?: string }) => {
      if (opts.format !== "text" && opts.format !== "json")
        fail(`--format: expected text or json, got "${opts.format}"`);
      const { findDecision, decisionReport } = await import("../../lib/decisions/store.ts");
      await withProject(opts.project, async (db, project) => {
        const r = await decisionReport(db, project.id, await findDecision(db, project.id, name));
        if (opts.format === "json")
          out(
            JSON.stringify(
              {
                ...r,
                decision: {
                  ...r.decision,
                  population: undefined,
                  batches: r.decision.batches.map((b) => ({
                    look: b.look,
                    budget: b.budget,
                    tau: b.tau,
                    drawn: b.drawn,
                  })),
                },
              },
              null,
              2,
            ),
          );
        else for (const line of describeDecision(r)) out(line);
      });
    });

  decide
    .command("plan <name>")
    .description(
      "before labelling: the questions (and pair labels) expected to settle the decision for a range of true differences, active design beside uniform sampling (80% power, first look)",
    )
    .option("--differences <list>", "comma-separated true differences to plan for", "0.01,0.02,0.03,0.05,0.1")
    .addOption(projectOption())
    .action(async (name: string, opts: { differences: string; project?: string }) => {
      const differences = opts.differences.split(",").map((s) => decimalOption("--differences", s.trim()) ?? 0);
      if (differences.some((x) => !(x > 0))) fail("--differences: expected positive numbers, e.g. 0.02,0.05");
      const { findDecision } = await import("../../lib/decisions/store.ts");
      const { decisionPlan } = await import("../../lib/decisions/plan.ts");
      await withProject(opts.project, async (db, project) => {
        const plan = await decisionPlan(db, project.id, await findDecision(db, project.id, name), differences);
        out(
          `plan for decision ${name}: ${plan.questions} questions, ${plan.pairsPerQuestion.toFixed(1)} ${plan.items} per question to label, ${plan.perItem} annotators per ${plan.items === "answers" ? "answer" : "pair"}`,
        );
        out("true difference  active: questions (labels)  uniform: questions (labels)");
        const cell = (q: number | null, l: number | null) => (q === null ? "not reachable" : `${q} (${l})`);
        for (const r of plan.rows)
          out(
            `${String(r.difference).padEnd(15)}  ${cell(r.active, r.activeLabels).padEnd(26)}  ${cell(r.uniform, r.uniformLabels)}`,
          );
        out(
          "not reachable: the spread of these questions alone is wider than the difference; more questions are needed, not more labels.",
        );
      });
    });

  decide
    .command("delete <name>")
    .description("delete a decision and its batches (labels and assignments stay)")
    .addOption(projectOption())
    .action(async (name: string, opts: { project?: string }) => {
      const { deleteDecision } = await import("../../lib/decisions/store.ts");
      await withProject(opts.project, async (db, project) => {
        await deleteDecision(db, project.id, name);
        out(`deleted decision ${name}`);
      });
    });
}
