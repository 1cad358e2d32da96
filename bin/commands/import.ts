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
  if (v.trim() === "" || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`expected a number of 0 or more, got "${v}"`);
  return n;
}

/** A terminal progress bar for imports big enough to need one; nothing when stderr is not a TTY. */
async function progress(): Promise<{ onProgress: ImportOptions["onProgress"]; stop: () => void }> {
  if (!process.stderr.isTTY) return { onProgress: undefined, stop: () => {} };
  const { SingleBar, Presets } = await import("cli-progress");
  const bar = new SingleBar({ stream: process.stderr, format: "writing [{bar}] {percentage}% {value}/{total} rows", hideCursor: true, clearOnComplete: true }, Presets.shades_classic);
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

async function run(project: string | undefined, fn: (db: Parameters<Parameters<typeof withProject>[1]>[0], projectId: number, o: ImportOptions) => Promise<ImportResult>, summary: (r: ImportResult, seconds: string) => string, extra?: (r: ImportResult) => void) {
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
  `imported ${fmt(r.rows)} ${noun} from ${r.file}: ${fmt(r.created)} new, ${fmt(r.updated)} changed, ${fmt(r.unchanged)} unchanged (${s} s)`;

const lib = () => import("../../lib/imports/index.ts");

export function registerImport(program: Command): void {
  const imp = program.command("import").description("import videos, chunks, transcripts, queries, runs, reference labels and judge labels");

  imp
    .command("videos")
    .description("import videos from JSONL or CSV (id, title, url or path, duration in seconds)")
    .argument("<file>", "a .jsonl or .csv file")
    .addOption(projectOption())
    .action(async (file: string, o: { project?: string }) => {
      const { importVideos } = await lib();
      await run(o.project, (db, id, po) => importVideos(db, id, file, po), counts("videos"));
    });

  imp
    .command("chunks")
    .description("import chunks from JSONL (id, video, start, end, text; times in seconds)")
    .argument("<file>", "a .jsonl file")
    .addOption(projectOption())
    .action(async (file: string, o: { project?: string }) => {
      const { importChunks } = await lib();
      await run(o.project, (db, id, po) => importChunks(db, id, file, po), counts("chunks"));
    });

  imp
    .command("transcript")
    .description(
      "cut a transcript (WebVTT, SRT or YouTube json3) of one video into chunks and import them; prints the chunk ids (<video>_<startMs>-<endMs>, stable for the same file and options). Default: --chunk-seconds 60 --overlap-seconds 15",
    )
    .argument("<file>", "a .vtt, .srt or .json3 file (other names are sniffed)")
    .requiredOption("--video <id>", "the video the transcript belongs to (already imported)")
    .option("--chunk-seconds <s>", "chunk length in seconds", nonNegative)
    .option("--overlap-seconds <s>", "overlap between consecutive chunks in seconds (default 0 with --chunk-seconds)", nonNegative)
    .option("--chunk-words <n>", "chunk length in words", nonNegative)
    .option("--overlap-words <n>", "overlap between consecutive chunks in words (default 0)", nonNegative)
    .addOption(new Option("--format <format>", "caption format (default: by extension, else sniffed)").choices(["vtt", "srt", "json3"]))
    .addOption(projectOption())
    .action(
      async (
        file: string,
        o: { project?: string; video: string; chunkSeconds?: number; overlapSeconds?: number; chunkWords?: number; overlapWords?: number; format?: "vtt" | "srt" | "json3" },
      ) => {
        const bySeconds = o.chunkSeconds !== undefined || o.overlapSeconds !== undefined;
        const byWords = o.chunkWords !== undefined || o.overlapWords !== undefined;
        if (bySeconds && byWords) throw new AppError("bad_input", "chunk by seconds (--chunk-seconds/--overlap-seconds) or by words (--chunk-words/--overlap-words), not both");
        if (o.overlapSeconds !== undefined && o.chunkSeconds === undefined) throw new AppError("bad_input", "--overlap-seconds needs --chunk-seconds");
        if (o.overlapWords !== undefined && o.chunkWords === undefined) throw new AppError("bad_input", "--overlap-words needs --chunk-words");
        const chunking: ChunkOptions | undefined = byWords
          ? { by: "words", size: o.chunkWords!, overlap: o.overlapWords ?? 0 }
          : bySeconds
            ? { by: "seconds", size: o.chunkSeconds!, overlap: o.overlapSeconds ?? 0 }
            : undefined;
        const { importTranscript } = await lib();
        await run(
          o.project,
          (db, id, po) => importTranscript(db, id, file, { ...po, video: o.video, chunking, format: o.format }),
          (r, s) => `imported ${fmt(r.rows)} chunks of video ${o.video} from ${r.file}: ${fmt(r.created)} new, ${fmt(r.updated)} changed, ${fmt(r.unchanged)} unchanged (${s} s)`,
          (r) => {
            for (const c of r.chunkIds ?? []) out(c);
          },
        );
      },
    );

  imp
    .command("queries")
    .description("import queries from JSONL or TSV (id, text, optional author, start (reference start seconds), video, tags)")
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
    .addOption(projectOption())
    .action(async (file: string, o: { project?: string; system: string; description?: string; replace?: boolean }) => {
      const { importRun } = await lib();
      await run(
        o.project,
        (db, id, po) => importRun(db, id, file, { ...po, system: o.system, description: o.description, replace: o.replace }),
        (r, s) =>
          r.created
            ? `imported ${fmt(r.created)} run entries for system ${o.system} (${s} s)`
            : r.updated
              ? `replaced the run of system ${o.system}: ${fmt(r.updated)} run entries (${s} s)`
              : `run of system ${o.system} unchanged: ${r.file} was already imported (${fmt(r.unchanged)} run entries) (${s} s)`,
      );
    });

  imp
    .command("labels")
    .description("import existing human labels as reference labels: TREC qrels (qid 0 docid grade) or JSONL (query, chunk, grade 0-3, start)")
    .argument("<file>", "a qrels or .jsonl file")
    .requiredOption("--source <name>", "where these labels come from")
    .option("--clip", "map qrels grades outside 0-3 into 0-3 instead of refusing the file")
    .addOption(projectOption())
    .action(async (file: string, o: { project?: string; source: string; clip?: boolean }) => {
      const { importReferenceLabels } = await lib();
      await run(o.project, (db, id, po) => importReferenceLabels(db, id, file, { ...po, source: o.source, clip: o.clip }), counts(`reference labels (source ${o.source})`));
    });

  imp
    .command("judge")
    .description("import LLM-judge labels: TREC qrels (qid 0 docid grade) or JSONL (query, chunk, grade 0-3, rationale)")
    .argument("<file>", "a qrels or .jsonl file")
    .requiredOption("--judge <name>", "the judge's name (model and prompt)")
    .option("--clip", "map qrels grades outside 0-3 into 0-3 instead of refusing the file")
    .addOption(projectOption())
    .action(async (file: string, o: { project?: string; judge: string; clip?: boolean }) => {
      const { importJudgeLabels } = await lib();
      await run(o.project, (db, id, po) => importJudgeLabels(db, id, file, { ...po, judge: o.judge, clip: o.clip }), counts(`judge labels (judge ${o.judge})`));
    });
}
