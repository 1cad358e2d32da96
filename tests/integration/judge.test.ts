import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { startRun } from "../../lib/judge/service.ts";
import { runWorker } from "../../lib/judge/runner.ts";
import { registerWorker, removeWorker } from "../../lib/judge/store.ts";
import { DEFAULT_TEMPLATE, renderTemplate } from "../../lib/judge/template.ts";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { runCli } from "../helpers/cli.ts";
import { freePort } from "../helpers/server.ts";
import { defaultScript, scriptedGrade, startFakeLlm, type TFakeLlm } from "../helpers/fake-llm.ts";
import { seedJudgeProject } from "./judge-fixture.ts";
import { defaultChunkingId } from "../../lib/chunkings/store.ts";

/**
 * The LLM judge against a fake OpenAI-compatible server (tests/helpers/fake-llm.ts: the one mock
 * of these tests, since no model can run here). The database is real (SQLite, or PostgreSQL with
 * TEST_DATABASE_URL), and so are the `openai` client, its HTTP and its retries.
 */
const root = join(import.meta.dirname, "..", "..");
const KEY = "sk-test-SECRET-KEY-0123456789";
const env = { JUDGE_API_KEY: KEY };

useTestDatabase();
let db: Db;
let fake: TFakeLlm;
let projectId: number;
let pairs: number;
let projectName: string;
let n = 0;

beforeAll(async () => {
  db = await (await import("../../lib/db/client.ts")).getDb();
  fake = await startFakeLlm({ models: ["fake-judge", "other-model"] });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(async () => {
  fake.setScript(defaultScript);
  fake.setLatency(0);
  fake.requests.length = 0;
  projectName = `p${++n}`;
  const seeded = await seedJudgeProject(db, { name: projectName });
  projectId = seeded.project.id;
  pairs = seeded.pairs;
});

const settings = (judge: string, extra: Record<string, unknown> = {}) => ({
  judge,
  model: "fake-judge",
  baseUrl: fake.url,
  apiKeyEnv: "JUDGE_API_KEY",
  timeoutMs: 5000,
  maxRetries: 3,
  ...extra,
});

async function judgeAll(judge: string, extra: Record<string, unknown> = {}) {
  const { run, apiKey } = await startRun(db, projectId, settings(judge, extra), env);
  const result = await runWorker(db, run.id, { apiKey });
  return { run: await db.judgeRun.findUniqueOrThrow({ where: { id: run.id } }), result };
}

const labelsOf = async (judge: string) => db.judgeLabel.findMany({ where: { projectId, judge } });

describe("judge run", () => {
  it("judges every pooled pair once, stores the grades as a judge, and keeps provenance", async () => {
    const { run, result } = await judgeAll("gpt-a", { priceIn: 2, priceOut: 8 });
    expect(result.status).toBe("completed");
    expect(fake.requests).toHaveLength(pairs);
    expect(new Set(fake.requests.map((r) => r.prompt)).size).toBe(pairs);
    const labels = await labelsOf("gpt-a");
    expect(labels).toHaveLength(pairs);
    for (const l of labels) {
      const q = await db.query.findUniqueOrThrow({ where: { id: l.queryId } });
      const c = await db.chunk.findUniqueOrThrow({ where: { id: l.chunkId } });
      // The prompt the model got is the template over what a blind annotator sees.
      const prompt = fake.requests.find((r) => r.prompt.includes(q.text) && r.prompt.includes(c.text));
      expect(prompt).toBeDefined();
      expect(l.grade).toBe(scriptedGrade(prompt?.prompt ?? ""));
    }
    // Provenance: template text and hash, model, endpoint, parameters, times, tokens, cost.
    expect(run.template).toBe(DEFAULT_TEMPLATE);
    expect(run.templateSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(run.baseUrl).toBe(fake.url);
    expect(JSON.parse(run.params)).toMatchObject({ temperature: 0, samples: 1 });
    expect(run.startedAt).not.toBeNull();
    expect(run.finishedAt).not.toBeNull();
    const tokensIn = fake.requests.reduce((s, r) => s + Math.ceil(r.prompt.length / 4), 0);
    expect(run.promptTokens).toBe(tokensIn);
    expect(run.cost).toBeCloseTo((run.promptTokens * 2 + run.completionTokens * 8) / 1e6, 12);
    expect(fake.requests.every((r) => r.structured)).toBe(true);
  });

  it("a re-run of the same configuration is answered from the cache and costs nothing", async () => {
    await judgeAll("first");
    fake.requests.length = 0;
    const { run } = await judgeAll("second", { priceIn: 1, priceOut: 1 });
    expect(fake.requests).toHaveLength(0);
    expect(run.cost).toBe(0);
    expect(await db.judgeTask.count({ where: { runId: run.id, cached: true } })).toBe(pairs);
    expect((await labelsOf("second")).map((l) => l.grade).sort()).toEqual(
      (await labelsOf("first")).map((l) => l.grade).sort(),
    );
    // Another model is another configuration.
    await judgeAll("third", { model: "other-model" });
    expect(fake.requests).toHaveLength(pairs);
  });

  it("honours Retry-After on 429, retries 500s and timeouts, and ends with every pair judged", async () => {
    fake.setScript((req, attempt) => {
      const g = scriptedGrade(req.prompt);
      if (attempt === 1 && g === 0) return { kind: "status", status: 429, retryAfter: 1 };
      if (attempt === 1 && g === 1) return { kind: "status", status: 503 };
      if (attempt === 1 && g === 2) return { kind: "hang", ms: 2000 };
      return defaultScript(req, attempt);
    });
    const { result } = await judgeAll("flaky", { timeoutMs: 400 });
    expect(result.status).toBe("completed");
    expect(await labelsOf("flaky")).toHaveLength(pairs);
    // Each 429'd prompt waited at least the second Retry-After asked for before its second request.
    const byPrompt = new Map<string, number[]>();
    for (const r of fake.requests) byPrompt.set(r.prompt, [...(byPrompt.get(r.prompt) ?? []), r.at]);
    const limited = [...byPrompt.entries()].filter(([p]) => scriptedGrade(p) === 0);
    expect(limited.length).toBeGreaterThan(0);
    for (const [, times] of limited) {
      expect(times.length).toBe(2);
      expect(times[1] - times[0]).toBeGreaterThanOrEqual(950);
    }
  });

  it("an unparseable answer is retried, then recorded as failed with its raw text, never as a grade", async () => {
    const bad = (p: string) => scriptedGrade(p) === 3;
    fake.setScript((req, attempt) =>
      bad(req.prompt)
        ? { kind: "answer", text: "I think it is quite relevant, honestly." }
        : defaultScript(req, attempt),
    );
    const { run } = await judgeAll("parsey", { parseRetries: 2 });
    const failed = await db.judgeTask.findMany({ where: { runId: run.id, status: "failed" } });
    expect(failed.length).toBeGreaterThan(0);
    for (const f of failed) {
      expect(f.raw).toBe("I think it is quite relevant, honestly.");
      expect(f.attempts).toBe(3);
      expect(f.grade).toBeNull();
      expect(f.error).toMatch(/unparseable/);
    }
    expect(await labelsOf("parsey")).toHaveLength(pairs - failed.length);
    const badPrompts = [...fake.countByPrompt().entries()].filter(([p]) => bad(p));
    expect(badPrompts.every(([, c]) => c === 3)).toBe(true);
  });

  it("grades a reasoning model by its final answer; a cut or refused answer is failed with its raw text", async () => {
    // The misreading this guards against: the reasoning says "score: 0", the answer says the scripted grade.
    const kind = (p: string) => scriptedGrade(`${p}#kind`);
    fake.setScript((req) => {
      const g = scriptedGrade(req.prompt);
      if (kind(req.prompt) === 0)
        return {
          kind: "answer",
          text: "<think>so the user wants... so score: 1 perhaps, though",
          finishReason: "length",
        };
      if (kind(req.prompt) === 1)
        return { kind: "answer", text: null, message: { refusal: "I'm sorry, I can't assist with that." } };
      return {
        kind: "answer",
        text: `<think>… the score: 0 is wrong here …</think>{"intent": "i", "match": "m", "score": ${g}}`,
        message: { reasoning_content: "score: 3 at first" },
      };
    });
    const { run } = await judgeAll("reasoner", { parseRetries: 2 });
    const tasks = await db.judgeTask.findMany({ where: { runId: run.id }, orderBy: { id: "asc" } });
    const byKind = { cut: 0, refused: 0, graded: 0 };
    for (const task of tasks) {
      if (task.raw?.startsWith("<think>so the user")) {
        byKind.cut++;
        // At temperature 0 a cut answer is not asked again: one request, failed, raw kept.
        expect(task).toMatchObject({ status: "failed", grade: null, attempts: 1 });
        expect(task.error).toMatch(/^truncated: the answer was cut at the token limit/);
      } else if (task.raw === "I'm sorry, I can't assist with that.") {
        byKind.refused++;
        expect(task).toMatchObject({ status: "failed", grade: null });
        expect(task.error).toMatch(/^the model refused \(refusal field\): I'm sorry/);
      } else {
        byKind.graded++;
        expect(task.status).toBe("done");
        expect(task.raw).toMatch(/^<think>score: 3 at first<\/think><think>… the score: 0 is wrong here …<\/think>\{/);
      }
    }
    expect(byKind.cut).toBeGreaterThan(0);
    expect(byKind.refused).toBeGreaterThan(0);
    expect(byKind.graded).toBeGreaterThan(0);
    // Every label is the final answer's grade, never the reasoning's 0 or 3, and its rationale is the answer only.
    for (const l of await labelsOf("reasoner")) {
      const q = await db.query.findUniqueOrThrow({ where: { id: l.queryId } });
      const c = await db.chunk.findUniqueOrThrow({ where: { id: l.chunkId } });
      const prompt = fake.requests.find((r) => r.prompt.includes(q.text) && r.prompt.includes(c.text))?.prompt ?? "";
      expect(l.grade).toBe(scriptedGrade(prompt));
      expect(l.rationale).toBe(`{"intent": "i", "match": "m", "score": ${l.grade}}`);
    }
    expect(await labelsOf("reasoner")).toHaveLength(byKind.graded);
  });

  it("falls back to plain text when the endpoint refuses structured output, and reads UMBRELA's final-score line", async () => {
    const plain = await startFakeLlm({
      rejectStructured: true,
      script: (req) => ({ kind: "answer", text: `M: 2, T: 1\n##final score: ${scriptedGrade(req.prompt)}` }),
    });
    try {
      const { run, apiKey } = await startRun(db, projectId, { ...settings("plain"), baseUrl: plain.url }, env);
      await runWorker(db, run.id, { apiKey });
      const labels = await labelsOf("plain");
      expect(labels).toHaveLength(pairs);
      expect(plain.requests.every((r) => !r.structured)).toBe(true);
    } finally {
      await plain.close();
    }
  });

  it("with --samples keeps every sample and labels each pair with their median, rounded down", async () => {
    // Samples differ by their index: the fake answers 1, 2, 3 for samples 0, 1, 2 of some prompts.
    const seen = new Map<string, number>();
    fake.setScript((req) => {
      const k = (seen.get(req.prompt) ?? 0) + 1;
      seen.set(req.prompt, k);
      return { kind: "answer", text: JSON.stringify({ score: scriptedGrade(req.prompt) < 2 ? 2 : Math.min(3, k) }) };
    });
    const { run } = await judgeAll("sampled", { samples: 3, temperature: 0.7 });
    expect(await db.judgeTask.count({ where: { runId: run.id } })).toBe(pairs * 3);
    const labels = await labelsOf("sampled");
    expect(labels).toHaveLength(pairs);
    // Sample prompts are the same text; each pair got 3 requests (the cache key includes the sample).
    expect([...fake.countByPrompt().values()].every((c) => c === 3)).toBe(true);
    for (const l of labels) {
      const grades = (await db.judgeTask.findMany({ where: { runId: run.id, queryId: l.queryId, chunkId: l.chunkId } }))
        .map((x) => x.grade as number)
        .sort();
      expect(l.grade).toBe(grades[1]);
    }
    const { summarise } = await import("../../lib/judge/service.ts");
    const s = await summarise(db, run, { retest: true });
    expect(s.retest?.pairs).toBe(pairs);
    const spread = await db.judgeTask.groupBy({
      by: ["queryId", "chunkId"],
      where: { runId: run.id },
      _min: { grade: true },
      _max: { grade: true },
    });
    expect(s.retest?.unstable).toBe(spread.filter((g) => g._min.grade !== g._max.grade).length);
    expect(s.retest?.unstable).toBeGreaterThan(0);
  });

  it("test–retest on the dashboard, and the unstable pairs go to the calibration sample first", async () => {
    // Pairs whose scripted grade is 0 or 1 answer the sample's index (1, 2, 3): unstable; the others are stable.
    fake.setScript((req, attempt) => ({
      kind: "answer",
      text: JSON.stringify({ score: scriptedGrade(req.prompt) < 2 ? Math.min(3, attempt) : 2 }),
    }));
    const { run } = await judgeAll("retest", { samples: 3, temperature: 0.7 });
    const items = await db.poolItem.findMany({ where: { projectId }, include: { query: true, chunk: true } });
    const { loadPairViews } = await import("../../lib/judge/views.ts");
    const views = await loadPairViews(db, DEFAULT_TEMPLATE, items);
    const unstable = items.filter(
      (it) =>
        scriptedGrade(
          renderTemplate(DEFAULT_TEMPLATE, views.get(`${it.queryId}:${it.chunkId}`)?.view ?? ({} as never)),
        ) < 2,
    );
    expect(unstable.length).toBeGreaterThan(1);
    expect(unstable.length).toBeLessThan(pairs);

    const { retestPanel } = await import("../../lib/judge/service.ts");
    const panel = await retestPanel(db, projectId);
    expect(panel.runs.map((r) => [r.judge, r.samples, r.retest.pairs, r.retest.unstable])).toEqual([
      ["retest", 3, pairs, unstable.length],
    ]);
    // Samples 1, 2, 3 on the unstable pairs and 2, 2, 2 on the others: kappa between samples is below 1.
    expect(panel.runs[0].retest.kappa.quadratic).toBeLessThan(1);

    const { createUser } = await import("../../lib/users/users.ts");
    for (const who of ["a", "b"])
      await createUser(db, {
        email: `${who}-${projectName}@example.org`,
        name: who,
        role: "annotator",
        password: "password-123",
      });
    const { assign } = await import("../../lib/assignment/assign.ts");
    const annotators = ["a", "b"].map((w) => `${w}-${projectName}@example.org`);
    const r = await assign(db, projectId, { perItem: 2, annotators, sample: 2, seed: 7, unstableFrom: "retest" });
    expect(r.unstable).toBe(2);
    const sampled = new Set(
      (await db.assignment.findMany({ where: { calibration: true, poolItem: { projectId } } })).map(
        (a) => a.poolItemId,
      ),
    );
    expect([...sampled].every((id) => unstable.some((u) => u.id === id))).toBe(true);
    // Asking for more than there are: every unstable pair first, the rest from the usual scheme.
    const more = await assign(db, projectId, {
      perItem: 2,
      annotators,
      sample: unstable.length + 1,
      seed: 7,
      unstableFrom: String(run.id),
    });
    expect(more.unstable).toBe(unstable.length - 2);
    expect(more.items).toBe(unstable.length + 1);
    // A run with one sample has no unstable pairs to offer.
    await judgeAll("single");
    await expect(assign(db, projectId, { perItem: 2, annotators, sample: 1, unstableFrom: "single" })).rejects.toThrow(
      /one sample per pair/,
    );
  });

  it("stops with the reason at the cost cap, and at a run of consecutive failures", async () => {
    fake.setLatency(5);
    const capped = await judgeAll("capped", { priceIn: 1_000_000, priceOut: 0, maxCost: 100, concurrency: 1 });
    expect(capped.result.status).toBe("stopped");
    expect(capped.run.status).toBe("stopped");
    expect(capped.run.stopReason).toMatch(/cost cap of \$100/);
    expect(capped.run.cost).toBeGreaterThanOrEqual(100);
    expect(fake.requests.length).toBeLessThan(pairs);

    fake.requests.length = 0;
    fake.setScript(() => ({ kind: "status", status: 500 }));
    const broken = await judgeAll("broken", {
      model: "other-model",
      maxRetries: 0,
      maxConsecutiveFailures: 4,
      concurrency: 1,
    });
    expect(broken.run.status).toBe("stopped");
    expect(broken.run.stopReason).toMatch(/^4 consecutive failures; the last: 500/);
    expect(fake.requests).toHaveLength(4);
    // Transient failures stay pending, to be sent again on resume.
    const statuses = await db.judgeTask.groupBy({
      by: ["status"],
      where: { runId: broken.run.id },
      _count: { _all: true },
    });
    expect(statuses.map((x) => [x.status, x._count._all])).toEqual([["pending", pairs]]);
  });

  it("keeps the API key out of the database and out of error messages", async () => {
    fake.setScript(() => ({ kind: "status", status: 401, message: `Incorrect API key provided: ${KEY}` }));
    const { run } = await judgeAll("keyless", { maxRetries: 0 });
    expect(run.status).toBe("stopped");
    expect(run.stopReason).toMatch(/refused the API key/);
    expect(run.stopReason).not.toContain(KEY);
    const dump = JSON.stringify([
      await db.judgeRun.findMany(),
      await db.judgeTask.findMany(),
      await db.judgeWorker.findMany(),
      await db.judgeCache.findMany(),
    ]);
    expect(dump).not.toContain(KEY);
    expect(dump).not.toContain("SECRET-KEY");
    expect(run.apiKeyEnv).toBe("JUDGE_API_KEY");
  });

  it("bad input and failures give one clear message and change nothing", async () => {
    const before = await db.judgeRun.count();
    const closedPort = await freePort();
    const cases: [Record<string, unknown>, RegExp, Record<string, string>?][] = [
      [
        { baseUrl: `http://127.0.0.1:${closedPort}/v1` },
        new RegExp(`cannot reach http://127\\.0\\.0\\.1:${closedPort}/v1: connect ECONNREFUSED`),
      ],
      [{ model: "no-such-model" }, /does not serve a model "no-such-model"; it serves: fake-judge, other-model/],
      [{ template: "Q: {{question}} C: {{chunk}} S: {{system}}" }, /template:1: unknown placeholder \{\{system\}\}/],
      [{}, /the API key variable JUDGE_API_KEY is not set/, {}],
      [{ samples: 3 }, /need a temperature above 0/],
      [
        { only: "no-such-tag" },
        /"no-such-tag" is neither pool, unlabelled, calibration nor a query tag of this project \(tags: entity\)/,
      ],
    ];
    for (const [extra, message, e] of cases)
      await expect(startRun(db, projectId, settings("bad", extra), e ?? env)).rejects.toThrow(message);
    const empty = await db.project.create({ data: { name: `${projectName}-empty` } });
    await expect(startRun(db, empty.id, settings("bad"), env)).rejects.toThrow(/the pool is empty/);
    expect(await db.judgeRun.count()).toBe(before);
    expect(fake.requests.filter((r) => r.model === "no-such-model")).toHaveLength(0);
  });

  it("--only takes a subset: a query tag, or pairs without a final human label", async () => {
    const { run } = await judgeAll("entity-only", { only: "entity" });
    expect(run.subset).toBe("tag:entity");
    expect(await labelsOf("entity-only")).toHaveLength(pairs / 2);
    await db.referenceLabel.create({
      data: {
        projectId,
        source: "old",
        queryId: (await db.poolItem.findFirstOrThrow({ where: { projectId } })).queryId,
        chunkId: (await db.poolItem.findFirstOrThrow({ where: { projectId } })).chunkId,
        grade: 2,
      },
    });
    const { run: r2 } = await judgeAll("unlabelled", { only: "unlabelled", limit: 7 });
    expect(await db.judgeTask.count({ where: { runId: r2.id } })).toBe(7);
  });

  it.runIf(!process.env.TEST_DATABASE_URL)(
    "on SQLite a second worker on the same run gets a clear message",
    async () => {
      const { run } = await startRun(db, projectId, settings("solo"), env);
      await registerWorker(db, run.id, "other-worker-alive");
      await expect(runWorker(db, run.id, { apiKey: KEY })).rejects.toThrow(
        /being judged by another worker .* On SQLite one worker runs a run at a time/,
      );
      await removeWorker(db, run.id, "other-worker-alive");
      expect((await runWorker(db, run.id, { apiKey: KEY })).status).toBe("completed");
    },
  );

  it("renders only the annotator's view: no system, run, rank or score reaches the model", async () => {
    const run = await db.run.create({
      data: {
        chunkingId: await defaultChunkingId(db, projectId),
        projectId: projectId,
        system: "SYSTEM_SECRET_NAME",
        contentHash: "x",
      },
    });
    const item = await db.poolItem.findFirstOrThrow({ where: { projectId } });
    await db.runEntry.create({
      data: { runId: run.id, queryId: item.queryId, chunkId: item.chunkId, rank: 1, score: 97.53186 },
    });
    await db.poolProvenance.create({ data: { poolItemId: item.id, runId: run.id, rank: 1 } });
    // A second chunking of the same video, with a chunk starting between the item's and the next:
    // not a neighbour (the judge, like the annotator, sees the item's own chunking only).
    const first = await db.chunk.findUniqueOrThrow({ where: { id: item.chunkId } });
    const other = await db.chunking.create({
      data: { projectId, name: "c40o0", method: "seconds", size: 40, overlap: 0 },
    });
    await db.chunk.create({
      data: {
        chunkingId: other.id,
        projectId,
        videoId: first.videoId,
        externalId: "OTHER_CHUNKING",
        startSeconds: first.startSeconds + 1,
        endSeconds: first.startSeconds + 41,
        text: "OTHER_CHUNKING_TEXT",
      },
    });
    await judgeAll("blind", {
      template: "{{video_title}} {{start}}-{{end}}\n{{before}}|{{question}}|{{chunk}}|{{after}}",
    });
    const all = fake.requests.map((r) => r.prompt).join("\n");
    expect(all).not.toContain("SYSTEM_SECRET_NAME");
    expect(all).not.toContain("97.53");
    expect(all).not.toContain("OTHER_CHUNKING_TEXT");
    // The neighbours are the previous and next chunk of the same video and chunking.
    const c = await db.chunk.findUniqueOrThrow({ where: { id: item.chunkId } });
    const q = await db.query.findUniqueOrThrow({ where: { id: item.queryId } });
    const next = await db.chunk.findFirstOrThrow({
      where: { videoId: c.videoId, chunkingId: c.chunkingId, startSeconds: { gt: c.startSeconds } },
      orderBy: { startSeconds: "asc" },
    });
    expect(
      fake.requests.some(
        (r) =>
          r.prompt ===
          renderTemplate("{{video_title}} {{start}}-{{end}}\n{{before}}|{{question}}|{{chunk}}|{{after}}", {
            video_title: "Ranking talk",
            start: "0:00",
            end: "0:15",
            before: "",
            question: q.text,
            chunk: c.text,
            after: next.text,
          }),
      ),
    ).toBe(true);
  });
});

/** A CLI judge process, as a user starts it. */
function spawnCli(args: string[]): {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; stdout: string }>;
} {
  const child = spawn(process.execPath, [join(root, "bin", "assessor.mjs"), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  let stdout = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  child.stdout?.on("data", (d: Buffer) => (stdout += d.toString()));
  return { child, done: new Promise((ok) => child.on("exit", (code, signal) => ok({ code, signal, stderr, stdout }))) };
}

/**
 * A CLI command that talks to the fake model: run asynchronously, since the fake server lives in
 * this process and a synchronous spawn would leave it unable to answer.
 */
async function cli(args: string[]) {
  return spawnCli(args).done;
}

async function waitFor(cond: () => Promise<boolean>, ms = 20_000) {
  const until = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("judge run from the CLI: stop, crash, resume", () => {
  const cliArgs = (judge: string) => [
    "judge",
    "run",
    "--project",
    projectName,
    "--judge",
    judge,
    "--model",
    "fake-judge",
    "--base-url",
    fake.url,
    "--api-key-env",
    "JUDGE_API_KEY",
    "--concurrency",
    "4",
  ];

  it("kill -9 at a random moment, then resume: every pair judged exactly once, nothing finished sent again", async () => {
    const seeded = await seedJudgeProject(db, { name: `${projectName}-big`, queries: 10, perQuery: 12 });
    projectName = seeded.project.name;
    fake.setLatency(15);
    const { child, done } = spawnCli(cliArgs("crashy"));
    const runId = async () =>
      (await db.judgeRun.findFirst({ where: { projectId: seeded.project.id, judge: "crashy" } }))?.id;
    await waitFor(async () => {
      const id = await runId();
      return (
        id !== undefined &&
        (await db.judgeTask.count({ where: { runId: id, status: "done" } })) >= 10 + Math.floor(Math.random() * 40)
      );
    });
    child.kill("SIGKILL");
    await done;
    const id = (await runId()) as number;
    const doneBefore = await db.judgeTask.findMany({ where: { runId: id, status: "done" } });
    expect(doneBefore.length).toBeLessThan(seeded.pairs);
    const sentBefore = fake.countByPrompt();
    const resumed = await cli(["judge", "resume", String(id), "--project", projectName]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/completed/);
    expect(await db.judgeTask.count({ where: { runId: id, status: "done" } })).toBe(seeded.pairs);
    expect(await db.judgeLabel.count({ where: { projectId: seeded.project.id, judge: "crashy" } })).toBe(seeded.pairs);
    // Nothing stored before the kill was sent again: its prompt count did not move.
    const { loadPairViews } = await import("../../lib/judge/views.ts");
    const views = await loadPairViews(db, DEFAULT_TEMPLATE, doneBefore);
    const after = fake.countByPrompt();
    for (const d of doneBefore) {
      const prompt = renderTemplate(DEFAULT_TEMPLATE, views.get(`${d.queryId}:${d.chunkId}`)?.view ?? ({} as never));
      expect(after.get(prompt)).toBe(sentBefore.get(prompt));
      expect(after.get(prompt)).toBe(1);
    }
    // Every prompt was sent at least once, and twice only if its answer was lost with the process:
    // in flight (4 lanes) or answered within the last flush interval (100 ms at 15 ms a request).
    expect(after.size).toBe(seeded.pairs);
    expect([...after.values()].filter((c) => c > 1).length).toBeLessThanOrEqual(4 * (1 + Math.ceil(100 / 15)));
  });

  it("Ctrl+C finishes what is in flight and stops cleanly; resume completes the run", async () => {
    // Slow enough that the 20 pairs cannot all be judged before the signal arrives.
    fake.setLatency(250);
    const { child, done } = spawnCli(cliArgs("interrupted"));
    await waitFor(async () => {
      const r = await db.judgeRun.findFirst({ where: { projectId, judge: "interrupted" } });
      return r !== null && (await db.judgeTask.count({ where: { runId: r.id, status: "done" } })) >= 3;
    });
    child.kill("SIGINT");
    const r = await done;
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/stopping: finishing the requests in flight/);
    const run = await db.judgeRun.findFirstOrThrow({ where: { projectId, judge: "interrupted" } });
    expect(run.status).toBe("stopped");
    expect(await db.judgeTask.count({ where: { runId: run.id, status: "running" } })).toBe(0);
    // Everything sent before the stop was recorded: requests = finished tasks.
    expect(fake.requests.length).toBe(await db.judgeTask.count({ where: { runId: run.id, status: "done" } }));
    const resumed = await cli(["judge", "resume", "interrupted", "--project", projectName]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(fake.requests).toHaveLength(pairs);
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)(
    "on PostgreSQL two workers share one run and no pair is judged twice",
    async () => {
      const seeded = await seedJudgeProject(db, { name: `${projectName}-shared`, queries: 10, perQuery: 10 });
      projectName = seeded.project.name;
      fake.setLatency(10);
      const { run } = await startRun(db, seeded.project.id, settings("shared", { concurrency: 4 }), env);
      const a = spawnCli(["judge", "resume", String(run.id), "--project", projectName]);
      const b = spawnCli(["judge", "resume", String(run.id), "--project", projectName]);
      const [ra, rb] = await Promise.all([a.done, b.done]);
      expect(ra.code, ra.stderr).toBe(0);
      expect(rb.code, rb.stderr).toBe(0);
      expect(fake.requests).toHaveLength(seeded.pairs);
      expect([...fake.countByPrompt().values()].every((c) => c === 1)).toBe(true);
      expect(await db.judgeLabel.count({ where: { projectId: seeded.project.id, judge: "shared" } })).toBe(
        seeded.pairs,
      );
      // Both did work.
      expect(ra.stdout + rb.stdout).toMatch(/completed|other workers are still judging/);
    },
  );

  it("export writes qrels and JSONL; cancel stops a run for good", async () => {
    await judgeAll("exported");
    const q = runCli(["judge", "export", "exported", "--project", projectName, "--format", "qrels"]);
    expect(q.code, q.stderr).toBe(0);
    const lines = q.stdout.trim().split("\n");
    expect(lines).toHaveLength(pairs);
    expect(lines[0]).toMatch(/^q0 0 c0000 [0-3]$/);
    const j = runCli(["judge", "export", "exported", "--project", projectName, "--format", "jsonl"]);
    const first = JSON.parse(j.stdout.split("\n")[0]) as {
      query: string;
      injection: boolean;
      samples: { raw: string }[];
      template_sha256: string;
    };
    expect(first.query).toBe("q0");
    expect(first.injection).toBe(false);
    expect(first.samples[0].raw).toMatch(/score/);
    const { run } = await startRun(db, projectId, settings("to-cancel"), env);
    expect(runCli(["judge", "cancel", String(run.id), "--project", projectName]).code).toBe(0);
    const resumed = await cli(["judge", "resume", String(run.id), "--project", projectName]);
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toMatch(/was cancelled/);
    const list = runCli(["judge", "list", "--project", projectName]);
    expect(list.stdout).toMatch(/to-cancel\tfake-judge\t[0-9a-f]{12}\tcancelled/);
  });
});
