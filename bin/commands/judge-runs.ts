import type { Command } from "commander";
import { money } from "../../lib/judge/format.ts";
import { fail, out, projectOption, withProject } from "../context.ts";
import { summaryLine } from "./judge-work.ts";

/** `assessor judge list`, `show`, `reparse` and `cancel`: the project's judges and one run's state. */
export function registerJudgeRuns(judge: Command): void {
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
}
