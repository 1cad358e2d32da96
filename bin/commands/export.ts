import { writeFileSync } from "node:fs";
import { Option, type Command } from "commander";
import { out, projectOption, withProject } from "../context.ts";
import type { TExportFormat } from "../../lib/exports/labels.ts";

async function runExport(format: TExportFormat, opts: { out?: string; project?: string }): Promise<void> {
  const { exportLabels, sidecarText } = await import("../../lib/exports/labels.ts");
  await withProject(opts.project, async (db, project) => {
    const e = await exportLabels(db, project.id, format);
    const v = e.version;
    if (opts.out) {
      writeFileSync(opts.out, e.content);
      writeFileSync(`${opts.out}.version.json`, sidecarText(e, format));
      out(`wrote ${v.labels} label(s) to ${opts.out}; label set ${v.sha256} at ${v.created_at} (${opts.out}.version.json)`);
    } else {
      process.stdout.write(e.content);
      if (format === "qrels") process.stderr.write(`label_set_version sha256=${v.sha256} created_at=${v.created_at} labels=${v.labels} project=${v.project}\n`);
    }
  });
}

export function registerExport(program: Command): void {
  const exp = program.command("export").description("export the reference label set (agreed, adjudicated, imported), with its version");
  exp
    .command("qrels")
    .description("TREC qrels (qid 0 docid grade); the version goes to <out>.version.json, or to stderr when printing")
    .option("--out <file>", "write to this file (default: stdout)")
    .addOption(projectOption())
    .action((opts: { out?: string; project?: string }) => runExport("qrels", opts));
  exp
    .command("labels")
    .description("labels with grade, corrected start, status, annotators and source; first line carries the version")
    .addOption(new Option("--format <format>", "file format").choices(["jsonl", "csv"]).default("jsonl"))
    .option("--out <file>", "write to this file (default: stdout); also writes <out>.version.json")
    .addOption(projectOption())
    .action((opts: { format: "jsonl" | "csv"; out?: string; project?: string }) => runExport(opts.format, opts));
}
