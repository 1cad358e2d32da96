/**
 * Robustness probes benchmark: a judge run's probes on 500 human-labelled pairs × 6 perturbations
 * (3,000 requests) against the fake OpenAI-compatible server (tests/helpers/fake-llm.ts, in a
 * process of its own, answering every request after 20 ms), on a fresh SQLite database. The source
 * run's template shows the neighbouring transcript, so every perturbation applies (order too), and
 * its paraphrase is given as the lead would (`--template FILE`).
 *
 * Measured: from asking for the probes (sample drawn, fillers chosen, six runs and their tasks
 * written) through all six worked at once (each with the run's concurrency, 16) to the figures
 * (`loadProbeSummary`): what `assessor judge probe RUN --sample 500` takes after the endpoint's
 * check. Target ≤ 5 s; the endpoint's own floor is 3,000 × 20 ms / 96 in flight ≈ 0.6 s.
 */
import { cpus, loadavg } from "node:os";
import type { TBenchRow } from "./index.ts";
import { startFake } from "./judge.ts";
import { tempSqlite } from "./_seeded.ts";
import { defaultChunkingId } from "../../lib/chunkings/store.ts";

const PAIRS = 500;
const QUERIES = 50;
const VIDEOS = 5;
const CONCURRENCY = 16;
const TARGET_SECONDS = 5;
const KEY_ENV = { BENCH_PROBE_API_KEY: "none" };

const TEMPLATE = `Grade the passage 0–3 for the question.
<question>{{question}}</question>
Before: {{before}}
<passage>{{chunk}}</passage>
After: {{after}}
Answer {"score": N}.`;
const PARAPHRASE = `For the question, rate the passage on the scale 0 to 3.
<question>{{question}}</question>
Preceding transcript: {{before}}
<passage>{{chunk}}</passage>
Following transcript: {{after}}
Reply {"score": N}.`;

export async function bench(): Promise<TBenchRow[]> {
  const fake = await startFake();
  const { db, done } = await tempSqlite("assessor-bench-probe-");
  try {
    const project = await db.project.create({ data: { name: "probe-bench" } });
    const chunking = await defaultChunkingId(db, project.id);
    const videos: { id: number }[] = [];
    for (let v = 0; v < VIDEOS; v++)
      videos.push(
        await db.video.create({
          data: {
            projectId: project.id,
            externalId: `v${v}`,
            title: `Talk ${v}`,
            path: "demo/media/bm25.mp4",
            durationSeconds: 36_000,
          },
        }),
      );
    await db.chunk.createMany({
      data: Array.from({ length: PAIRS }, (_, i) => ({
        chunkingId: chunking,
        projectId: project.id,
        externalId: `c${i}`,
        videoId: videos[i % VIDEOS].id,
        startSeconds: i * 3,
        endSeconds: i * 3 + 15,
        text: `Chunk ${i}: a few sentences of transcript about ranking, fusion and evaluation in talk ${i % VIDEOS}, where the speaker explains number ${i} at some length.`,
      })),
    });
    await db.query.createMany({
      data: Array.from({ length: QUERIES }, (_, q) => ({
        projectId: project.id,
        externalId: `q${q}`,
        text: `What does the speaker say about reciprocal rank fusion in part ${q}?`,
      })),
    });
    const chunks = await db.chunk.findMany({ where: { projectId: project.id }, orderBy: { id: "asc" } });
    const queries = await db.query.findMany({ where: { projectId: project.id }, orderBy: { id: "asc" } });
    const per = PAIRS / QUERIES;
    const pairs = chunks.map((c, i) => ({ queryId: queries[Math.floor(i / per)].id, chunkId: c.id, i }));
    await db.poolItem.createMany({
      data: pairs.map((p) => ({ projectId: project.id, queryId: p.queryId, chunkId: p.chunkId })),
    });
    await db.referenceLabel.createMany({
      data: pairs.map((p) => ({
        projectId: project.id,
        source: "people",
        queryId: p.queryId,
        chunkId: p.chunkId,
        grade: p.i % 4,
      })),
    });

    const { startRun } = await import("../../lib/judge/service.ts");
    const { runWorker } = await import("../../lib/judge/runner.ts");
    const { run, apiKey } = await startRun(
      db,
      project.id,
      {
        judge: "bench",
        model: "fake-judge",
        baseUrl: fake.url,
        apiKeyEnv: "BENCH_PROBE_API_KEY",
        template: TEMPLATE,
        concurrency: CONCURRENCY,
      },
      KEY_ENV,
    );
    await runWorker(db, run.id, { apiKey });

    const { createProbes } = await import("../../lib/judge/probe/create.ts");
    const { workProbes } = await import("../../lib/judge/probe/work.ts");
    const { loadProbeSummary } = await import("../../lib/judge/probe/load.ts");
    const t0 = performance.now();
    const set = await createProbes(db, project.id, "bench", { sample: PAIRS, seed: 1, template: PARAPHRASE });
    const work = await workProbes(db, set.runs, apiKey);
    const summary = await loadProbeSummary(db, project.id, "bench");
    const seconds = (performance.now() - t0) / 1000;
    const judged = summary.rows.reduce((s, r) => s + r.pairs, 0);
    const completed = work.every((w) => w.result?.status === "completed");
    const ok = completed && set.runs.length === 6 && judged === PAIRS * 6;
    return [
      {
        name: `judge probe: ${PAIRS} pairs × 6 perturbations (${PAIRS * 6} requests at 20 ms, concurrency ${CONCURRENCY} per probe)`,
        target: `≤ ${TARGET_SECONDS} s`,
        measured: `${seconds.toFixed(2)} s (${judged} probe labels, ${(judged / seconds).toFixed(0)}/s${completed ? "" : "; not every probe completed"}; ${cpus().length} cores, load ${loadavg()[0].toFixed(1)})`,
        pass: ok && seconds <= TARGET_SECONDS,
        command: "npm run bench -- probe",
      },
    ];
  } finally {
    fake.child.kill();
    await done();
  }
}
