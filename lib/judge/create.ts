/**
 * Starting a judge run: the settings (one zod schema for the CLI and the lead's page), the pairs
 * it judges, and the run with its tasks written in one transaction. Everything that can be wrong
 * is checked before anything is written: the judge name, the template, the subset (an empty pool
 * is an error), the API key's variable (lib/judge/keys.ts), and (by the caller, lib/judge/endpoint.ts preflight) the
 * endpoint and the model.
 */
import { z } from "zod";
import type { Db, JudgeRun } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { zInt32 } from "../bounds.ts";
import { referenceLabels } from "../labels/reference.ts";
import { answerSubsetName, parseAnswerSubset, selectAnswers } from "./answers-select.ts";
import { DEFAULT_ANSWER_TEMPLATE, validateAnswerTemplate } from "./answers-template.ts";
import { publicBaseUrl } from "./endpoint.ts";
import { TEMPLATE_MAX_CHARS, templateTooLong } from "./placeholders.ts";
import { DEFAULT_TEMPLATE, sha256, validateTemplate } from "./template.ts";
import { action, field, say } from "../terms.ts";
import type { TProbeSpec } from "./probe/spec.ts";

export const ZRunSettings = z.object({
  judge: z.string().trim().min(1).max(100).regex(/^\S+$/, "a name without spaces"),
  model: z.string().trim().min(1).max(200),
  /** What the run judges: question–chunk pairs (JudgeTask) or generated answers (AnswerJudgeTask, lib/judge/answers-kind.ts). */
  target: z.enum(["chunks", "answers"]).default("chunks"),
  baseUrl: z.string().trim().min(1),
  /** The environment variable holding the key (lib/judge/keys.ts says which names are allowed); "" for a server without keys. */
  apiKeyEnv: z
    .string()
    .trim()
    .regex(/^(?:[A-Za-z_][A-Za-z0-9_]*)?$/, "an environment variable's name, or empty for no key")
    .default("OPENAI_API_KEY"),
  template: z.string().max(TEMPLATE_MAX_CHARS, templateTooLong(TEMPLATE_MAX_CHARS, "a run or a try")).optional(),
  templateFile: z.string().default("template"),
  samples: z.number().int().min(1).max(20).default(1),
  temperature: z.number().min(0).max(2).default(0),
  concurrency: z.number().int().min(1).max(256).default(8),
  maxTokens: z.number().int().min(1).max(32_000).default(512),
  timeoutMs: z.number().int().min(100).max(600_000).default(60_000),
  maxRetries: z.number().int().min(0).max(20).default(4),
  parseRetries: z.number().int().min(0).max(10).default(2),
  maxConsecutiveFailures: z.number().int().min(1).max(10_000).default(10),
  structured: z.boolean().default(true),
  /** The subset: chunks pool | unlabelled | calibration | tag:NAME (default pool); answers answers-select.ts (default all). */
  only: z.string().trim().min(1).optional(),
  limit: zInt32(1).optional(),
  maxCost: z.number().positive().optional(),
  priceIn: z.number().min(0).optional(),
  priceOut: z.number().min(0).optional(),
});
export type TRunSettingsInput = z.input<typeof ZRunSettings>;
/** The settings with the subset resolved: `only` defaults to "pool" for chunks and "all" for answers. */
export type TRunSettings = z.output<typeof ZRunSettings> & { only: string };

/** What is stored in JudgeRun.params (and keys the response cache, with the model and template). */
export type TRunParams = Pick<
  TRunSettings,
  | "temperature"
  | "samples"
  | "maxTokens"
  | "timeoutMs"
  | "concurrency"
  | "maxRetries"
  | "parseRetries"
  | "maxConsecutiveFailures"
  | "structured"
> & {
  limit: number | null;
  /** A robustness probe's perturbation (lib/judge/probe); absent for every other run. */
  probe?: TProbeSpec;
};

export function parseSettings(input: TRunSettingsInput): TRunSettings {
  const r = ZRunSettings.safeParse(input);
  if (!r.success)
    throw new AppError(
      "bad_input",
      r.error.issues.map((i) => `${i.path.join(".") || "settings"}: ${i.message}`).join("\n"),
      r.error.issues,
    );
  const s = r.data;
  if (s.samples > 1 && s.temperature === 0)
    throw new AppError(
      "bad_input",
      say`${field("samples")}: ${s.samples} samples need a temperature above 0 (at 0 every sample is the same answer): add ${field("temperature")}, e.g. 0.7`,
    );
  if (s.maxCost !== undefined && (s.priceIn === undefined || s.priceOut === undefined))
    throw new AppError(
      "bad_input",
      say`${field("maxCost")}: a cost cap needs the prices: ${field("priceIn")} and ${field("priceOut")} (USD per million tokens)`,
    );
  return { ...s, only: s.only ?? (s.target === "answers" ? "all" : "pool") };
}

export type TPair = { queryId: number; chunkId: number };

const SUBSETS = ["pool", "unlabelled", "calibration"] as const;

/**
 * The pairs a run judges: every pooled pair (`pool`), those without a final human label
 * (`unlabelled`), those sampled for calibration (`calibration`), or those of queries with a tag
 * (`tag:NAME`, or the tag's bare name). Ordered by query id and chunk id; `limit` takes the first.
 */
export async function selectPairs(db: Db, projectId: number, only: string, limit?: number): Promise<TPair[]> {
  const items = await db.poolItem.findMany({
    where: { projectId },
    select: { id: true, queryId: true, chunkId: true },
    orderBy: [{ queryId: "asc" }, { chunkId: "asc" }],
  });
  if (items.length === 0)
    throw new AppError("bad_input", say`the pool is empty: import runs and build it first (${action("buildPool")})`);
  let chosen = items;
  if (only === "unlabelled") {
    const labelled = new Set((await referenceLabels(db, projectId)).map((l) => `${l.queryId}:${l.chunkId}`));
    chosen = items.filter((it) => !labelled.has(`${it.queryId}:${it.chunkId}`));
  } else if (only === "calibration") {
    const cal = new Set(
      (
        await db.assignment.findMany({
          where: { calibration: true, poolItem: { projectId } },
          select: { poolItemId: true },
        })
      ).map((a) => a.poolItemId),
    );
    chosen = items.filter((it) => cal.has(it.id));
  } else if (only !== "pool") {
    const tag = only.startsWith("tag:") ? only.slice(4) : only;
    const tagged = await db.queryTag.findMany({ where: { tag, query: { projectId } }, select: { queryId: true } });
    if (tagged.length === 0) {
      const tags = [
        ...new Set(
          (await db.queryTag.findMany({ where: { query: { projectId } }, select: { tag: true } })).map((t) => t.tag),
        ),
      ].sort();
      throw new AppError(
        "bad_input",
        say`${field("only")}: "${only}" is neither ${SUBSETS.join(", ")} nor a query tag of this project${tags.length ? ` (tags: ${tags.join(", ")})` : " (it has no tags)"}`,
      );
    }
    const queries = new Set(tagged.map((t) => t.queryId));
    chosen = items.filter((it) => queries.has(it.queryId));
  }
  if (chosen.length === 0)
    throw new AppError("bad_input", say`${field("only")} ${only}: no pooled pair is in this subset; nothing to judge`);
  return (limit ? chosen.slice(0, limit) : chosen).map(({ queryId, chunkId }) => ({ queryId, chunkId }));
}

export function templateOf(
  s: Pick<TRunSettings, "template" | "templateFile"> & { target?: "chunks" | "answers" },
): string {
  if (s.target === "answers") {
    const text = s.template ?? DEFAULT_ANSWER_TEMPLATE;
    validateAnswerTemplate(text, s.template === undefined ? "default answer template" : s.templateFile);
    return text;
  }
  const text = s.template ?? DEFAULT_TEMPLATE;
  validateTemplate(text, s.template === undefined ? "default template" : s.templateFile);
  return text;
}

export function runParams(s: TRunSettings): TRunParams {
  return {
    temperature: s.temperature,
    samples: s.samples,
    maxTokens: s.maxTokens,
    timeoutMs: s.timeoutMs,
    concurrency: s.concurrency,
    maxRetries: s.maxRetries,
    parseRetries: s.parseRetries,
    maxConsecutiveFailures: s.maxConsecutiveFailures,
    structured: s.structured,
    limit: s.limit ?? null,
  };
}

/** Checks the judge name is free: not another run's, not a judge imported from a file. */
async function checkJudgeName(db: Db, projectId: number, judge: string, target: "chunks" | "answers"): Promise<void> {
  const run = await db.judgeRun.findFirst({ where: { projectId, judge }, select: { id: true } });
  if (run)
    throw new AppError(
      "conflict",
      say`a judge run named "${judge}" exists already (run ${run.id}): choose another ${field("judge")} name, or continue it with: npx assessor judge resume ${run.id}`,
    );
  const imported =
    target === "answers"
      ? await db.answerJudgeLabel.count({ where: { projectId, judge } })
      : await db.judgeLabel.count({ where: { projectId, judge } });
  if (imported)
    throw new AppError(
      "conflict",
      say`judge "${judge}" already has ${imported} imported label(s): choose another ${field("judge")} name`,
    );
}

/**
 * Validates everything local, runs `beforeWrite`, then writes the run and its tasks (one per pair,
 * or per answer, and sample) in one transaction.
 */
export async function createRun(
  db: Db,
  projectId: number,
  s: TRunSettings,
  beforeWrite?: () => Promise<void>,
): Promise<JudgeRun> {
  const template = templateOf(s);
  const baseUrl = publicBaseUrl(s.baseUrl);
  await checkJudgeName(db, projectId, s.judge, s.target);
  const answers = s.target === "answers";
  const pairs = answers ? [] : await selectPairs(db, projectId, s.only, s.limit);
  const answerIds = answers ? await selectAnswers(db, projectId, s.only, s.limit) : [];
  // The endpoint's check (lib/judge/endpoint.ts preflight) runs here: after every local check, before any write.
  await beforeWrite?.();
  return db.$transaction(
    async (tx) => {
      const run = await tx.judgeRun.create({
        data: {
          projectId,
          judge: s.judge,
          model: s.model,
          baseUrl,
          apiKeyEnv: s.apiKeyEnv,
          template,
          templateSha256: sha256(template),
          params: JSON.stringify(runParams(s)),
          ...(answers ? { target: "answers" } : {}),
          subset: answers
            ? answerSubsetName(parseAnswerSubset(s.only))
            : s.only === "pool" || s.only === "unlabelled" || s.only === "calibration" || s.only.startsWith("tag:")
              ? s.only
              : `tag:${s.only}`,
          samples: s.samples,
          priceIn: s.priceIn ?? null,
          priceOut: s.priceOut ?? null,
          maxCost: s.maxCost ?? null,
        },
      });
      const tasks = pairs.flatMap((p) =>
        Array.from({ length: s.samples }, (_, sample) => ({
          runId: run.id,
          queryId: p.queryId,
          chunkId: p.chunkId,
          sample,
        })),
      );
      for (let i = 0; i < tasks.length; i += 5000) await tx.judgeTask.createMany({ data: tasks.slice(i, i + 5000) });
      const answerTasks = answerIds.flatMap((answerId) =>
        Array.from({ length: s.samples }, (_, sample) => ({ runId: run.id, answerId, sample })),
      );
      for (let i = 0; i < answerTasks.length; i += 5000)
        await tx.answerJudgeTask.createMany({ data: answerTasks.slice(i, i + 5000) });
      return run;
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
}

export function paramsOf(run: Pick<JudgeRun, "params">): TRunParams {
  return JSON.parse(run.params) as TRunParams;
}
