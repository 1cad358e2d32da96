import type { Command } from "commander";
import { fail, out } from "../context.ts";
import { registerJudgeLabels } from "./judge-labels.ts";
import { registerJudgeProbe } from "./judge-probe.ts";
import { registerJudgeReport } from "./judge-report.ts";
import { registerJudgeRun } from "./judge-run.ts";
import { registerJudgeRuns } from "./judge-runs.ts";

export { progressLine } from "./judge-work.ts";

/**
 * `assessor judge …`: run the LLM judge over the pool against any OpenAI-compatible endpoint
 * (lib/judge), list, show, resume, cancel and export runs. Progress goes to stderr (a bar on a
 * terminal, a line every few seconds otherwise); results and summaries to stdout. The subcommands
 * live beside this file: run and resume (judge-run.ts), list, show, reparse and cancel
 * (judge-runs.ts), combine and export (judge-labels.ts), report (judge-report.ts), probe
 * (judge-probe.ts); the worker and its progress in judge-work.ts.
 */
export function registerJudge(program: Command): void {
  const judge = program
    .command("judge")
    .description(
      "run an LLM judge over the pool against any OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, llama.cpp, LiteLLM); its labels become a judge on the dashboard",
    );

  registerJudgeRun(judge);
  registerJudgeRuns(judge);
  registerJudgeLabels(judge);

  registerJudgeReport(judge);

  judge
    .command("template")
    .description("print the default prompt template (a starting point for --prompt)")
    .option("--target <target>", "chunks or answers", "chunks")
    .action(async (o: { target: string }) => {
      if (o.target !== "chunks" && o.target !== "answers")
        fail(`--target: expected chunks or answers, got "${o.target}"`);
      if (o.target === "answers")
        return out((await import("../../lib/judge/answers-template.ts")).DEFAULT_ANSWER_TEMPLATE);
      const { DEFAULT_TEMPLATE } = await import("../../lib/judge/template.ts");
      out(DEFAULT_TEMPLATE);
    });

  registerJudgeProbe(judge);
}
