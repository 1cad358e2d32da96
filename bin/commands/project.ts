import { Command, Option } from "commander";
import { ZProjectSettings } from "../../lib/projects/settings.ts";
import { out, withDb, withProject, projectOption } from "../context.ts";
import { AppError, isUniqueViolation } from "../../lib/errors.ts";
import { registerProjectDelete } from "./lifecycle.ts";
import { registerProjectGuidelines } from "./project-guidelines.ts";
import { setGradingClosed } from "../../lib/projects/grading.ts";

const int = (v: string) => Number(v);

function settingsOptions(cmd: Command): Command {
  return cmd
    .option("--pool-depth <k>", "default pool depth", int)
    .option("--annotators-per-item <n>", "annotators per pool item", int)
    .addOption(
      new Option("--disagreement-rule <rule>", "when two grades need adjudication").choices([
        "any_difference",
        "distance_two",
        "relevance_threshold",
      ]),
    )
    .option("--start-tolerance <seconds>", "corrected starts within this many seconds agree", Number)
    .option("--calibration-target <n>", "human-labelled items wanted for judge calibration", int)
    .option("--min-per-grade <n>", "warn when a grade has fewer human examples", int);
}

type SettingsOpts = {
  poolDepth?: number;
  annotatorsPerItem?: number;
  disagreementRule?: "any_difference" | "distance_two" | "relevance_threshold";
  startTolerance?: number;
  calibrationTarget?: number;
  minPerGrade?: number;
};

function parseSettings(opts: SettingsOpts) {
  const partial = {
    poolDepth: opts.poolDepth,
    annotatorsPerItem: opts.annotatorsPerItem,
    disagreementRule: opts.disagreementRule,
    startToleranceSeconds: opts.startTolerance,
    calibrationTarget: opts.calibrationTarget,
    minPerGrade: opts.minPerGrade,
  };
  const parsed = ZProjectSettings.partial().safeParse(partial);
  if (!parsed.success)
    throw new AppError("bad_input", parsed.error.issues.map((i) => `--${String(i.path[0])}: ${i.message}`).join("; "));
  return Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined));
}

export function registerProject(program: Command): void {
  const project = program.command("project").description("create, list, configure and delete projects");
  registerProjectDelete(project);
  registerProjectGuidelines(project);
  settingsOptions(project.command("create").argument("<name>", "project name").description("create a project")).action(
    async (name: string, opts: SettingsOpts) => {
      await withDb(async (db) => {
        try {
          const p = await db.project.create({ data: { name, ...parseSettings(opts) } });
          out(
            `created project "${p.name}" (pool depth ${p.poolDepth}, ${p.annotatorsPerItem} annotators per item, rule ${p.disagreementRule}, tolerance ${p.startToleranceSeconds} s)`,
          );
        } catch (e) {
          if (isUniqueViolation(e)) throw new AppError("conflict", `a project named "${name}" already exists`);
          throw e;
        }
      });
    },
  );
  project
    .command("list")
    .description("list projects")
    .option("--json", "print JSON lines")
    .action(async (opts: { json?: boolean }) => {
      await withDb(async (db) => {
        const projects = await db.project.findMany({ orderBy: { name: "asc" } });
        for (const p of projects)
          out(
            opts.json
              ? JSON.stringify(p)
              : `${p.name}\tdepth=${p.poolDepth}\tper-item=${p.annotatorsPerItem}\trule=${p.disagreementRule}\ttolerance=${p.startToleranceSeconds}`,
          );
        if (!projects.length && !opts.json) out("no projects (create one with: npx assessor project create NAME)");
      });
    });
  settingsOptions(project.command("set").description("change a project's settings").addOption(projectOption())).action(
    async (opts: SettingsOpts & { project?: string }) => {
      await withProject(opts.project, async (db, p) => {
        const updated = await db.project.update({ where: { id: p.id }, data: parseSettings(opts) });
        out(JSON.stringify(updated));
      });
    },
  );
  // Closing grading makes every item read-only for annotators at once (lib/projects/grading.ts).
  for (const [name, closed] of [
    ["close-grading", true],
    ["reopen-grading", false],
  ] as const)
    project
      .command(name)
      .description(
        closed
          ? "close grading: every item of the project becomes read-only for its annotators (adjudication goes on)"
          : "reopen grading after close-grading",
      )
      .addOption(projectOption())
      .action(async (opts: { project?: string }) => {
        await withProject(opts.project, async (db, p) => {
          const r = await setGradingClosed(db, p.id, closed);
          out(
            r.closedAt
              ? `grading in project "${p.name}" is closed since ${r.closedAt}: every item is read-only for its annotators`
              : `grading in project "${p.name}" is open`,
          );
        });
      });
}
