/**
 * Making a run's robustness probes: a stratified sample (by human reference grade) of the pairs
 * that have both a human reference label and a label of the run, and one judge run per
 * perturbation over that sample, with the run's model, endpoint, parameters and template (the
 * paraphrase probe: the paraphrased template), named `<judge>~probe:<kind>` and holding in its
 * params the perturbation, the seed and the source run (spec.ts). Each probe is an ordinary judge
 * run: worked by the runner (resumable, cached, cost-capped), its labels ordinary JudgeLabel rows.
 *
 * Asking again with the same run, sample size and seed finds the probes already made and returns
 * them (to be resumed); a different sample size or seed is a conflict, since the figures would
 * then compare different pairs.
 */
import type { Db, JudgeRun } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { field, say } from "../../terms.ts";
import { referenceLabels } from "../../labels/reference.ts";
import { mulberry32 } from "../../stats/random.ts";
import { paramsOf, type TRunParams } from "../create.ts";
import { findRun } from "../store.ts";
import { sha256, usedPlaceholders, validateTemplate } from "../template.ts";
import { stratifiedSample } from "../trial.ts";
import { pairSeed, PROBE_KINDS, type TProbeKind } from "./perturb.ts";
import { paraphraseFor } from "./paraphrase.ts";
import { probeJudgeName, type TProbeSpec } from "./spec.ts";

export const DEFAULT_PROBE_SEED = 1;
export const MAX_PROBE_SAMPLE = 100_000;

export type TProbeOptions = {
  sample: number;
  seed?: number;
  kinds?: readonly TProbeKind[];
  /** The lead's paraphrase of the run's template (the paraphrase probe), and its file name for errors. */
  template?: string;
  templateFile?: string;
  /** A cost cap per probe run, in USD (needs the source run's prices). */
  maxCost?: number;
  concurrency?: number;
};

export type TProbeRun = { kind: TProbeKind; run: JudgeRun; created: boolean };
export type TProbeSet = {
  source: JudgeRun;
  runs: TProbeRun[];
  /** Kinds not made, and why (order: the template shows no neighbours; paraphrase: no paraphrase for a custom template). */
  skipped: { kind: TProbeKind; reason: string }[];
  /** Pairs in the sample (per probe). */
  pairs: number;
};

type TPair = { queryId: number; chunkId: number; grade: number };

/** The sample: pairs with a human reference label and a label of the source judge, stratified by the human grade (seeded). */
export async function probeSample(
  db: Db,
  projectId: number,
  sourceJudge: string,
  n: number,
  seed: number,
): Promise<TPair[]> {
  const [reference, labels] = await Promise.all([
    referenceLabels(db, projectId),
    db.judgeLabel.findMany({ where: { projectId, judge: sourceJudge }, select: { queryId: true, chunkId: true } }),
  ]);
  const judged = new Set(labels.map((l) => `${l.queryId}:${l.chunkId}`));
  const candidates = reference
    .filter((r) => judged.has(`${r.queryId}:${r.chunkId}`))
    .map((r) => ({ queryId: r.queryId, chunkId: r.chunkId, grade: r.grade }))
    .sort((a, b) => a.queryId - b.queryId || a.chunkId - b.chunkId);
  if (candidates.length === 0)
    throw new AppError(
      "bad_input",
      say`${field("sample")}: run "${sourceJudge}" has no pair with both a human reference label and a label of the run; probes compare the two`,
    );
  return stratifiedSample(candidates, (p) => p.grade, n, mulberry32(seed)).sort(
    (a, b) => a.queryId - b.queryId || a.chunkId - b.chunkId,
  );
}

/**
 * For each pair, the chunk whose transcript pads it: one of the sample's other chunks, drawn from
 * the pair's own stream (perturb.ts pairSeed), from another video when there is one, else from
 * another question's pairs, else any other chunk.
 */
export async function chooseFillers(db: Db, pairs: readonly TPair[], seed: number): Promise<Record<string, number>> {
  const chunkIds = [...new Set(pairs.map((p) => p.chunkId))].sort((a, b) => a - b);
  const video = new Map<number, number>();
  for (let i = 0; i < chunkIds.length; i += 5000)
    for (const c of await db.chunk.findMany({
      where: { id: { in: chunkIds.slice(i, i + 5000) } },
      select: { id: true, videoId: true },
    }))
      video.set(c.id, c.videoId);
  const questionsOf = new Map<number, Set<number>>();
  for (const p of pairs) questionsOf.set(p.chunkId, (questionsOf.get(p.chunkId) ?? new Set()).add(p.queryId));
  const out: Record<string, number> = {};
  for (const p of pairs) {
    const others = chunkIds.filter((c) => c !== p.chunkId);
    const otherVideo = others.filter((c) => video.get(c) !== video.get(p.chunkId));
    const otherQuestion = others.filter((c) => !questionsOf.get(c)?.has(p.queryId));
    const from = otherVideo.length ? otherVideo : otherQuestion.length ? otherQuestion : others;
    if (from.length === 0) continue;
    const r = mulberry32(pairSeed(seed ^ 0x9add, p.queryId, p.chunkId));
    out[`${p.queryId}:${p.chunkId}`] = from[Math.floor(r() * from.length)];
  }
  return out;
}

function checkOptions(o: TProbeOptions): void {
  if (!Number.isInteger(o.sample) || o.sample < 1 || o.sample > MAX_PROBE_SAMPLE)
    throw new AppError(
      "bad_input",
      say`${field("sample")}: expected a whole number from 1 to ${MAX_PROBE_SAMPLE}, got ${o.sample}`,
    );
  if (o.seed !== undefined && (!Number.isInteger(o.seed) || o.seed < 0 || o.seed > 2 ** 32 - 1))
    throw new AppError("bad_input", say`${field("seed")}: expected a whole number from 0 to 4294967295, got ${o.seed}`);
  for (const k of o.kinds ?? [])
    if (!(PROBE_KINDS as readonly string[]).includes(k))
      throw new AppError(
        "bad_input",
        say`${field("kinds")}: "${k}" is not a probe; expected ${PROBE_KINDS.join(", ")}`,
      );
  if (o.template !== undefined) validateTemplate(o.template, o.templateFile ?? "template");
}

/**
 * The source run's probes for these kinds: those already made (same sample and seed) returned as
 * they are, the others written with their tasks in one transaction. `beforeWrite` runs after every
 * local check and before any write (the endpoint's check). Nothing is written when a check fails.
 */
export async function createProbes(
  db: Db,
  projectId: number,
  sourceRef: string,
  o: TProbeOptions,
  beforeWrite?: (source: JudgeRun) => Promise<void>,
): Promise<TProbeSet> {
  checkOptions(o);
  const seed = o.seed ?? DEFAULT_PROBE_SEED;
  const source = await findRun(db, projectId, sourceRef);
  const sourceParams = paramsOf(source);
  if (source.target !== "chunks")
    throw new AppError("bad_input", `run ${source.id} (${source.judge}) judges answers; probes re-ask chunk runs`);
  if (sourceParams.probe)
    throw new AppError("bad_input", `run ${source.id} (${source.judge}) is itself a probe; probe its source run`);
  if (o.maxCost !== undefined && (source.priceIn === null || source.priceOut === null))
    throw new AppError(
      "bad_input",
      say`${field("maxCost")}: run ${source.id} (${source.judge}) has no prices, so the cost of a probe cannot be counted; the run needs ${field("priceIn")} and ${field("priceOut")}`,
    );
  const kinds = o.kinds?.length ? [...new Set(o.kinds)] : [...PROBE_KINDS];
  const skipped: TProbeSet["skipped"] = [];
  const wanted: { kind: TProbeKind; template: string }[] = [];
  const used = usedPlaceholders(source.template);
  for (const kind of kinds) {
    if (kind === "order" && !used.has("before") && !used.has("after")) {
      skipped.push({ kind, reason: "the run's template shows no neighbouring transcript ({{before}}, {{after}})" });
      continue;
    }
    if (kind === "paraphrase") {
      const t = paraphraseFor(source.template, o.template);
      if (t === null) {
        skipped.push({ kind, reason: "the run's template is the lead's own: give its paraphrase (--template FILE)" });
        continue;
      }
      wanted.push({ kind, template: t });
      continue;
    }
    wanted.push({ kind, template: source.template });
  }

  const existing = new Map(
    (
      await db.judgeRun.findMany({
        where: { projectId, judge: { in: wanted.map((w) => probeJudgeName(source.judge, w.kind)) } },
      })
    ).map((r) => [r.judge, r]),
  );
  const runs: TProbeRun[] = [];
  const toMake: typeof wanted = [];
  for (const w of wanted) {
    const name = probeJudgeName(source.judge, w.kind);
    const r = existing.get(name);
    if (!r) {
      const imported = await db.judgeLabel.count({ where: { projectId, judge: name } });
      if (imported)
        throw new AppError("conflict", `judge "${name}" already has ${imported} imported label(s); rename that judge`);
      toMake.push(w);
      continue;
    }
    const p = paramsOf(r).probe;
    if (!p || p.sourceRunId !== source.id || p.seed !== seed || p.sample !== o.sample)
      throw new AppError(
        "conflict",
        say`${field("sample")}: probe "${name}" exists already (run ${r.id}) ${p ? `with sample ${p.sample} and seed ${p.seed}` : "and is no probe"}; ask with the same sample and seed to resume it`,
      );
    runs.push({ kind: w.kind, run: r, created: false });
  }
  const sample = await probeSample(db, projectId, source.judge, o.sample, seed);
  if (toMake.length === 0) return { source, runs, skipped, pairs: sample.length };
  const fillers = toMake.some((w) => w.kind === "padding") ? await chooseFillers(db, sample, seed) : undefined;
  await beforeWrite?.(source);
  const made = await db.$transaction(
    async (tx) => {
      const out: TProbeRun[] = [];
      for (const w of toMake) {
        const probe: TProbeSpec = {
          kind: w.kind,
          seed,
          sourceRunId: source.id,
          sourceJudge: source.judge,
          sample: o.sample,
          ...(w.kind === "padding" ? { fillers } : {}),
        };
        const params: TRunParams = {
          ...sourceParams,
          concurrency: o.concurrency ?? sourceParams.concurrency,
          limit: null,
          probe,
        };
        const run = await tx.judgeRun.create({
          data: {
            projectId,
            judge: probeJudgeName(source.judge, w.kind),
            model: source.model,
            baseUrl: source.baseUrl,
            apiKeyEnv: source.apiKeyEnv,
            template: w.template,
            templateSha256: sha256(w.template),
            params: JSON.stringify(params),
            subset: `probe:${w.kind} of run ${source.id}, ${sample.length} pairs, seed ${seed}`,
            samples: source.samples,
            priceIn: source.priceIn,
            priceOut: source.priceOut,
            maxCost: o.maxCost ?? null,
          },
        });
        const tasks = sample.flatMap((p) =>
          Array.from({ length: source.samples }, (_, s) => ({
            runId: run.id,
            queryId: p.queryId,
            chunkId: p.chunkId,
            sample: s,
          })),
        );
        for (let i = 0; i < tasks.length; i += 5000) await tx.judgeTask.createMany({ data: tasks.slice(i, i + 5000) });
        out.push({ kind: w.kind, run, created: true });
      }
      return out;
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
  const order = (k: TProbeKind) => PROBE_KINDS.indexOf(k);
  return {
    source,
    runs: [...runs, ...made].sort((a, b) => order(a.kind) - order(b.kind)),
    skipped,
    pairs: sample.length,
  };
}
