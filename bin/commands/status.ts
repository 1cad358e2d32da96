import type { Command } from "commander";
import { out, projectOption, withProject } from "../context.ts";

export function registerStatus(program: Command): void {
  program
    .command("status")
    .description("counts per stage: unassigned, assigned, agreed, awaiting adjudication, adjudicated, imported")
    .option("--json", "print one JSON object")
    .addOption(projectOption())
    .action(async (opts: { json?: boolean; project?: string }) => {
      const { stageCounts, STAGES } = await import("../../lib/labels/stage.ts");
      await withProject(opts.project, async (db, project) => {
        const c = await stageCounts(db, project.id);
        if (opts.json) return out(JSON.stringify({ project: project.name, ...c }));
        out(`project ${project.name}`);
        for (const s of STAGES) out(`${s.replace(/_/g, " ").padEnd(24)}${c[s]}`);
        out(`${"total".padEnd(24)}${c.total}`);
      });
    });
}
