import { z } from "zod";

/**
 * The imports the lead can upload, mirroring `assessor import …`: the options each takes, as
 * query-string parameters of POST /api/lead/projects/:id/imports/:kind (the body is the file).
 * Shared by the upload form and the route handler.
 */
const optionalNumber = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === "") return undefined;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) {
      ctx.addIssue({ code: "custom", message: `expected a non-negative number, got "${v}"` });
      return z.NEVER;
    }
    return n;
  });

const name = z.string().trim().min(1, "required").max(500);
/** The chunking (lib/chunkings): chunks and transcripts go into it (default `default`); a run's is recognised when empty. */
const chunking = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

/** A checkbox: present ("on", "true", "1") or absent. */
const flag = z
  .string()
  .optional()
  .transform((v) => v !== undefined && ["on", "true", "1", "yes"].includes(v.trim().toLowerCase()));

export const ZImportOptions = {
  videos: z.object({ name }),
  chunks: z.object({ name, chunking }),
  transcript: z
    .object({
      name,
      chunking,
      video: z.string().trim().min(1, "name the video the transcript belongs to"),
      chunkSeconds: optionalNumber,
      overlapSeconds: optionalNumber,
      chunkWords: optionalNumber,
      overlapWords: optionalNumber,
      repair: z.enum(["fail", "clip", "skip"]).optional(),
    })
    // The same rules as `assessor import transcript` (bin/commands/import.ts).
    .refine(
      (o) =>
        !(
          (o.chunkSeconds !== undefined || o.overlapSeconds !== undefined) &&
          (o.chunkWords !== undefined || o.overlapWords !== undefined)
        ),
      {
        message: "chunk by seconds or by words, not both",
        path: ["chunkWords"],
      },
    )
    .refine((o) => o.overlapSeconds === undefined || o.chunkSeconds !== undefined, {
      message: "an overlap in seconds needs a chunk size in seconds",
      path: ["overlapSeconds"],
    })
    .refine((o) => o.overlapWords === undefined || o.chunkWords !== undefined, {
      message: "an overlap in words needs a chunk size in words",
      path: ["overlapWords"],
    }),
  queries: z.object({ name }),
  run: z.object({
    name,
    system: z.string().trim().min(1, "a run needs a system name"),
    description: z.string().optional(),
    chunking,
  }),
  labels: z.object({ name, source: z.string().trim().min(1, "name the source of these labels") }),
  judge: z.object({ name, judge: z.string().trim().min(1, "name the judge") }),
  /** A generator's answers (lib/answers/import.ts): the system is the generator configuration. */
  answers: z
    .object({
      name,
      system: z.string().trim().min(1, "answers need a system name (the generator configuration)"),
      chunking,
      replace: flag,
      force: flag,
    })
    .refine((o) => !o.force || o.replace, {
      message: "replacing labelled answers needs “replace changed answers” too",
      path: ["force"],
    }),
} as const;

export type TImportKind = keyof typeof ZImportOptions;
export const IMPORT_KINDS = Object.keys(ZImportOptions) as TImportKind[];

export function isImportKind(v: unknown): v is TImportKind {
  return typeof v === "string" && (IMPORT_KINDS as string[]).includes(v);
}

export const IMPORT_LABELS: Record<TImportKind, { title: string; accept: string; help: string }> = {
  videos: { title: "Videos", accept: ".jsonl,.csv,.json", help: "JSONL or CSV: id, title, url or path, duration" },
  chunks: { title: "Chunks", accept: ".jsonl,.json", help: "JSONL: id, video, start, end, text" },
  transcript: {
    title: "Transcript",
    accept: ".vtt,.srt,.json,.json3",
    help: "WebVTT, SRT or YouTube json3, cut into chunks",
  },
  queries: {
    title: "Queries",
    accept: ".jsonl,.tsv,.json",
    help: "JSONL or TSV: id, text, optional reference start and video, tags",
  },
  run: { title: "Run", accept: ".txt,.run,.trec,*", help: "TREC run: qid Q0 docid rank score tag" },
  labels: {
    title: "Reference labels",
    accept: ".txt,.qrels,.jsonl,*",
    help: "TREC qrels (qid 0 docid grade) or JSONL with start",
  },
  judge: {
    title: "Judge labels",
    accept: ".txt,.qrels,.jsonl,*",
    help: "TREC qrels or JSONL with grade and optional rationale",
  },
  answers: {
    title: "Answers",
    accept: ".jsonl,.json",
    help: "JSONL: qid, answer, context (chunk ids given to the model, in order), optional citations",
  },
};
