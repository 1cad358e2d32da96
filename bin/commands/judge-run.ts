import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { fail, projectOption, withProject } from "../context.ts";
import { finishWork, int, num, work } from "./judge-work.ts";

type RunOpts = {
  judge: string;
  model: string;
  baseUrl: string;
  apiKeyEnv: string;
  /** false with --no-api-key. */
  apiKey: boolean;
  prompt?: string;
  samples: number;
  temperature: number;
  concurrency: number;
  target: string;
  only?: string;
  subset?: string;
  limit?: number;
  maxCost?: number;
  priceIn?: number;
  priceOut?: number;
  maxTokens: number;
  timeout: number;
  retries: number;
  parseRetries: number;
  maxFailures: number;
  structured: boolean;
  project?: string;
};

/** `assessor judge run` and `judge resume`: start a run, or continue one, with this process as its worker. */
export function registerJudgeRun(judge: Command): void {
  judge
    .command("run")
    .description(
      "start a run: judge every pooled (question, chunk) pair, or a subset; with --target answers, every generated answer's claims and relevance; resumable, cached, exactly once per pair (answer) and sample",
    )
    .requiredOption("--judge <name>", "the judge's name on the dashboard (new, no spaces)")
    .requiredOption("--model <model>", "the model as the endpoint names it")
    .requiredOption(
      "--base-url <url>",
      "the endpoint's OpenAI-compatible base URL, e.g. https://api.openai.com/v1, http://localhost:11434/v1 (Ollama), http://localhost:8000/v1 (vLLM)",
    )
    .option(
      "--api-key-env <var>",
      "environment variable holding the API key (never stored); its name must end in _API_KEY, start with OPENAI_, or be listed in ASSESSOR_JUDGE_KEY_VARS",
      "OPENAI_API_KEY",
    )
    .option("--no-api-key", "send no key at all (a local server without keys: Ollama, vLLM, llama.cpp)")
    .option(
      "--target <target>",
      "chunks (question–chunk pairs, 0–3) or answers (generated answers: each claim s/p/n/x and the answer's relevance 0–3)",
      "chunks",
    )
    .option(
      "--prompt <file>",
      "prompt template (chunks: {{question}} {{chunk}} {{before}} {{after}} {{video_title}} {{start}} {{end}}; answers: {{question}} {{context}} {{claims}} {{answer}} {{n_claims}}); default: a UMBRELA-style 0–3 prompt, or for answers a claim-support prompt (`judge template [--target answers]` prints it)",
    )
    .option(
      "--samples <n>",
      "samples per pair (self-consistency; needs --temperature > 0); the label is their median, rounded down",
      int(1),
      1,
    )
    .option("--temperature <t>", "sampling temperature", num(0), 0)
    .option("--concurrency <n>", "requests in flight at once", int(1), 8)
    .option(
      "--only <subset>",
      "chunks: pool (default) | unlabelled (no final human label) | calibration (sampled for calibration) | a query tag; answers: all (default) | system:NAME | labelled (with a human label) | sample:N[:SEED]",
    )
    .option("--subset <subset>", "the same as --only")
    .option("--limit <n>", "judge only the first N pairs of the subset", int(1))
    .option("--max-cost <usd>", "stop when the run has cost this much (needs --price-in and --price-out)", num(0))
    .option("--price-in <usd>", "price per million prompt tokens", num(0))
    .option("--price-out <usd>", "price per million completion tokens", num(0))
    .option("--max-tokens <n>", "completion tokens per answer", int(1), 512)
    .option("--timeout <seconds>", "per-request timeout", num(0.1), 60)
    .option(
      "--retries <n>",
      "retries of a failed request (429 and 5xx honour Retry-After; otherwise exponential backoff with jitter)",
      int(0),
      4,
    )
    .option("--parse-retries <n>", "new requests for an answer without a readable grade", int(0), 2)
    .option("--max-failures <n>", "stop after this many consecutive failed pairs", int(1), 10)
    .option(
      "--no-structured",
      "do not ask for JSON-schema output (it is asked for by default and dropped automatically when the endpoint refuses it)",
    )
    .addOption(projectOption())
    .action(async (o: RunOpts) => {
      if (o.target !== "chunks" && o.target !== "answers")
        fail(`--target: expected chunks or answers, got "${o.target}"`);
      if (o.only !== undefined && o.subset !== undefined && o.only !== o.subset)
        fail(`--only and --subset name the same thing: give one (got "${o.only}" and "${o.subset}")`);
      let template: string | undefined;
      if (o.prompt !== undefined) {
        try {
          template = readFileSync(o.prompt, "utf8");
        } catch (e) {
          fail(`--prompt: cannot read ${o.prompt}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
        }
      }
      const { startRun } = await import("../../lib/judge/service.ts");
      await withProject(o.project, async (db, project) => {
        const { run, apiKey } = await startRun(db, project.id, {
          judge: o.judge,
          model: o.model,
          baseUrl: o.baseUrl,
          apiKeyEnv: o.apiKey ? o.apiKeyEnv : "",
          template,
          templateFile: o.prompt ?? "template",
          samples: o.samples,
          temperature: o.temperature,
          concurrency: o.concurrency,
          target: o.target === "answers" ? "answers" : "chunks",
          only: o.only ?? o.subset,
          limit: o.limit,
          maxCost: o.maxCost,
          priceIn: o.priceIn,
          priceOut: o.priceOut,
          maxTokens: o.maxTokens,
          timeoutMs: Math.round(o.timeout * 1000),
          maxRetries: o.retries,
          parseRetries: o.parseRetries,
          maxConsecutiveFailures: o.maxFailures,
          structured: o.structured,
        });
        process.stderr.write(
          `run ${run.id} (${run.judge}${run.target === "answers" ? ", answers" : ""}): template sha256 ${run.templateSha256.slice(0, 12)}, model ${run.model} at ${run.baseUrl}\n`,
        );
        await finishWork(db, run.id, await work(db, run.id, apiKey));
      });
    });

  judge
    .command("resume <run>")
    .description(
      "continue a stopped or crashed run (by id or judge name): nothing already judged is sent again; on PostgreSQL several workers may resume one run at once",
    )
    .option("--concurrency <n>", "requests in flight at once (default: the run's)", int(1))
    .option("--retry-failed", "send the failed pairs again too")
    .addOption(projectOption())
    .action(async (ref: string, o: { concurrency?: number; retryFailed?: boolean; project?: string }) => {
      const [{ findRun, requeueFailed, taskTable }, { apiKeyFrom }] = await Promise.all([
        import("../../lib/judge/store.ts"),
        import("../../lib/judge/keys.ts"),
      ]);
      await withProject(o.project, async (db, project) => {
        const run = await findRun(db, project.id, ref);
        const apiKey = apiKeyFrom(process.env, run.apiKeyEnv);
        if (run.status === "cancelled")
          fail(`run ${run.id} (${run.judge}) was cancelled; start a new run to judge again`);
        if (o.retryFailed)
          process.stderr.write(
            `${await requeueFailed(db, run.id, taskTable(run.target))} failed task(s) queued again\n`,
          );
        await finishWork(db, run.id, await work(db, run.id, apiKey, o.concurrency));
      });
    });
}
