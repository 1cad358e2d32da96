import { readFileSync, writeFileSync } from "node:fs";
import { Command, InvalidArgumentError } from "commander";
import type { Db } from "../../lib/db/client.ts";
import type { TProgress, TWorkerResult } from "../../lib/judge/runner.ts";
import type { TRunSummary } from "../../lib/judge/service.ts";
import type { TLabelSet } from "../../lib/judge/label-sets.ts";
import { money, timeLeft } from "../../lib/judge/format.ts";
import { decimalOption, fail, out, projectOption, withProject } from "../context.ts";
import { registerJudgeProbe } from "./judge-probe.ts";
import { attachReport, registerJudgeReport } from "./judge-report.ts";

/**
 * `assessor judge …`: run the LLM judge over the pool against any OpenAI-compatible endpoint
 * (lib/judge), list, show, resume, cancel and export runs. Progress goes to stderr (a bar on a
 * terminal, a line every few seconds otherwise); results and summaries to stdout.
 */
const int = (min: number) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`expected a whole number ≥ ${min}, got "${v}"`);
  return n;
};
const num = (min: number) => (v: string) => {
  const n = Number(v);
  if (v.trim() === "" || !Number.isFinite(n) || n < min)
    throw new InvalidArgumentError(`expected a number ≥ ${min}, got "${v}"`);
  return n;
};

export function progressLine(p: TProgress): string {
  const finished = p.done + p.failed;
  const rate = p.elapsedMs > 0 ? (p.sentThisWorker * 1000) / p.elapsedMs : 0;
  const left = p.total - finished;
  const eta = rate > 0 ? timeLeft(left / rate) : "?";
  return `${finished}/${p.total} (${p.total ? Math.floor((finished / p.total) * 100) : 100}%) · ${rate.toFixed(1)} req/s · ~${eta} left · ${p.failed} failed · ${p.cached} cached · tokens ${p.promptTokens.toLocaleString("en")} in / ${p.completionTokens.toLocaleString("en")} out · ${money(p.cost)}`;
}

/** A bar on a terminal; elsewhere (logs, CI) one line every 5 s. */
async function progressReporter(): Promise<{ onProgress: (p: TProgress) => void; stop: () => void }> {
  if (process.stderr.isTTY) {
    const { SingleBar, Presets } = await import("cli-progress");
    const bar = new SingleBar(
      { stream: process.stderr, format: "judging [{bar}] {line}", hideCursor: true, clearOnComplete: false },
      Presets.shades_classic,
    );
    let started = false;
    return {
      onProgress: (p) => {
        if (!started) {
          bar.start(p.total, 0, { line: "" });
          started = true;
        }
        bar.update(p.done + p.failed, { line: progressLine(p) });
      },
      stop: () => started && bar.stop(),
    };
  }
  let last = 0;
  return {
    onProgress: (p) => {
      if (Date.now() - last < 5000) return;
      last = Date.now();
      process.stderr.write(`judging ${progressLine(p)}\n`);
    },
    stop: () => {},
  };
}

/** Runs this process as a worker until the run ends; Ctrl+C once stops after what is in flight, twice quits at once. */
async function work(db: Db, runId: number, apiKey: string, concurrency?: number): Promise<TWorkerResult> {
  const { runWorker } = await import("../../lib/judge/runner.ts");
  const stop = new AbortController();
  const onSigint = () => {
    if (stop.signal.aborted) {
      process.stderr.write("\nquitting at once; `judge resume` continues where this left off\n");
      process.exit(130);
    }
    process.stderr.write("\nstopping: finishing the requests in flight (Ctrl+C again to quit at once)…\n");
    stop.abort();
  };
  process.on("SIGINT", onSigint);
  process.on("SIGTERM", onSigint);
  const reporter = await progressReporter();
  try {
    return await runWorker(db, runId, { apiKey, concurrency, stop: stop.signal, onProgress: reporter.onProgress });
  } finally {
    reporter.stop();
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onSigint);
  }
}

function summaryLine(r: TRunSummary): string {
  const c = r.counts;
  const items = r.target === "answers" ? "answer(s)" : "pair(s)";
  return `run ${r.id} (${r.judge}, ${r.model}${r.target === "answers" ? ", answers" : ""}): ${r.status}${r.stopReason ? ` (${r.stopReason})` : ""}: ${c.done} judged (${c.cached} from the cache), ${c.failed} failed, ${c.pending + c.running} left of ${c.total}; ${c.labelled} ${items} labelled${c.flagged ? `; ${c.flagged} ${items} flagged: ${r.target === "answers" ? "the answer or its context" : "the chunk"} reads like instructions to a model (possible prompt injection)` : ""}; tokens ${r.tokens.prompt.toLocaleString("en")} in / ${r.tokens.completion.toLocaleString("en")} out; cost ${money(r.cost)}`;
}

async function finishWork(db: Db, runId: number, result: TWorkerResult): Promise<void> {
  const { summarise } = await import("../../lib/judge/service.ts");
  const run = await db.judgeRun.findUniqueOrThrow({ where: { id: runId } });
  out(summaryLine(await summarise(db, run)));
  if (result.status === "stopped") {
    process.stderr.write(`stopped: ${result.reason ?? "?"}. Continue with: npx assessor judge resume ${runId}\n`);
    process.exitCode = result.reason?.startsWith("stopped by the user") ? 130 : 1;
  } else if (result.status === "running") out(`other workers are still judging run ${runId}`);
}

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
      : rows.map((l) => JSON.stringify({ query: l.qid, chunk: l.docid, grade: l.grade, rationale: l.rationale })),
    o.out,
  );
}

export function registerJudge(program: Command): void {
  const judge = program
    .command("judge")
    .description(
      "run an LLM judge over the pool against any OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, llama.cpp, LiteLLM); its labels become a judge on the dashboard",
    );

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

  judge
    .command("list")
    .description(
      "the project's judges: its runs (prompt version, model, status, counts, cost), then the judges without a run (imported from a file, or derived by label transfer)",
    )
    .option("--format <format>", "text or json", "text")
    .addOption(projectOption())
    .action(async (o: { format: string; project?: string }) => {
      const [{ listJudgeRuns }, { labelSets }] = await Promise.all([
        import("../../lib/judge/service.ts"),
        import("../../lib/judge/label-sets.ts"),
      ]);
      await withProject(o.project, async (db, project) => {
        const [runs, sets] = await Promise.all([listJudgeRuns(db, project.id), labelSets(db, project.id)]);
        // JSON: one array, each entry with its source (run, imported, transfer).
        if (o.format === "json")
          return out(JSON.stringify([...runs.map((r) => ({ source: "run", ...r })), ...sets], null, 2));
        if (!runs.length && !sets.length)
          return out(
            "no judges yet: start a run with npx assessor judge run --judge NAME --model MODEL --base-url URL, or import labels with npx assessor import judge FILE --judge NAME",
          );
        if (runs.length) {
          out(
            ["id", "judge", "model", "template", "status", "pairs", "judged", "failed", "left", "cost", "created"].join(
              "\t",
            ),
          );
          for (const r of runs)
            out(
              [
                r.id,
                r.judge,
                r.model,
                r.templateSha256.slice(0, 12),
                r.status,
                r.target === "answers" ? `${r.counts.pairs} answers` : r.counts.pairs,
                r.counts.done,
                r.counts.failed,
                r.counts.pending + r.counts.running,
                money(r.cost),
                r.createdAt.slice(0, 19),
              ].join("\t"),
            );
        } else out("no judge runs");
        if (sets.length) {
          out("");
          out("judges without a run (npx assessor judge export NAME writes their labels)");
          out(["judge", "source", "labels", "flagged", "chunkings"].join("\t"));
          for (const s of sets) out([s.judge, s.source, s.labels, s.flagged, s.chunkings.join(",")].join("\t"));
        }
      });
    });

  judge
    .command("show <run>")
    .description(
      "one run in full: endpoint, model, template sha256, parameters, times, counts, tokens, cost, test–retest agreement",
    )
    .option("--format <format>", "text or json", "text")
    .option("--template", "print the run's template text")
    .addOption(projectOption())
    .action(async (ref: string, o: { format: string; template?: boolean; project?: string }) => {
      const [{ findRun }, { summarise }] = await Promise.all([
        import("../../lib/judge/store.ts"),
        import("../../lib/judge/service.ts"),
      ]);
      await withProject(o.project, async (db, project) => {
        const run = await findRun(db, project.id, ref);
        if (o.template) return out(run.template);
        const s = await summarise(db, run, { retest: true });
        if (o.format === "json") return out(JSON.stringify({ ...s, template: run.template }, null, 2));
        out(summaryLine(s));
        out(`endpoint  ${s.baseUrl} (${s.apiKeyEnv ? `key from $${s.apiKeyEnv}` : "no key"})`);
        if (s.counts.flagged)
          out(
            s.target === "answers"
              ? `flagged   ${s.counts.flagged} answer(s) whose text or context reads like instructions to a model (possible prompt injection): check their labels (judge export --format jsonl)`
              : `flagged   ${s.counts.flagged} pair(s) whose chunk reads like instructions to a model (possible prompt injection): check their grades (judge export --format jsonl)`,
          );
        out(`template  sha256 ${s.templateSha256}`);
        out(
          `subset    ${s.target === "answers" ? "answers " : ""}${s.subset}; ${s.counts.pairs} ${s.target === "answers" ? "answer" : "pair"}(s) × ${s.samples} sample(s)`,
        );
        out(`params    ${JSON.stringify(s.params)}`);
        out(
          `prices    in ${s.prices.in ?? "-"} / out ${s.prices.out ?? "-"} USD per 1M tokens; cap ${s.prices.maxCost ?? "none"}`,
        );
        out(
          `times     created ${s.createdAt}; started ${s.startedAt ?? "-"}; finished ${s.finishedAt ?? "-"}; live workers ${s.workers}`,
        );
        if (s.retest)
          out(
            `retest    ${s.retest.pairs} pair(s) with ≥2 graded samples; ${s.retest.unstable} unstable (${s.retest.unstableShare === null ? "-" : (s.retest.unstableShare * 100).toFixed(1)}%); κ between samples: linear ${s.retest.kappa.linear?.toFixed(3) ?? "undefined"}, quadratic ${s.retest.kappa.quadratic?.toFixed(3) ?? "undefined"}`,
          );
      });
    });

  judge
    .command("reparse <run>")
    .description(
      "read a run's stored answers again with the current parser and report the grades that change (nothing is sent to the model); --apply writes them and the run's labels",
    )
    .option("--apply", "write the changes (task grades and status, the run's labels, the injection flags)")
    .option("--format <format>", "text or json", "text")
    .addOption(projectOption())
    .action(async (ref: string, o: { apply?: boolean; format: string; project?: string }) => {
      if (o.format !== "text" && o.format !== "json") fail(`--format: expected text or json, got "${o.format}"`);
      const [{ findRun }, { reparseRun }] = await Promise.all([
        import("../../lib/judge/store.ts"),
        import("../../lib/judge/reparse.ts"),
      ]);
      await withProject(o.project, async (db, project) => {
        const run = await findRun(db, project.id, ref);
        const r = await reparseRun(db, run, { apply: o.apply });
        if (o.format === "json") return out(JSON.stringify(r, null, 2));
        for (const c of r.changes)
          out(
            [
              c.qid,
              c.docid,
              `sample ${c.sample}`,
              `${c.before.status} ${c.before.grade ?? "-"} -> ${c.after.status} ${c.after.grade ?? "-"}`,
              c.after.error ?? "",
            ]
              .join("\t")
              .trimEnd(),
          );
        out(
          `run ${r.runId} (${r.judge}): ${r.read} stored answer(s) read again; ${r.changes.length} change: ${r.regraded} grade(s) differ, ${r.becameFailed} become failed, ${r.becameDone} become done; ${r.labels.length} label(s) change; ${r.injection.flagged} pair(s) flagged as possible prompt injection (${r.injection.changed} newly)`,
        );
        if (r.applied) out("applied: tasks, labels and flags written");
        else if (r.changes.length || r.injection.changed)
          out(`nothing written; write these with: npx assessor judge reparse ${r.runId} --apply`);
      });
    });

  judge
    .command("cancel <run>")
    .description("cancel a run: its workers finish what is in flight and stop; labels so far stay")
    .addOption(projectOption())
    .action(async (ref: string, o: { project?: string }) => {
      const { findRun, cancelRun } = await import("../../lib/judge/store.ts");
      await withProject(o.project, async (db, project) => {
        const run = await findRun(db, project.id, ref);
        await cancelRun(db, run.id);
        out(`run ${run.id} (${run.judge}) cancelled`);
      });
    });

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
