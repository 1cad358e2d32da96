import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { Option, type Command } from "commander";
import { AppError } from "../../lib/errors.ts";
import { out, projectOption, withDb, withProject } from "../context.ts";
import { registerChunkingCommands } from "./chunking.ts";
import { registerChunkingReport } from "./chunking-report.ts";

/**
 * Listing, exporting and deleting what a lead imported:
 * `assessor chunks list|export`, `assessor run list|delete`, `assessor project delete`.
 * Deletes ask for `--yes` (a script states its intent; without it the command says what it would
 * delete and changes nothing); a project holding human labels also needs `--force`, which writes
 * the reference label set to a backup folder first (lib/projects/lifecycle.ts).
 */
const lifecycle = () => import("../../lib/projects/lifecycle.ts");
const fmt = (n: number) => n.toLocaleString("en-US");

async function writeLines(lines: AsyncIterable<string>, file?: string): Promise<number> {
  const stream = file ? createWriteStream(file) : process.stdout;
  let n = 0;
  for await (const line of lines) {
    n++;
    if (!stream.write(line)) await once(stream, "drain");
  }
  if (file) {
    stream.end();
    await once(stream, "finish");
  }
  return n;
}

export function registerLifecycle(program: Command): void {
  const chunks = program.command("chunks").description("list or export the project's chunks");
  chunks
    .command("list")
    .description(
      "every chunk: id, video, start, end (seconds) and the first words of its text; --json for the import's JSONL",
    )
    .option("--video <id>", "only this video's chunks")
    .option("--json", "print JSON lines (id, video, start, end, text)")
    .addOption(projectOption())
    .action(async (o: { video?: string; json?: boolean; project?: string }) => {
      const { projectChunks } = await lifecycle();
      await withProject(o.project, async (db, p) => {
        async function* lines() {
          for await (const c of projectChunks(db, p.id, { video: o.video }))
            yield o.json
              ? `${JSON.stringify(c)}\n`
              : `${c.id}\t${c.video}\t${c.start}\t${c.end}\t${c.text.length > 60 ? `${c.text.slice(0, 60)}…` : c.text}\n`;
        }
        const n = await writeLines(lines());
        if (n === 0 && !o.json)
          out("no chunks (import some with: npx assessor import chunks FILE, or import transcript)");
      });
    });
  chunks
    .command("export")
    .description(
      "the chunks as JSONL in the chunk import's format (id, video, start, end, text): what an indexer reads, and what `import chunks` takes back",
    )
    .addOption(new Option("--format <format>", "file format").choices(["jsonl"]).default("jsonl"))
    .option("--video <id>", "only this video's chunks")
    .option("--out <file>", "write to this file (default: stdout)")
    .addOption(projectOption())
    .action(async (o: { video?: string; out?: string; project?: string }) => {
      const { projectChunks } = await lifecycle();
      await withProject(o.project, async (db, p) => {
        async function* lines() {
          for await (const c of projectChunks(db, p.id, { video: o.video })) yield `${JSON.stringify(c)}\n`;
        }
        const n = await writeLines(lines(), o.out);
        if (o.out) out(`wrote ${fmt(n)} chunks to ${o.out}`);
      });
    });

  const chunking = program
    .command("chunking")
    .description("the project's chunkings (ways of cutting its transcripts into chunks)");
  registerChunkingReport(chunking);
  chunking
    .command("list")
    .description("every chunking: name, method (imported | seconds | words), size, overlap, chunks, runs")
    .option("--json", "print JSON lines")
    .addOption(projectOption())
    .action(async (o: { json?: boolean; project?: string }) => {
      const { listChunkings } = await import("../../lib/chunkings/store.ts");
      await withProject(o.project, async (db, p) => {
        const rows = await listChunkings(db, p.id);
        if (o.json) {
          for (const c of rows)
            out(
              JSON.stringify({
                name: c.name,
                method: c.method,
                size: c.size,
                overlap: c.overlap,
                chunks: c.chunks,
                runs: c.runs.map((r) => r.system),
              }),
            );
          return;
        }
        if (rows.length === 0) return out("no chunkings (import chunks or transcripts to make one)");
        out(["name", "method", "size", "overlap", "chunks", "runs"].join("\t"));
        for (const c of rows)
          out(
            [
              c.name,
              c.method,
              c.size ?? "-",
              c.overlap ?? "-",
              fmt(c.chunks),
              c.runs.map((r) => r.system).join(",") || "-",
            ].join("\t"),
          );
      });
    });
  chunking
    .command("export")
    .description(
      "one chunking's chunks as JSONL in the chunk import's format (id, video, start, end, text): what an indexer reads",
    )
    .argument("<name>", "the chunking")
    .addOption(new Option("--format <format>", "file format").choices(["jsonl"]).default("jsonl"))
    .option("--out <file>", "write to this file (default: stdout)")
    .addOption(projectOption())
    .action(async (name: string, o: { out?: string; project?: string }) => {
      const [{ projectChunks }, { findChunking }] = await Promise.all([
        lifecycle(),
        import("../../lib/chunkings/store.ts"),
      ]);
      await withProject(o.project, async (db, p) => {
        const c = await findChunking(db, p.id, name);
        async function* lines() {
          for await (const row of projectChunks(db, p.id, { chunkingId: c.id })) yield `${JSON.stringify(row)}\n`;
        }
        const n = await writeLines(lines(), o.out);
        if (o.out) out(`wrote ${fmt(n)} chunks of chunking ${name} to ${o.out}`);
      });
    });

  registerChunkingCommands(chunking);

  const run = program.command("run").description("list or delete the project's runs");
  run
    .command("list")
    .description("every run: system, entries, questions, pooled items it contributed, content hash, import time")
    .option("--json", "print JSON lines")
    .addOption(projectOption())
    .action(async (o: { json?: boolean; project?: string }) => {
      const { listRuns } = await lifecycle();
      await withProject(o.project, async (db, p) => {
        const runs = await listRuns(db, p.id);
        for (const r of runs)
          out(
            o.json
              ? JSON.stringify({ ...r, createdAt: r.createdAt.toISOString() })
              : `${r.system}\t${fmt(r.entries)} entries\t${fmt(r.queries)} questions\t${fmt(r.pooled)} pooled\t${r.contentHash.slice(0, 12)}\t${r.createdAt.toISOString()}${r.description ? `\t${r.description}` : ""}`,
          );
        if (runs.length === 0 && !o.json) out("no runs (import one with: npx assessor import run --system NAME FILE)");
      });
    });
  run
    .command("delete")
    .description("delete a run (its entries and pool provenance); the pool items it brought and their labels stay")
    .argument("<system>", "the run's system name")
    .option("--yes", "really delete (without it: say what would be deleted, change nothing)")
    .addOption(projectOption())
    .action(async (system: string, o: { yes?: boolean; project?: string }) => {
      const { findRunListing, deleteRun } = await lifecycle();
      await withProject(o.project, async (db, p) => {
        if (!o.yes) {
          const r = await findRunListing(db, p.id, system);
          throw new AppError(
            "bad_input",
            `would delete run ${system} of project ${p.name} (${fmt(r.entries)} entries, ${fmt(r.pooled)} pool provenance rows; its pool items and labels stay): run again with --yes`,
          );
        }
        const r = await deleteRun(db, p.id, system);
        out(
          `deleted run ${r.system} of project ${p.name}: ${fmt(r.entries)} entries, ${fmt(r.pooled)} pool provenance rows (pool items and their labels kept)`,
        );
      });
    });
}

/** `assessor project delete NAME [--yes] [--force] [--backup-dir DIR]`, registered under `project`. */
export function registerProjectDelete(project: Command): void {
  project
    .command("delete")
    .description(
      "delete a project and everything in it; refused while it holds human labels unless --force, which first writes them to a backup folder",
    )
    .argument("<name>", "the project's name (as a confirmation)")
    .option("--yes", "really delete (without it: say what would be deleted, change nothing)")
    .option(
      "--force",
      "delete even when human labels would be lost, after writing the reference label set (qrels and JSONL with version sidecars) to --backup-dir",
    )
    .option("--backup-dir <dir>", "where --force writes the backup (default: ./assessor-backup-<project>-<time>)")
    .action(async (name: string, o: { yes?: boolean; force?: boolean; backupDir?: string }) => {
      const { projectContents, describeContents, humanLabels, deleteProject } = await lifecycle();
      const { resolveProject } = await import("../../lib/projects/resolve.ts");
      await withDb(async (db) => {
        const p = await resolveProject(db, name);
        const c = await projectContents(db, p.id);
        if (!o.yes) {
          const labels = humanLabels(c);
          throw new AppError(
            "bad_input",
            `would delete project ${p.name}: ${describeContents(c)}. Run again with --yes${labels > 0 ? ` --force (it holds ${fmt(labels)} human labels: --force writes them to a backup folder first)` : ""}`,
          );
        }
        const r = await deleteProject(db, p.id, { force: o.force, backupDir: o.backupDir });
        if (r.backup.length)
          out(`wrote the reference label set to ${r.backup.filter((f) => !f.endsWith(".version.json")).join(" and ")}`);
        out(`deleted project ${r.name}: ${describeContents(r.contents)}`);
      });
    });
}
