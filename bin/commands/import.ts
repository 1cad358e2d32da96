import { Command, InvalidArgumentError, Option } from "commander";
import type { ImportOptions, ImportResult } from "../../lib/imports/input.ts";
import type { ChunkOptions } from "../../lib/formats/chunker.ts";
import { AppError } from "../../lib/errors.ts";
import { out, projectOption, withProject } from "../context.ts";

/**
 * `assessor import videos|chunks|transcript|queries|run|labels|judge`. Each validates the whole
 * file first (errors name file, line, field and what was expected; exit 1, nothing written), then
 * writes it in one transaction and prints one summary line. A progress bar goes to stderr when it
 * is a terminal. The importers themselves live in lib/imports (shared with the upload route).
 */
const fmt = (n: number) => n.toLocaleString("en-US");

function nonNegative(v: string): number {
  const n = Number(v);
  if (v.trim() === "" || !Number.isFinite(n) || n < 0)
    throw new InvalidArgumentError(`expected a number of 0 or more, got "${v}"`);
  return n;
}

/** A terminal progress bar for imports big enough to need one; nothing when stderr is not a TTY. */
async function progress(): Promise<{ onProgress: ImportOptions["onProgress"]; stop: () => void }> {
  if (!process.stderr.isTTY) return { onProgress: undefined, stop: () => {} };
  const { SingleBar, Presets } = await import("cli-progress");
  const bar = new SingleBar(
    {
      stream: process.stderr,
      format: "writing [{bar}] {percentage}% {value}/{total} rows",
      hideCursor: true,
      clearOnComplete: true,
    },
    Presets.shades_classic,
  );
  let started = false;
  return {
    onProgress: (done, total) => {
      if (total < 10_000) return;
      if (!started) {
        bar.start(total, 0);
        started = true;
      }
      bar.update(done);
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}

async function run(
  project: string | undefined,
  fn: (
    db: Parameters<Parameters<typeof withProject>[1]>[0],
    projectId: number,
    o: ImportOptions,
  ) => Promise<ImportResult>,
  summary: (r: ImportResult, seconds: string) => string,
  extra?: (r: ImportResult) => void,
) {
  const t0 = performance.now();
  const bar = await progress();
  let result: ImportResult;
  try {
    result = await withProject(project, (db, p) => fn(db, p.id, { onProgress: bar.onProgress }));
  } finally {
    bar.stop();
  }
  extra?.(result);
  out(summary(result, ((performance.now() - t0) / 1000).toFixed(1)));
}

const counts = (noun: string) => (r: ImportResult, s: string) =>
  `imported ${fmt(r.rows)} ${noun} from ${r.file}: ${fmt(r.created)} new, ${fmt(r.updated)} changed, ${fmt(r.unchanged)} unchanged${r.released ? `; ${fmt(r.released)} pooled item(s) left the annotation queue (assignments released)` : ""} (${s} s)`;

const lib = () => import("../../lib/imports/index.ts");

export function registerImport(program: Command): void {
  const imp = program
    .command("import")
    .description(
      "import videos, chunks, transcripts, queries, runs, reference labels, judge labels and generated answers",
    );

  imp
    .command("query-log")
    .description(
      "a query log (JSONL or CSV: text, time, optional user and count) into draft questions tagged log: normalised (case, white space, punctuation), deduplicated, optionally sampled",
    )
    .argument("<file>", "a .jsonl or .csv file")
    .option("--sample <n>", "keep N distinct queries", nonNegative)
    .addOption(
      new Option("--strategy <strategy>", "frequency: weighted by count; stratified: equal shares of frequency decades")
        .choices(["frequency", "stratified"])
        .default("frequency"),
    )
    .option("--seed <n>", "random seed of the sample", nonNegative, 1)
    .addOption(projectOption())
    .action(
      async (
        file: string,
        o: { project?: string; sample?: number; strategy: "frequency" | "stratified"; seed: number },
      ) => {
        const { importQueryLog } = await import("../../lib/questions/log-import.ts");
        const t0 = performance.now();
        const r = await withProject(o.project, (db, p) =>
          importQueryLog(db, p.id, file, { sample: o.sample, strategy: o.strategy, seed: o.seed }),
        );
        const s = ((performance.now() - t0) / 1000).toFixed(1);
        out(
          `imported query log ${r.file}: ${fmt(r.lines)} lines, ${fmt(r.distinct)} distinct queries, ${fmt(r.sampled)} sampled, ${fmt(r.created)} draft questions tagged log, ${fmt(r.skippedExisting)} already questions (${s} s)`,
        );
      },
    );

  imp
    .command("videos")
    .description(
      "import videos from JSONL or CSV (id, title, url or path or neither for transcript-only, duration in seconds)",
    )
    .argument("<file>", "a .jsonl or .csv file")
    .addOption(projectOption())
    .action(async (file: string, o: { project?: string }) => {
      const [{ importVideos }, { formatLocated }] = await Promise.all([lib(), import("../../lib/errors.ts")]);
      const warned = (r: ImportResult, s: string) =>
        `${counts("videos")(r, s)}${r.warnings?.length ? `; ${fmt(r.warnings.length)} warning${r.warnings.length === 1 ? "" : "s"}` : ""}`;
      await run(
        o.project,
        (db, id, po) => importVideos(db, id, file, po),
        warned,
        (r) => {
          for (const w of r.warnings ?? []) process.stderr.write(`warning: ${formatLocated(w)}\n`);
        },
      );
    });

  imp
    .command("chunks")
    .description("import chunks from JSONL (id, video, start, end, text; times in seconds)")
    .argument("<file>", "a .jsonl file")
    .option(
      "--chunking <name>",
      "the chunking these chunks belong to (created, as imported chunks, when new)",
      "default",
    )
    .addOption(projectOption())
    .action(async (file: string, o: { project?: string; chunking: string }) => {
      const { importChunks } = await lib();
      await run(
        o.project,
        (db, id, po) => importChunks(db, id, file, { ...po, chunking: o.chunking }),
        counts(o.chunking === "default" ? "chunks" : `chunks (chunking ${o.chunking})`),
      );
    });

  imp
    .command("transcript")
    .description(
      "cut transcripts (WebVTT, SRT or YouTube json3) into chunks and import them: files or folders (a folder's .vtt/.srt/.json3/.json files); each file's video is --video (one file), a --map file, or the file's name (talk7.vtt → video talk7). All files are checked before any is written; prints the chunk ids (<video>_<startMs>-<endMs>, stable for the same file and options) and one line per file. Default: --chunk-seconds 60 --overlap-seconds 15",
    )
    .argument("<files...>", ".vtt, .srt or .json3 files, or folders of them (other names are sniffed)")
    .option("--video <id>", "the video of the one transcript given (already imported)")
    .option(
      "--chunking <name>",
      "the chunking the chunks go into: created with this cut's method, size and overlap when new; an existing one must have been cut the same way",
      "default",
    )
    .option(
      "--map <file>",
      "CSV (or .tsv) with a header file,video naming each file's video (by its name or its path as given)",
    )
    .option("--chunk-seconds <s>", "chunk length in seconds", nonNegative)
    .option(
      "--overlap-seconds <s>",
      "overlap between consecutive chunks in seconds (default 0 with --chunk-seconds)",
      nonNegative,
    )
    .option("--chunk-words <n>", "chunk length in words", nonNegative)
    .option("--overlap-words <n>", "overlap between consecutive chunks in words (default 0)", nonNegative)
    .addOption(
      new Option("--format <format>", "caption format (default: by extension, else sniffed)").choices([
        "vtt",
        "srt",
        "json3",
      ]),
    )
    .addOption(
      new Option(
        "--repair <policy>",
        "a cue whose end is before its start: fail (list every such cue, write nothing), clip (end := start) or skip (drop it); clip and skip warn at the cue's line",
      )
        .choices(["fail", "clip", "skip"])
        .default("fail"),
    )
    .addOption(projectOption())
    .action(
      async (
        files: string[],
        o: {
          project?: string;
          video?: string;
          map?: string;
          chunkSeconds?: number;
          overlapSeconds?: number;
          chunkWords?: number;
          overlapWords?: number;
          format?: "vtt" | "srt" | "json3";
          repair: "fail" | "clip" | "skip";
          chunking: string;
        },
      ) => {
        const bySeconds = o.chunkSeconds !== undefined || o.overlapSeconds !== undefined;
        const byWords = o.chunkWords !== undefined || o.overlapWords !== undefined;
        if (bySeconds && byWords)
          throw new AppError(
            "bad_input",
            "chunk by seconds (--chunk-seconds/--overlap-seconds) or by words (--chunk-words/--overlap-words), not both",
          );
        if (o.overlapSeconds !== undefined && o.chunkSeconds === undefined)
          throw new AppError("bad_input", "--overlap-seconds needs --chunk-seconds");
        if (o.overlapWords !== undefined && o.chunkWords === undefined)
          throw new AppError("bad_input", "--overlap-words needs --chunk-words");
        if (o.video !== undefined && o.map !== undefined)
          throw new AppError("bad_input", "--video and --map both name videos: use one");
        const chunking: ChunkOptions | undefined = byWords
          ? { by: "words", size: o.chunkWords!, overlap: o.overlapWords ?? 0 }
          : bySeconds
            ? { by: "seconds", size: o.chunkSeconds!, overlap: o.overlapSeconds ?? 0 }
            : undefined;
        const [{ importTranscripts }, { transcriptFiles }, { formatLocated }] = await Promise.all([
          lib(),
          import("../../lib/imports/transcript-files.ts"),
          import("../../lib/errors.ts"),
        ]);
        const t0 = performance.now();
        const bar = await progress();
        let results: (ImportResult & { video: string })[];
        try {
          results = await withProject(o.project, async (db, p) => {
            const videos = new Set(
              (await db.video.findMany({ where: { projectId: p.id }, select: { externalId: true } })).map(
                (v) => v.externalId,
              ),
            );
            const list = await transcriptFiles(files, o, videos);
            const done = await importTranscripts(db, p.id, list, {
              chunking,
              chunkingName: o.chunking,
              format: o.format,
              repair: o.repair,
              onProgress: bar.onProgress,
            });
            return done.map((r, i) => ({ ...r, video: list[i].video }));
          });
        } finally {
          bar.stop();
        }
        const seconds = ((performance.now() - t0) / 1000).toFixed(1);
        for (const r of results) {
          for (const w of r.warnings ?? []) process.stderr.write(`warning: ${formatLocated(w)}\n`);
          for (const c of r.chunkIds ?? []) out(c);
        }
        const warned = (r: ImportResult) =>
          r.warnings?.length ? `, ${fmt(r.warnings.length)} warning${r.warnings.length === 1 ? "" : "s"}` : "";
        for (const r of results)
          out(
            `imported ${fmt(r.rows)} chunks of video ${r.video} from ${r.file}: ${fmt(r.created)} new, ${fmt(r.updated)} changed, ${fmt(r.unchanged)} unchanged${warned(r)}${results.length === 1 ? ` (${seconds} s)` : ""}`,
          );
        if (results.length > 1)
          out(
            `imported ${fmt(results.length)} transcripts, ${fmt(results.reduce((n, r) => n + r.rows, 0))} chunks (${seconds} s)`,
          );
      },
    );

  imp
    .command("queries")
    .description(
      "import queries from JSONL or TSV (id, text, optional author, start (reference start seconds), video, tags)",
    )
    .argument("<file>", "a .jsonl or .tsv file")
    .addOption(projectOption())
    .action(async (file: string, o: { project?: string }) => {
      const { importQueries } = await lib();
      await run(o.project, (db, id, po) => importQueries(db, id, file, po), counts("queries"));
    });

  imp
    .command("run")
    .description("import a TREC run (qid Q0 docid rank score tag) of one system; the same file again changes nothing")
    .argument("<file>", "a TREC run file")
    .requiredOption("--system <name>", "the retrieval system that produced the run")
    .option("--description <text>", "a note about the system or run")
    .option("--replace", "replace the entries of a system that already has a different run")
    .option("--chunking <name>", "the chunking the run's docids belong to (default: recognised from its docids)")
    .addOption(projectOption())
    .action(
      async (
        file: string,
        o: { project?: string; system: string; description?: string; replace?: boolean; chunking?: string },
      ) => {
        const { importRun } = await lib();
        await run(
          o.project,
          (db, id, po) =>
            importRun(db, id, file, {
              ...po,
              system: o.system,
              description: o.description,
              replace: o.replace,
              chunking: o.chunking,
            }),
          (r, s) =>
            r.created
              ? `imported ${fmt(r.created)} run entries for system ${o.system} (${s} s)`
              : r.updated
                ? `replaced the run of system ${o.system}: ${fmt(r.updated)} run entries (${s} s)`
                : `run of system ${o.system} unchanged: ${r.file} was already imported (${fmt(r.unchanged)} run entries) (${s} s)`,
        );
      },
    );

  imp
    .command("labels")
    .description(
      "import existing human labels as reference labels: TREC qrels (qid 0 docid grade) or JSONL (query, chunk, grade 0-3, start)",
    )
    .argument("<file>", "a qrels or .jsonl file")
    .requiredOption("--source <name>", "where these labels come from")
    .option("--clip", "map qrels grades outside 0-3 into 0-3 instead of refusing the file")
    .addOption(projectOption())
    .option("--chunking <name>", "resolve docids within this chunking (needed when two chunkings share a docid)")
    .action(async (file: string, o: { project?: string; source: string; clip?: boolean; chunking?: string }) => {
      const { importReferenceLabels } = await lib();
      await run(
        o.project,
        (db, id, po) =>
          importReferenceLabels(db, id, file, { ...po, source: o.source, clip: o.clip, chunking: o.chunking }),
        counts(`reference labels (source ${o.source})`),
      );
    });

  imp
    .command("judge")
    .description(
      "import LLM-judge labels: TREC qrels (qid 0 docid grade) or JSONL (query, chunk, grade 0-3, rationale)",
    )
    .argument("<file>", "a qrels or .jsonl file")
    .requiredOption("--judge <name>", "the judge's name (model and prompt)")
    .option("--clip", "map qrels grades outside 0-3 into 0-3 instead of refusing the file")
    .addOption(projectOption())
    .option("--chunking <name>", "resolve docids within this chunking (needed when two chunkings share a docid)")
    .action(async (file: string, o: { project?: string; judge: string; clip?: boolean; chunking?: string }) => {
      const { importJudgeLabels } = await lib();
      await run(
        o.project,
        (db, id, po) => importJudgeLabels(db, id, file, { ...po, judge: o.judge, clip: o.clip, chunking: o.chunking }),
        counts(`judge labels (judge ${o.judge})`),
      );
    });
}
