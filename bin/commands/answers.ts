import { InvalidArgumentError, type Command } from "commander";
import { AppError } from "../../lib/errors.ts";
import { out, projectOption, withProject } from "../context.ts";

/**
 * Generated answers: `assessor import answers` (registered into the import group) and
 * `assessor answers list|resplit`. The work is in lib/answers (shared with the lead's upload).
 */
const fmt = (n: number) => n.toLocaleString("en-US");
const num = (min: number) => (v: string) => {
  const n = Number(v);
  if (v.trim() === "" || !Number.isFinite(n) || n < min)
    throw new InvalidArgumentError(`expected a number of at least ${min}, got "${v}"`);
  return n;
};
const int = (min: number) => (v: string) => {
  const n = num(min)(v);
  if (!Number.isInteger(n)) throw new InvalidArgumentError(`expected a whole number, got "${v}"`);
  return n;
};
const plural = (n: number, one: string, many = `${one}s`) => `${fmt(n)} ${n === 1 ? one : many}`;

export function registerAnswers(program: Command): void {
  const imp = program.commands.find((c) => c.name() === "import");
  if (!imp) throw new Error("registerAnswers needs the import command group (registerImport) first");
  imp
    .command("answers")
    .description(
      "import a generator's answers from JSONL, one line per question: qid, answer, context (the chunk ids given to the model, in order), optional citations; each answer is split into claims (sentences)",
    )
    .argument("<file>", "a .jsonl file")
    .requiredOption(
      "--system <name>",
      "the generator configuration that wrote the answers (several configurations are several systems)",
    )
    .option("--chunking <name>", "the chunking the chunk ids belong to (default: recognised from the ids)")
    .option(
      "--replace",
      "replace the answers whose content changed (their claims start a new version); unchanged lines are left alone",
    )
    .option("--force", "with --replace: also replace answers that already have human labels (the labels are removed)")
    .addOption(projectOption())
    .action(
      async (
        file: string,
        o: { project?: string; system: string; chunking?: string; replace?: boolean; force?: boolean },
      ) => {
        if (o.force && !o.replace) throw new AppError("bad_input", "--force only applies with --replace");
        const [{ importAnswers }, { formatLocated }] = await Promise.all([
          import("../../lib/answers/import.ts"),
          import("../../lib/errors.ts"),
        ]);
        const t0 = performance.now();
        const r = await withProject(o.project, (db, p) =>
          importAnswers(
            db,
            p.id,
            { system: o.system, path: file },
            { chunking: o.chunking, replace: o.replace, force: o.force },
          ),
        );
        for (const w of r.warnings ?? []) process.stderr.write(`warning: ${formatLocated(w)}\n`);
        const removed =
          r.labelsRemoved || r.judgeLabelsRemoved
            ? `; removed ${plural(r.labelsRemoved, "human label")} and ${plural(r.judgeLabelsRemoved, "judge label")} of replaced answers`
            : "";
        const warned = r.warnings?.length ? `; ${plural(r.warnings.length, "warning")}` : "";
        out(
          `imported ${plural(r.rows, "answer")} of system ${r.system} from ${r.file}: ${fmt(r.created)} new, ${fmt(r.updated)} replaced, ${fmt(r.unchanged)} unchanged; ${plural(r.claims, "claim")} written${r.chunking ? ` (chunking ${r.chunking})` : ""}${removed}${warned} (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
        );
      },
    );

  const answers = program.command("answers").description("generated answers: systems, claims, re-splitting");

  answers
    .command("list")
    .description("the systems (generator configurations) with their answer and claim counts")
    .option("--format <format>", "text or json", "text")
    .addOption(projectOption())
    .action(async (o: { project?: string; format: string }) => {
      const { listAnswerSystems } = await import("../../lib/answers/list.ts");
      const rows = await withProject(o.project, (db, p) => listAnswerSystems(db, p.id));
      if (o.format === "json") return out(JSON.stringify(rows, null, 2));
      if (o.format !== "text") throw new AppError("bad_input", `--format: expected text or json, got "${o.format}"`);
      if (rows.length === 0)
        return out("no answers yet: import them with `assessor import answers --system NAME FILE`");
      const width = Math.max(6, ...rows.map((r) => r.system.length));
      out(`${"system".padEnd(width)}  ${"answers".padStart(8)}  ${"claims".padStart(8)}  ${"labelled".padStart(8)}`);
      for (const r of rows)
        out(
          `${r.system.padEnd(width)}  ${fmt(r.answers).padStart(8)}  ${fmt(r.claims).padStart(8)}  ${fmt(r.labelled).padStart(8)}`,
        );
    });

  answers
    .command("resplit")
    .description(
      "split a system's answers into claims again: --llm asks the judge's OpenAI-compatible endpoint to break each answer into standalone statements (a RAGAS-style claim-decomposition prompt), --sentences goes back to the sentence split; each changed answer gets a new claim version and a resplit event. Answers with human labels are left alone unless --force",
    )
    .requiredOption("--system <name>", "the system whose answers to re-split")
    .option("--llm", "decompose with the model (needs --base-url and --model, or --judge-run)")
    .option(
      "--judge-run <run>",
      "use the endpoint, model and key variable of this judge run (name or id); --base-url, --model, --api-key-env override",
    )
    .option("--sentences", "the default sentence split")
    .option("--model <model>", "the model as the endpoint names it")
    .option("--base-url <url>", "the endpoint's OpenAI-compatible base URL, e.g. http://localhost:11434/v1 (Ollama)")
    .option(
      "--api-key-env <var>",
      "environment variable holding the API key (never stored; default OPENAI_API_KEY); its name must end in _API_KEY, start with OPENAI_, or be listed in ASSESSOR_JUDGE_KEY_VARS",
    )
    .option("--no-api-key", "send no key at all (a local server without keys)")
    .option("--temperature <t>", "sampling temperature", num(0), 0)
    .option("--max-tokens <n>", "completion tokens per answer", int(1), 1024)
    .option("--timeout <seconds>", "per-request timeout", num(0.1), 60)
    .option("--retries <n>", "retries of a failed request", int(0), 4)
    .option("--concurrency <n>", "requests in flight at once", int(1), 4)
    .option(
      "--force",
      "also re-split answers that already have human labels (their labels keep naming the version they were given on)",
    )
    .addOption(projectOption())
    .action(
      async (o: {
        project?: string;
        system: string;
        llm?: boolean;
        sentences?: boolean;
        judgeRun?: string;
        model?: string;
        baseUrl?: string;
        apiKeyEnv?: string;
        apiKey: boolean;
        temperature: number;
        maxTokens: number;
        timeout: number;
        retries: number;
        concurrency: number;
        force?: boolean;
      }) => {
        if (Boolean(o.llm) === Boolean(o.sentences))
          throw new AppError("bad_input", "choose how to split: --llm (the model) or --sentences (the default split)");
        if (o.llm && !o.judgeRun && (!o.model || !o.baseUrl))
          throw new AppError(
            "bad_input",
            "--llm needs --base-url and --model (or --judge-run RUN to use a judge run's)",
          );
        if (!o.llm && (o.judgeRun || o.model || o.baseUrl))
          throw new AppError("bad_input", "--judge-run, --base-url and --model go with --llm");
        const [{ resplitAnswers }, { apiKeyFrom }, { findRun }] = await Promise.all([
          import("../../lib/answers/resplit.ts"),
          import("../../lib/judge/keys.ts"),
          import("../../lib/judge/store.ts"),
        ]);
        const t0 = performance.now();
        const r = await withProject(o.project, async (db, p) => {
          let endpoint;
          if (o.llm) {
            const run = o.judgeRun ? await findRun(db, p.id, o.judgeRun) : null;
            const keyVar = o.apiKey ? (o.apiKeyEnv ?? run?.apiKeyEnv ?? "OPENAI_API_KEY") : "";
            endpoint = {
              baseUrl: o.baseUrl ?? run!.baseUrl,
              model: o.model ?? run!.model,
              apiKey: apiKeyFrom(process.env, keyVar, "cli"),
              temperature: o.temperature,
              maxTokens: o.maxTokens,
              timeoutMs: Math.round(o.timeout * 1000),
              maxRetries: o.retries,
              concurrency: o.concurrency,
            };
          }
          return resplitAnswers(db, p.id, {
            system: o.system,
            method: o.llm ? "llm" : "sentences",
            endpoint,
            force: o.force,
            onProgress: process.stderr.isTTY
              ? (done, total) => process.stderr.write(`\rre-split ${done}/${total}`)
              : undefined,
          });
        });
        if (process.stderr.isTTY) process.stderr.write("\n");
        for (const f of r.failed) process.stderr.write(`failed: question ${f.qid}: ${f.message}\n`);
        out(
          `re-split ${plural(r.answers, "answer")} of system ${r.system} (${r.method}): ${fmt(r.resplit)} changed (${plural(r.claims, "claim")}), ${fmt(r.unchanged)} unchanged${r.labelled ? `, ${fmt(r.labelled)} with human labels left alone (--force to include them)` : ""}${r.failed.length ? `, ${fmt(r.failed.length)} failed` : ""} (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
        );
        if (r.failed.length) process.exitCode = 1;
      },
    );
}
