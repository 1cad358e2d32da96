import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { ChunkOptions } from "../formats/chunker.ts";
import {
  importChunks,
  importJudgeLabels,
  importQueries,
  importReferenceLabels,
  importRun,
  importTranscript,
  importVideos,
  type ImportResult,
} from "../imports/index.ts";
import { importAnswers } from "../answers/import.ts";
import { isImportKind, ZImportOptions, type TImportKind } from "./import-kinds.ts";

/**
 * An upload from the lead's page, through the same importers as `assessor import …`: the kind
 * and its options come from the URL, the file's bytes from the body.
 */
export async function importUpload(
  db: Db,
  projectId: number,
  kind: string,
  rawOptions: Record<string, string>,
  bytes: Buffer,
): Promise<ImportResult> {
  if (!isImportKind(kind))
    throw new AppError("not_found", `no import of kind "${kind}"; kinds: ${Object.keys(ZImportOptions).join(", ")}`);
  const k: TImportKind = kind;
  const parsed = ZImportOptions[k].safeParse(rawOptions);
  if (!parsed.success)
    throw new AppError(
      "bad_input",
      parsed.error.issues.map((i) => `${i.path.join(".") || "options"}: ${i.message}`).join("; "),
      parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
    );
  const input = { name: parsed.data.name, bytes };
  switch (k) {
    case "videos":
      return importVideos(db, projectId, input);
    case "chunks":
      return importChunks(db, projectId, input, { chunking: ZImportOptions.chunks.parse(rawOptions).chunking });
    case "queries":
      return importQueries(db, projectId, input);
    case "transcript": {
      const o = ZImportOptions.transcript.parse(rawOptions);
      const chunking: ChunkOptions | undefined =
        o.chunkWords !== undefined
          ? { by: "words", size: o.chunkWords, overlap: o.overlapWords ?? 0 }
          : o.chunkSeconds !== undefined
            ? { by: "seconds", size: o.chunkSeconds, overlap: o.overlapSeconds ?? 0 }
            : undefined;
      return importTranscript(db, projectId, input, {
        video: o.video,
        chunking,
        chunkingName: o.chunking,
        repair: o.repair,
      });
    }
    case "run": {
      const o = ZImportOptions.run.parse(rawOptions);
      return importRun(db, projectId, input, { system: o.system, description: o.description, chunking: o.chunking });
    }
    case "labels": {
      const o = ZImportOptions.labels.parse(rawOptions);
      return importReferenceLabels(db, projectId, input, { source: o.source });
    }
    case "judge": {
      const o = ZImportOptions.judge.parse(rawOptions);
      return importJudgeLabels(db, projectId, input, { judge: o.judge });
    }
    case "answers": {
      const o = ZImportOptions.answers.parse(rawOptions);
      return importAnswers(
        db,
        projectId,
        { system: o.system, fileName: input.name, text: bytes },
        { chunking: o.chunking, replace: o.replace, force: o.force },
      );
    }
  }
}
