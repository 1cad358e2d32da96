import { InvalidArgumentError } from "commander";
import type { Db } from "../../lib/db/client.ts";
import type { TProgress, TWorkerResult } from "../../lib/judge/runner.ts";
import type { TRunSummary } from "../../lib/judge/service.ts";
import { money, timeLeft } from "../../lib/judge/format.ts";
import { out } from "../context.ts";

/**
 * The work behind `assessor judge run` and `judge resume` (bin/commands/judge.ts): option parsers,
 * the progress on stderr (a bar on a terminal, a line every few seconds otherwise), this process as
 * a worker of a run, and the run's summary line.
 */
export const int = (min: number) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`expected a whole number ≥ ${min}, got "${v}"`);
  return n;
};
export const num = (min: number) => (v: string) => {
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
export async function work(db: Db, runId: number, apiKey: string, concurrency?: number): Promise<TWorkerResult> {
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

export function summaryLine(r: TRunSummary): string {
  const c = r.counts;
  const items = r.target === "answers" ? "answer(s)" : "pair(s)";
  return `run ${r.id} (${r.judge}, ${r.model}${r.target === "answers" ? ", answers" : ""}): ${r.status}${r.stopReason ? ` (${r.stopReason})` : ""}: ${c.done} judged (${c.cached} from the cache), ${c.failed} failed, ${c.pending + c.running} left of ${c.total}; ${c.labelled} ${items} labelled${c.flagged ? `; ${c.flagged} ${items} flagged: ${r.target === "answers" ? "the answer or its context" : "the chunk"} reads like instructions to a model (possible prompt injection)` : ""}; tokens ${r.tokens.prompt.toLocaleString("en")} in / ${r.tokens.completion.toLocaleString("en")} out; cost ${money(r.cost)}`;
}

export async function finishWork(db: Db, runId: number, result: TWorkerResult): Promise<void> {
  const { summarise } = await import("../../lib/judge/service.ts");
  const run = await db.judgeRun.findUniqueOrThrow({ where: { id: runId } });
  out(summaryLine(await summarise(db, run)));
  if (result.status === "stopped") {
    process.stderr.write(`stopped: ${result.reason ?? "?"}. Continue with: npx assessor judge resume ${runId}\n`);
    process.exitCode = result.reason?.startsWith("stopped by the user") ? 130 : 1;
  } else if (result.status === "running") out(`other workers are still judging run ${runId}`);
}
