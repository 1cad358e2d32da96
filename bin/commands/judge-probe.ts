import { readFileSync } from "node:fs";
import { type Command, InvalidArgumentError } from "commander";
import type { TProbeSummary } from "../../lib/judge/probe/stats.ts";
import type { TProbeWork } from "../../lib/judge/probe/work.ts";
import { decimalOption, fail, out, projectOption, withProject } from "../context.ts";

/**
 * `assessor judge probe RUN --sample N [--seed S] [--kinds …]`: robustness probes of a judge run
 * (lib/judge/probe): the run's model and template re-asked on a stratified sample of human-labelled
 * pairs with the chunk changed in controlled ways, one judge run per perturbation (resumable:
 * asking again with the same sample and seed continues them), then the table of figures.
 */
const int = (min: number) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`expected a whole number ≥ ${min}, got "${v}"`);
  return n;
};

const signed = (x: number | null, digits = 2) => (x === null ? "–" : `${x > 0 ? "+" : ""}${x.toFixed(digits)}`);
const fixed = (x: number | null, digits = 3) => (x === null ? "–" : x.toFixed(digits));

/** The probe table: one line per perturbation, then its worst examples. */
export function probeTable(s: TProbeSummary): string[] {
  const lines = [
    `robustness probes of ${s.source}: mean grade shift (probe − run) with its 95% interval (bootstrap over questions), pairs whose grade changed, linear weighted kappa against people before → after`,
    ["probe", "pairs", "shift", "95% interval", "changed", "up", "down", "kappa before", "kappa after"].join("\t"),
  ];
  for (const r of s.rows)
    lines.push(
      [
        r.kind,
        r.pairs,
        signed(r.meanShift),
        r.interval ? `[${signed(r.interval.low)}, ${signed(r.interval.high)}]` : "–",
        r.changed === null ? "–" : `${(r.changed * 100).toFixed(1)}%`,
        r.up,
        r.down,
        fixed(r.kappa.linear.before),
        fixed(r.kappa.linear.after),
      ].join("\t"),
    );
  for (const r of s.rows)
    if (r.worst.length)
      lines.push(
        `worst ${r.kind}: ${r.worst.map((w) => `${w.qid} ${w.docid} ${w.before}→${w.after} (human ${w.human})`).join("; ")}`,
      );
  return lines;
}

type TProbeCliOptions = {
  sample: number;
  seed?: number;
  kinds?: string;
  template?: string;
  maxCost?: string;
  concurrency?: number;
  format: string;
  project?: string;
};

export function registerJudgeProbe(judge: Command): void {
  judge
    .command("probe <run>")
    .description(
      "robustness probes: re-ask the run's model and template on a stratified sample of human-labelled pairs with the chunk changed (an instruction to the assessor injected, the question's words appended, irrelevant transcript appended, the chunk cut in half, before/after swapped, the template paraphrased); one run per probe, resumable; prints the grade shifts and kappa before and after",
    )
    .requiredOption("--sample <n>", "pairs to sample (stratified by the human grade)", int(1))
    .option("--seed <s>", "the sample's and the perturbations' seed (default 1)", int(0))
    .option(
      "--kinds <list>",
      "comma-separated probes (default all): injection, stuffing, padding, truncation, order, paraphrase",
    )
    .option(
      "--template <file>",
      "the paraphrase of the run's template (default: the shipped one, for the default template)",
    )
    .option("--max-cost <usd>", "a cost cap per probe run (uses the run's prices)")
    .option("--concurrency <n>", "requests in flight per probe (default: the run's)", int(1))
    .option("--format <format>", "table or json", "table")
    .addOption(projectOption())
    .action(async (ref: string, o: TProbeCliOptions) => {
      if (o.format !== "table" && o.format !== "json") fail(`--format: expected table or json, got "${o.format}"`);
      const [{ createProbes }, { workProbes }, { loadProbeSummary }, { apiKeyFrom }, { checkedClient }, perturb] =
        await Promise.all([
          import("../../lib/judge/probe/create.ts"),
          import("../../lib/judge/probe/work.ts"),
          import("../../lib/judge/probe/load.ts"),
          import("../../lib/judge/keys.ts"),
          import("../../lib/judge/endpoint.ts"),
          import("../../lib/judge/probe/perturb.ts"),
        ]);
      const kinds = o.kinds
        ?.split(",")
        .map((k) => k.trim())
        .filter(Boolean);
      for (const k of kinds ?? [])
        if (!(perturb.PROBE_KINDS as readonly string[]).includes(k))
          fail(`--kinds: "${k}" is not a probe; expected ${perturb.PROBE_KINDS.join(", ")}`);
      let template: string | undefined;
      if (o.template !== undefined) {
        try {
          template = readFileSync(o.template, "utf8");
        } catch (e) {
          fail(`--template ${o.template}: cannot read the file (${e instanceof Error ? e.message : String(e)})`);
        }
      }
      const maxCost = decimalOption("--max-cost", o.maxCost);
      await withProject(o.project, async (db, project) => {
        const { findRun } = await import("../../lib/judge/store.ts");
        const apiKey = apiKeyFrom(process.env, (await findRun(db, project.id, ref)).apiKeyEnv);
        const set = await createProbes(
          db,
          project.id,
          ref,
          {
            sample: o.sample,
            seed: o.seed,
            kinds: kinds as (typeof perturb.PROBE_KINDS)[number][] | undefined,
            template,
            templateFile: o.template,
            maxCost,
            concurrency: o.concurrency,
          },
          async (source) => {
            const { paramsOf } = await import("../../lib/judge/create.ts");
            await checkedClient(source.baseUrl, apiKey, source.model, paramsOf(source).timeoutMs);
          },
        );
        for (const s of set.skipped) process.stderr.write(`skipped ${s.kind}: ${s.reason}\n`);
        process.stderr.write(
          `probing run ${set.source.id} (${set.source.judge}) on ${set.pairs} pair(s): ${set.runs.map((r) => `${r.kind} run ${r.run.id}${r.created ? "" : " (resumed)"}`).join(", ")}\n`,
        );
        const stop = new AbortController();
        const onSigint = () => {
          process.stderr.write("\nstopping the probes after the requests in flight; ask again to resume them\n");
          stop.abort();
        };
        process.on("SIGINT", onSigint);
        let work: TProbeWork[];
        try {
          work = await workProbes(db, set.runs, apiKey, { stop: stop.signal });
        } finally {
          process.off("SIGINT", onSigint);
        }
        for (const w of work)
          if (w.note) process.stderr.write(`${w.kind} (run ${w.runId}): ${w.note}\n`);
          else if (w.result && w.result.status !== "completed") {
            process.stderr.write(
              `${w.kind} (run ${w.runId}): ${w.result.status}${w.result.reason ? ` (${w.result.reason})` : ""}; ask again to resume\n`,
            );
            process.exitCode = 1;
          }
        const summary = await loadProbeSummary(db, project.id, set.source.judge);
        if (o.format === "json") out(JSON.stringify({ ...summary, skipped: set.skipped, pairs: set.pairs }, null, 2));
        else for (const line of probeTable(summary)) out(line);
      });
    });
}
