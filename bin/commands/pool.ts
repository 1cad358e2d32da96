import type { Command } from "commander";
import { fail, out, projectOption, withProject } from "../context.ts";

export function registerPool(program: Command): void {
  program
    .command("pool")
    .description(
      "pool every chosen run's top K chunks per query (score descending, ties by chunk id descending, as trec_eval); adds only new pairs",
    )
    .option("--depth <k>", "pool depth K (default: the project's pool depth)")
    .option("--runs <systems>", "comma-separated run (system) names (default: all runs)")
    .option(
      "--chunking <name>",
      "only this chunking's runs, and only the pairs label transfer left unjudged (plus pairs already pooled, e.g. the audit sample)",
    )
    .addOption(projectOption())
    .action(async (opts: { depth?: string; runs?: string; chunking?: string; project?: string }) => {
      const depth = opts.depth === undefined ? undefined : Number(opts.depth);
      if (depth !== undefined && !(Number.isInteger(depth) && depth >= 1))
        fail(`--depth: expected a whole number ≥ 1, got "${opts.depth}"`);
      const { buildPool } = await import("../../lib/pooling/build.ts");
      await withProject(opts.project, async (db, project) => {
        const runs = opts.runs
          ?.split(",")
          .map((s) => s.trim())
          .filter(Boolean);
        const r = await buildPool(db, project.id, { depth: depth ?? project.poolDepth, runs, chunking: opts.chunking });
        out(
          `pooled ${r.runs.length} run(s) (${r.runs.join(", ")}) at depth ${r.depth} over ${r.queries} queries: ${r.newItems} new item(s), ${r.newProvenance} new provenance row(s), ${r.totalItems} item(s) in the pool`,
        );
        if (r.chunking !== undefined) {
          const judges = r.transferJudges?.length ? r.transferJudges.join(", ") : "none (run chunking transfer first)";
          out(
            `Label transfer saved ${r.saved} item(s) of chunking ${r.chunking}: pairs in its runs' top ${r.depth} with a transfer label that were not pooled (transfer judges: ${judges}).`,
          );
        }
      });
    });
}
