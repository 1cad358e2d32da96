import type { Command } from "commander";
import { AppError } from "../../lib/errors.ts";
import { out, projectOption, withProject } from "../context.ts";

/**
 * Generated answers (issue 24): `assessor import answers` (registered into the import group) and
 * `assessor answers list|resplit`. The work is in lib/generation (shared with the lead's upload).
 */
const fmt = (n: number) => n.toLocaleString("en-US");
const plural = (n: number, one: string, many = `${one}s`) => `${fmt(n)} ${n === 1 ? one : many}`;

export function registerAnswers(program: Command): void {
  const imp = program.commands.find((c) => c.name() === "import");
  if (!imp) throw new Error("registerAnswers needs the import command group (registerImport) first");
  imp
    .command("answers")
    .description("import a generator's answers from JSONL, one line per question: qid, answer, context (the chunk ids given to the model, in order), optional citations; each answer is split into claims (sentences)")
    .argument("<file>", "a .jsonl file")
    .requiredOption("--system <name>", "the generator configuration that wrote the answers (several configurations are several systems)")
    .option("--chunking <name>", "the chunking the chunk ids belong to (default: recognised from the ids)")
    .option("--replace", "replace the answers whose content changed (their claims start a new version); unchanged lines are left alone")
    .option("--force", "with --replace: also replace answers that already have human labels (the labels are removed)")
    .addOption(projectOption())
    .action(async (file: string, o: { project?: string; system: string; chunking?: string; replace?: boolean; force?: boolean }) => {
      if (o.force && !o.replace) throw new AppError("bad_input", "--force only applies with --replace");
      const [{ importAnswers }, { formatLocated }] = await Promise.all([import("../../lib/generation/import.ts"), import("../../lib/errors.ts")]);
      const t0 = performance.now();
      const r = await withProject(o.project, (db, p) => importAnswers(db, p.id, { system: o.system, path: file }, { chunking: o.chunking, replace: o.replace, force: o.force }));
      for (const w of r.warnings ?? []) process.stderr.write(`warning: ${formatLocated(w)}\n`);
      const removed = r.labelsRemoved || r.judgeLabelsRemoved ? `; removed ${plural(r.labelsRemoved, "human label")} and ${plural(r.judgeLabelsRemoved, "judge label")} of replaced answers` : "";
      const warned = r.warnings?.length ? `; ${plural(r.warnings.length, "warning")}` : "";
      out(
        `imported ${plural(r.rows, "answer")} of system ${r.system} from ${r.file}: ${fmt(r.created)} new, ${fmt(r.updated)} replaced, ${fmt(r.unchanged)} unchanged; ${plural(r.claims, "claim")} written${r.chunking ? ` (chunking ${r.chunking})` : ""}${removed}${warned} (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
      );
    });

  const answers = program.command("answers").description("generated answers: systems, claims, re-splitting");

  answers
    .command("list")
    .description("the systems (generator configurations) with their answer and claim counts")
    .option("--format <format>", "text or json", "text")
    .addOption(projectOption())
    .action(async (o: { project?: string; format: string }) => {
      const { listAnswerSystems } = await import("../../lib/generation/list.ts");
      const rows = await withProject(o.project, (db, p) => listAnswerSystems(db, p.id));
      if (o.format === "json") return out(JSON.stringify(rows, null, 2));
      if (o.format !== "text") throw new AppError("bad_input", `--format: expected text or json, got "${o.format}"`);
      if (rows.length === 0) return out("no answers yet: import them with `assessor import answers --system NAME FILE`");
      const width = Math.max(6, ...rows.map((r) => r.system.length));
      out(`${"system".padEnd(width)}  ${"answers".padStart(8)}  ${"claims".padStart(8)}  ${"labelled".padStart(8)}`);
      for (const r of rows) out(`${r.system.padEnd(width)}  ${fmt(r.answers).padStart(8)}  ${fmt(r.claims).padStart(8)}  ${fmt(r.labelled).padStart(8)}`);
    });
}
