/**
 * The judge's operations as the CLI (bin/commands/judge.ts) and the lead's pages
 * (app/api/lead/projects/[projectId]/judge) use them: start a run (checked locally, then against
 * the endpoint, then written), describe runs, preview the template on a pair.
 */
import type { Db, JudgeRun } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { loadRetest } from "../dashboard/load/retest.ts";
import { retestPanel as retestOf } from "../dashboard/retest.ts";
import {
  createRun,
  paramsOf,
  parseSettings,
  selectPairs,
  templateOf,
  type TRunParams,
  type TRunSettingsInput,
} from "./create.ts";
import { answerPrompt, loadAnswerPromptData } from "./answers-kind.ts";
import { ANSWER_SUBSETS, selectAnswers } from "./answers-select.ts";
import { ANSWER_PLACEHOLDERS, DEFAULT_ANSWER_TEMPLATE } from "./answers-template.ts";
import { checkedClient } from "./endpoint.ts";
import { apiKeyFrom, type TSurface } from "./keys.ts";
import { retest, type TRetest } from "./retest.ts";
import { liveWorkers, runCounts, sampleGrades, type TRunCounts } from "./store.ts";
import { DEFAULT_TEMPLATE, PLACEHOLDERS, renderTemplate } from "./template.ts";
import { TRIAL_PAIRS } from "./trial.ts";
import { loadPairViews } from "./views.ts";

/** `surface`: whether messages speak of the CLI's options or the page's fields. */
export async function startRun(
  db: Db,
  projectId: number,
  input: TRunSettingsInput,
  env: Readonly<Record<string, string | undefined>> = process.env,
  surface: TSurface = "cli",
): Promise<{ run: JudgeRun; apiKey: string }> {
  const s = parseSettings(input);
  const apiKey = apiKeyFrom(env, s.apiKeyEnv, surface);
  const run = await createRun(db, projectId, s, async () => {
    await checkedClient(s.baseUrl, apiKey, s.model, s.timeoutMs);
  });
  return { run, apiKey };
}

export type TRunSummary = {
  id: number;
  judge: string;
  model: string;
  baseUrl: string;
  apiKeyEnv: string;
  templateSha256: string;
  /** chunks (question–chunk pairs) or answers (generated answers; counts.pairs then counts answers). */
  target: string;
  subset: string;
  samples: number;
  status: string;
  stopReason: string | null;
  params: TRunParams;
  prices: { in: number | null; out: number | null; maxCost: number | null };
  tokens: { prompt: number; completion: number };
  cost: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  counts: TRunCounts;
  workers: number;
  /**
   * Tasks finished per second over the last RATE_WINDOW_MS (all workers), or since the run started
   * when that is shorter (dividing a 2 s start by 10 s made the first estimate 5× too long), for
   * "time left"; null until RATE_MIN_ANSWERS have come back in the window (the page shows "estimating…").
   */
  rate: number | null;
  retest: TRetest | null;
};

const RATE_WINDOW_MS = 10_000;
const RATE_MIN_ANSWERS = 3;

/** Tasks per second from `recent` tasks finished in the window, the window cut to the run's start. */
export function observedRate(recent: number, startedAt: Date | null, now: number = Date.now()): number | null {
  if (recent < RATE_MIN_ANSWERS || startedAt === null) return null;
  const windowMs = Math.min(RATE_WINDOW_MS, Math.max(1, now - startedAt.getTime()));
  return (recent * 1000) / windowMs;
}

export async function summarise(db: Db, run: JudgeRun, opts: { retest?: boolean } = {}): Promise<TRunSummary> {
  const [counts, workers, recent] = await Promise.all([
    runCounts(db, run.id, run.target),
    liveWorkers(db, run.id),
    run.status !== "running"
      ? 0
      : run.target === "answers"
        ? db.answerJudgeTask.count({
            where: { runId: run.id, finishedAt: { gt: new Date(Date.now() - RATE_WINDOW_MS) } },
          })
        : db.judgeTask.count({ where: { runId: run.id, finishedAt: { gt: new Date(Date.now() - RATE_WINDOW_MS) } } }),
  ]);
  return {
    id: run.id,
    judge: run.judge,
    model: run.model,
    baseUrl: run.baseUrl,
    apiKeyEnv: run.apiKeyEnv,
    templateSha256: run.templateSha256,
    target: run.target,
    subset: run.subset,
    samples: run.samples,
    status: run.status,
    stopReason: run.stopReason,
    params: paramsOf(run),
    prices: { in: run.priceIn, out: run.priceOut, maxCost: run.maxCost },
    tokens: { prompt: run.promptTokens, completion: run.completionTokens },
    cost: run.cost,
    createdAt: run.createdAt.toISOString(),
    startedAt: run.startedAt?.toISOString() ?? null,
    finishedAt: run.finishedAt?.toISOString() ?? null,
    counts,
    workers,
    rate: observedRate(recent, run.startedAt),
    retest:
      opts.retest && run.samples > 1 && run.target !== "answers"
        ? retest(await sampleGrades(db, run.id, run.samples), run.samples)
        : null,
  };
}

export async function listJudgeRuns(db: Db, projectId: number): Promise<TRunSummary[]> {
  const runs = await db.judgeRun.findMany({ where: { projectId }, orderBy: { id: "desc" } });
  return Promise.all(runs.map((r) => summarise(db, r, { retest: true })));
}

/**
 * The prompt the model would get for the first pairs of a subset (the template preview); for
 * `target: "answers"` the first answers' (`qid` is then the question's id and `docid` the answer's system).
 */
export async function previewPrompts(
  db: Db,
  projectId: number,
  input: { template?: string; only?: string; target?: "chunks" | "answers" },
  n = 1,
): Promise<{ qid: string; docid: string; prompt: string }[]> {
  if (input.target === "answers") {
    const template = templateOf({ template: input.template, templateFile: "template", target: "answers" });
    const ids = (await selectAnswers(db, projectId, input.only ?? "all")).slice(0, n);
    const data = await loadAnswerPromptData(db, ids);
    const meta = new Map(
      (
        await db.answer.findMany({
          where: { id: { in: ids } },
          select: { id: true, system: true, query: { select: { externalId: true } } },
        })
      ).map((a) => [a.id, a]),
    );
    return ids.map((id) => {
      const d = data.get(id);
      const m = meta.get(id);
      if (!d || !m) throw new AppError("not_found", "answer vanished while previewing");
      return { qid: m.query.externalId, docid: m.system, prompt: answerPrompt(template, d) };
    });
  }
  const template = templateOf({ template: input.template, templateFile: "template" });
  const pairs = (await selectPairs(db, projectId, input.only ?? "pool")).slice(0, n);
  const views = await loadPairViews(db, template, pairs);
  return pairs.map((p) => {
    const v = views.get(`${p.queryId}:${p.chunkId}`);
    if (!v) throw new AppError("not_found", "pair vanished while previewing");
    return { qid: v.qid, docid: v.docid, prompt: renderTemplate(template, v.view) };
  });
}

/** What the lead's Judge form starts from: the default template, its placeholders, the settings' defaults. */
export function judgeDefaults() {
  const d = parseSettings({ judge: "x", model: "x", baseUrl: "x" });
  return {
    template: DEFAULT_TEMPLATE,
    placeholders: Object.entries(PLACEHOLDERS).map(([name, meaning]) => ({ name, meaning })),
    /** Answer runs (target "answers"): their default template, placeholders, default subset and the subsets' syntax. */
    answers: {
      template: DEFAULT_ANSWER_TEMPLATE,
      placeholders: Object.entries(ANSWER_PLACEHOLDERS).map(([name, meaning]) => ({ name, meaning })),
      only: "all",
      subsets: ANSWER_SUBSETS,
    },
    apiKeyEnv: d.apiKeyEnv,
    samples: d.samples,
    temperature: d.temperature,
    concurrency: d.concurrency,
    only: d.only,
    trialPairs: TRIAL_PAIRS,
  };
}
export type TJudgeDefaults = ReturnType<typeof judgeDefaults>;

export type TRetestRow = {
  judge: string;
  runId: number;
  model: string;
  samples: number;
  temperature: number;
  retest: TRetest;
};

/**
 * The dashboard's test–retest panel: every judge run of the project with several samples per pair
 * (loaded by lib/dashboard/load/retest.ts, computed by lib/dashboard/retest.ts).
 */
export async function retestPanel(db: Db, projectId: number): Promise<{ runs: TRetestRow[] }> {
  return retestOf(await loadRetest(db, projectId));
}
