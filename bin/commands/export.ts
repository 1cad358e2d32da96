import { writeFileSync } from "node:fs";
import { Option, type Command } from "commander";
import { out, projectOption, withProject } from "../context.ts";
import type { TExportFormat } from "../../lib/exports/labels.ts";

async function runExport(
  format: TExportFormat,
  opts: { out?: string; project?: string; chunking?: string; names?: boolean },
): Promise<void> {
  const [{ exportLabels, sidecarText, versionLine }, { findChunking }] = await Promise.all([
    import("../../lib/exports/labels.ts"),
    import("../../lib/chunkings/store.ts"),
  ]);
  await withProject(opts.project, async (db, project) => {
    const chunking = opts.chunking === undefined ? undefined : await findChunking(db, project.id, opts.chunking);
    // qrels: one chunking's labels (lib/exports/labels.ts qrelsChunking); JSONL and CSV: all, each row naming its chunking.
    const e = await exportLabels(db, project.id, format, new Date(), {
      chunkingId: chunking?.id,
      names: opts.names,
    });
    if (e.note) process.stderr.write(`note: ${e.note}\n`);
    const v = e.version;
    if (opts.out) {
      writeFileSync(opts.out, e.content);
      writeFileSync(`${opts.out}.version.json`, sidecarText(e, format));
      out(
        `wrote ${v.labels} label(s) to ${opts.out}; label set ${v.sha256} at ${v.created_at} (${opts.out}.version.json)`,
      );
    } else {
      process.stdout.write(e.content);
      if (format !== "jsonl") process.stderr.write(versionLine(v));
    }
  });
}

async function runQuestionsExport(opts: {
  format: "jsonl" | "csv" | "tsv" | "trec";
  status: "accepted" | "draft" | "rejected" | "all";
  out?: string;
  project?: string;
}): Promise<void> {
  const { exportQuestions } = await import("../../lib/questions/export.ts");
  await withProject(opts.project, async (db, project) => {
    const e = await exportQuestions(db, project.id, opts.format, opts.status);
    if (opts.out) {
      writeFileSync(opts.out, e.content);
      out(`wrote ${e.count} question(s) to ${opts.out}`);
    } else process.stdout.write(e.content);
  });
}

async function runAnswersExport(opts: {
  format: "jsonl" | "csv";
  claims?: boolean;
  answers?: boolean;
  system?: string;
  out?: string;
  project?: string;
  names?: boolean;
}): Promise<void> {
  const { exportAnswerLabels, answerSidecarText, answerVersionLine } = await import("../../lib/answers/export.ts");
  const { AppError } = await import("../../lib/errors.ts");
  if (opts.claims && opts.answers)
    throw new AppError(
      "bad_input",
      "--claims and --answers: choose one (claims: one row per claim; answers: one row per answer)",
    );
  const kind = opts.answers ? "answers" : "claims";
  await withProject(opts.project, async (db, project) => {
    const e = await exportAnswerLabels(db, project.id, kind, opts.format, new Date(), {
      system: opts.system,
      names: opts.names,
    });
    const v = e.version;
    if (opts.out) {
      writeFileSync(opts.out, e.content);
      writeFileSync(`${opts.out}.version.json`, answerSidecarText(e, opts.format));
      out(
        `wrote ${v.rows} ${kind === "claims" ? "claim" : "answer"} label(s) to ${opts.out}; label set ${v.sha256} at ${v.created_at} (${opts.out}.version.json)`,
      );
    } else {
      process.stdout.write(e.content);
      if (opts.format !== "jsonl") process.stderr.write(answerVersionLine(v));
    }
  });
}

export function registerExport(program: Command): void {
  const exp = program
    .command("export")
    .description("export the reference label set (agreed, adjudicated, imported), with its version");
  exp
    .command("qrels")
    .description("TREC qrels (qid 0 docid grade); the version goes to <out>.version.json, or to stderr when printing")
    .option("--out <file>", "write to this file (default: stdout)")
    .option(
      "--chunking <name>",
      "the labels of this chunking's chunks (default: the only chunking, or `default` when there are several: a qrels file is for one chunking's runs)",
    )
    .addOption(projectOption())
    .action((opts: { out?: string; project?: string; chunking?: string }) => runExport("qrels", opts));
  exp
    .command("labels")
    .description(
      "labels with grade, corrected start, status, annotators, source, and where they are: video, chunk start and end, chunking, flags, notes, revision, end; last, who labelled (pseudonymous ids, --names for names) and under which guidelines revision; JSONL's first line carries the version (CSV: <out>.version.json, or stderr)",
    )
    .addOption(new Option("--format <format>", "file format").choices(["jsonl", "csv"]).default("jsonl"))
    .option("--out <file>", "write to this file (default: stdout); also writes <out>.version.json")
    .option("--chunking <name>", "only the labels of this chunking's chunks (default: all chunkings)")
    .option(
      "--names",
      "name the people who labelled (default: pseudonymous ids annotator-XXXXXXXX, as the annotators report)",
    )
    .addOption(projectOption())
    .action((opts: { format: "jsonl" | "csv"; out?: string; project?: string; chunking?: string; names?: boolean }) =>
      runExport(opts.format, opts),
    );
  exp
    .command("answers")
    .description(
      "generated answers' reference labels (agreed or adjudicated): --claims (default) one row per claim with its label s/p/n/x, --answers one row per answer with relevance and faithfulness; status, annotators, revision, flags, notes; last, who labelled (pseudonymous ids, --names for names) and under which guidelines revision; the version as for labels",
    )
    .addOption(new Option("--format <format>", "file format").choices(["jsonl", "csv"]).default("jsonl"))
    .option("--claims", "one row per claim (the default)")
    .option("--answers", "one row per answer")
    .option("--system <name>", "only this system's answers")
    .option("--out <file>", "write to this file (default: stdout); also writes <out>.version.json")
    .option(
      "--names",
      "name the people who labelled (default: pseudonymous ids annotator-XXXXXXXX, as the annotators report)",
    )
    .addOption(projectOption())
    .action(
      (opts: {
        format: "jsonl" | "csv";
        claims?: boolean;
        answers?: boolean;
        system?: string;
        out?: string;
        project?: string;
        names?: boolean;
      }) => runAnswersExport(opts),
    );
  exp
    .command("questions")
    .description(
      "questions with answer places, tags, author and status (jsonl, csv, tsv), or TREC topics (trec): the file retrievers read",
    )
    .addOption(new Option("--format <format>", "file format").choices(["jsonl", "csv", "tsv", "trec"]).default("jsonl"))
    .addOption(
      new Option("--status <status>", "which questions")
        .choices(["accepted", "draft", "rejected", "all"])
        .default("accepted"),
    )
    .option("--out <file>", "write to this file (default: stdout)")
    .addOption(projectOption())
    .action(
      (opts: {
        format: "jsonl" | "csv" | "tsv" | "trec";
        status: "accepted" | "draft" | "rejected" | "all";
        out?: string;
        project?: string;
      }) => runQuestionsExport(opts),
    );
}
