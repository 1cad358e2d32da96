import type { Command } from "commander";
import { out, projectOption, withProject } from "../context.ts";

export function registerStatus(program: Command): void {
  program
    .command("status")
    .description(
      "counts per stage: unassigned, assigned, agreed, awaiting adjudication, adjudicated, imported; pooled items with an imported label (and how many of those are assigned to re-grade); items graded under older guidelines; hidden check items assigned and graded",
    )
    .option("--json", "print one JSON object")
    .addOption(projectOption())
    .action(async (opts: { json?: boolean; project?: string }) => {
      const { stageCounts, STAGES } = await import("../../lib/labels/stage.ts");
      const { olderGuidelines, olderAnswerGuidelines } = await import("../../lib/projects/guidelines.ts");
      const { checkStatus } = await import("../../lib/assignment/checks.ts");
      await withProject(opts.project, async (db, project) => {
        const c = await stageCounts(db, project.id);
        const g = await olderGuidelines(db, project.id);
        const ga = await olderAnswerGuidelines(db, project.id);
        const checks = await checkStatus(db, project.id);
        // Answer labels' figures only in a project that has answer labels.
        const answerLabels = ga.labels + ga.unrecorded + ga.adjudications > 0;
        if (opts.json)
          return out(
            JSON.stringify({
              project: project.name,
              ...c,
              guidelines: g,
              ...(answerLabels ? { answerGuidelines: ga } : {}),
              checks,
            }),
          );
        out(`project ${project.name}`);
        for (const s of STAGES) out(`${s.replace(/_/g, " ").padEnd(32)}${c[s]}`);
        out(`${"total".padEnd(32)}${c.total}`);
        out(`${"pooled with imported label".padEnd(32)}${c.imported_pooled}`);
        out(`${"  of which assigned to re-grade".padEnd(32)}${c.imported_regrading}`);
        out(`${"guidelines revision".padEnd(32)}${g.current}`);
        out(`${"graded under older guidelines".padEnd(32)}${g.items} item(s), ${g.judgements} grade(s)`);
        out(`${"  of which sent back".padEnd(32)}${g.regradeRequested}`);
        out(`${"decided under older guidelines".padEnd(32)}${g.adjudications}`);
        if (answerLabels) {
          out(`${"answers under older guidelines".padEnd(32)}${ga.answers} answer(s), ${ga.labels} label(s)`);
          out(`${"  of which sent back".padEnd(32)}${ga.regradeRequested}`);
          out(`${"  answers decided under older".padEnd(32)}${ga.adjudications}`);
        }
        // Hidden check items (lib/assignment/checks.ts): the lead's figures only.
        out(`${"check items".padEnd(32)}${checks.items}`);
        out(`${"  assigned / graded".padEnd(32)}${checks.assigned} / ${checks.graded}`);
      });
    });
}
