import type { Command } from "commander";
import { readFileSync } from "node:fs";
import { fail, out, projectOption, withProject } from "../context.ts";

const revisionArg = (name: string, v: string): number => {
  if (!/^\d{1,10}$/.test(v) || Number(v) > 2_147_483_647)
    fail(`${name}: expected a revision number (0 or more), got "${v}"`);
  return Number(v);
};

/** `assessor project guidelines set FILE | list | diff FROM TO`: the guidelines' revisions (lib/projects/guidelines.ts). */
export function registerProjectGuidelines(project: Command): void {
  const g = project
    .command("guidelines")
    .description("the annotation guidelines: save a new revision, list revisions, diff two");
  g.command("set")
    .argument("<file>", "Markdown file with the new guidelines")
    .description("save the file as the next revision of the guidelines (no author: saved from the command line)")
    .addOption(projectOption())
    .action(async (file: string, opts: { project?: string }) => {
      const text = readFileSync(file, "utf8");
      if (text.length > 100_000)
        fail(`${file}: guidelines are limited to 100,000 characters, the file has ${text.length}`);
      if (text.includes("\u0000")) fail(`${file}: the file contains a NUL character`);
      const { saveGuidelines } = await import("../../lib/projects/guidelines.ts");
      await withProject(opts.project, async (db, p) => {
        const r = await saveGuidelines(db, p.id, text, null);
        out(
          r.changed
            ? `saved guidelines revision ${r.revision} of project "${p.name}"`
            : `unchanged: revision ${r.revision} stands`,
        );
      });
    });
  g.command("list")
    .description("the revisions, newest first: number, time, author, characters")
    .option("--json", "print JSON lines")
    .addOption(projectOption())
    .action(async (opts: { project?: string; json?: boolean }) => {
      const { listGuidelineRevisions } = await import("../../lib/projects/guidelines.ts");
      await withProject(opts.project, async (db, p) => {
        const rows = await listGuidelineRevisions(db, p.id);
        for (const r of rows)
          out(
            opts.json
              ? JSON.stringify(r)
              : `${r.revision}\t${r.createdAt}\t${r.author ? `${r.author.name} <${r.author.email}>` : "-"}\t${r.chars} chars`,
          );
        if (!rows.length && !opts.json) out(`project "${p.name}" has no saved guidelines (revision 0)`);
      });
    });
  g.command("diff")
    .argument("<from>", "revision to compare from (0: before the first save)")
    .argument("<to>", "revision to compare to")
    .description("the line diff between two revisions (+ added, - removed)")
    .addOption(projectOption())
    .action(async (from: string, to: string, opts: { project?: string }) => {
      const a = revisionArg("from", from);
      const b = revisionArg("to", to);
      const { diffGuidelines } = await import("../../lib/projects/guidelines.ts");
      await withProject(opts.project, async (db, p) => {
        const d = await diffGuidelines(db, p.id, a, b);
        for (const part of d.parts) {
          const mark = part.kind === "added" ? "+" : part.kind === "removed" ? "-" : " ";
          for (const line of part.text.replace(/\n$/, "").split("\n")) out(`${mark} ${line}`);
        }
        out(`revision ${a} → ${b}: ${d.added} line(s) added, ${d.removed} removed`);
      });
    });
}
