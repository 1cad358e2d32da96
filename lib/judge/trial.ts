/**
 * "Try on 5 pairs": the lead's check of a judge configuration before a run. The model grades a
 * few pairs of the subset, drawn at random and stratified by human grade where labels exist
 * (`stratifiedSample`); nothing is written (no run, no cache, no label). Each answer is shown with
 * the question and chunk text, its prompt, the parsed grade (or why it failed) and the pair's human
 * reference label, if any, so a bad template or an unparseable model is found for the price of
 * five requests.
 */
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { referenceLabels } from "../labels/reference.ts";
import { parseSettings, selectPairs, templateOf, type TRunSettingsInput } from "./create.ts";
import { ask, checkedClient, EndpointError, type TAnswer, type TAsk, type TEndpoint } from "./endpoint.ts";
import { apiKeyFrom, type TSurface } from "./keys.ts";
import { parseAnswer } from "./parse.ts";
import { renderTemplate } from "./template.ts";
import { loadPairViews } from "./views.ts";
import type OpenAI from "openai";

export type TTrialRow = {
  qid: string;
  docid: string;
  question: string;
  chunk: string;
  prompt: string;
  raw: string | null;
  grade: number | null;
  error: string | null;
  human: number | null;
  promptTokens: number;
  completionTokens: number;
};

export const TRIAL_PAIRS = 5;

export async function tryJudge(
  db: Db,
  projectId: number,
  input: TRunSettingsInput,
  env: Readonly<Record<string, string | undefined>> = process.env,
  n = TRIAL_PAIRS,
  surface: TSurface = "cli",
): Promise<TTrialRow[]> {
  const s = parseSettings(input);
  if (s.target === "answers")
    throw new AppError(
      "bad_input",
      `target: "try on ${n} pairs" judges question–chunk pairs; for answers, start a run with a small subset (sample:${n}) instead`,
    );
  const template = templateOf(s);
  const apiKey = apiKeyFrom(env, s.apiKeyEnv, surface);
  const [subset, reference] = await Promise.all([selectPairs(db, projectId, s.only), referenceLabels(db, projectId)]);
  const human = new Map(reference.map((l) => [`${l.queryId}:${l.chunkId}`, l.grade]));
  const pairs = stratifiedSample(subset, (p) => human.get(`${p.queryId}:${p.chunkId}`) ?? null, n);
  const { client, endpoint } = await checkedClient(s.baseUrl, apiKey, s.model, s.timeoutMs);
  const views = await loadPairViews(db, template, pairs);
  return Promise.all(
    pairs.map(async (p) => {
      const key = `${p.queryId}:${p.chunkId}`;
      const v = views.get(key);
      const prompt = v ? renderTemplate(template, v.view) : "";
      const row: TTrialRow = {
        qid: v?.qid ?? "",
        docid: v?.docid ?? "",
        question: v?.view.question ?? "",
        chunk: v?.view.chunk ?? "",
        prompt,
        raw: null,
        grade: null,
        error: null,
        human: human.get(key) ?? null,
        promptTokens: 0,
        completionTokens: 0,
      };
      try {
        const a = await askWithFallback(client, endpoint, {
          model: s.model,
          prompt,
          temperature: s.temperature,
          maxTokens: s.maxTokens,
          structured: s.structured,
        });
        const parsed = parseAnswer(a);
        return {
          ...row,
          raw: a.raw,
          grade: parsed.grade,
          error: parsed.grade === null ? parsed.error : null,
          promptTokens: a.promptTokens,
          completionTokens: a.completionTokens,
        };
      } catch (e) {
        if (e instanceof EndpointError) return { ...row, error: e.message };
        throw e;
      }
    }),
  );
}

/**
 * `n` items drawn at random, stratified by `grade` (the human label; null = none): one from each
 * grade in turn (grades in random order, each stratum shuffled) while labelled items remain, then
 * unlabelled ones; with no labels at all, a plain random sample. So five tries on a labelled pool
 * show the judge on relevant and non-relevant pairs alike, not the first five pairs of one query.
 */
export function stratifiedSample<T>(
  items: readonly T[],
  grade: (item: T) => number | null,
  n: number,
  random: () => number = Math.random,
): T[] {
  const strata = new Map<number, T[]>();
  const unlabelled: T[] = [];
  for (const it of items) {
    const g = grade(it);
    if (g === null) unlabelled.push(it);
    else strata.set(g, [...(strata.get(g) ?? []), it]);
  }
  const queues = shuffle([...strata.values()], random).map((list) => shuffle(list, random));
  const out: T[] = [];
  while (out.length < n && queues.some((q) => q.length > 0)) {
    for (const q of queues) if (out.length < n && q.length > 0) out.push(q.pop() as T);
  }
  return [...out, ...shuffle(unlabelled, random).slice(0, n - out.length)];
}

/** Fisher–Yates on a copy. */
function shuffle<T>(list: readonly T[], random: () => number): T[] {
  const a = [...list];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/** Structured output where the endpoint takes it; plain text where it refuses (as the runner does). */
async function askWithFallback(client: OpenAI, e: TEndpoint, q: TAsk): Promise<TAnswer> {
  try {
    return await ask(client, e, q);
  } catch (err) {
    if (q.structured && err instanceof EndpointError && err.failure.kind === "structured_unsupported")
      return ask(client, e, { ...q, structured: false });
    throw err;
  }
}
