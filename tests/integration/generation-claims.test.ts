import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { makeChunks, makeProject, makeQueries, makeUser } from "../helpers/factories.ts";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { startFakeLlm, type TFakeAction, type TFakeLlm } from "../helpers/fake-llm.ts";
import type { Db } from "../../lib/db/client.ts";
import { AppError } from "../../lib/errors.ts";
import { importAnswers } from "../../lib/answers/import.ts";
import { editClaims, ownClaimVersion, PRIVATE_VERSION_MIN } from "../../lib/answers/claims-edit.ts";
import { INT32_MAX } from "../../lib/bounds.ts";
import { resplitAnswers } from "../../lib/answers/resplit.ts";

/**
 * Claim versions after the import (SQLite, or PostgreSQL with TEST_DATABASE_URL): an annotator's
 * merge and split (`editClaims`), and the re-split by the LLM endpoint (the repo's fake
 * OpenAI-compatible server, tests/helpers/fake-llm.ts) or back to sentences, through the library
 * and `assessor answers resplit`.
 */
useTestDatabase();
let db: Db;
let fake: TFakeLlm;
let projectId: number;
let annotatorId: string;

const answerOf = async (system: string, qid: string) => {
  const q = await db.query.findUniqueOrThrow({ where: { projectId_externalId: { projectId, externalId: qid } } });
  return db.answer.findUniqueOrThrow({ where: { projectId_system_queryId: { projectId, system, queryId: q.id } } });
};
const claimsOf = async (answerId: string, version?: number) => {
  const a = await db.answer.findUniqueOrThrow({ where: { id: answerId } });
  return db.answerClaim.findMany({
    where: { answerId, version: version ?? a.claimVersion },
    orderBy: { position: "asc" },
    select: { position: true, text: true, startChar: true, endChar: true, source: true },
  });
};

/** The fake model's reply: the answer's sentences, the first one rewritten (not verbatim), as RAGAS-style JSON; cut at the token limit for the UNREADABLE answer. */
function decomposition(prompt: string): TFakeAction {
  const answer = /<answer>\n([\s\S]*)\n<\/answer>/.exec(prompt)?.[1] ?? "";
  if (answer.includes("UNREADABLE")) return { kind: "answer", text: '{"statements": ["UNREAD', finishReason: "length" };
  const sentences = answer.split(/(?<=\.)\s+/).filter(Boolean);
  return {
    kind: "answer",
    text: JSON.stringify({ statements: [`Rewritten: ${sentences[0]}`, ...sentences.slice(1)] }),
  };
}

/** The CLI as a child process without blocking this one (the fake endpoint answers from this process). */
function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(import.meta.dirname, "..", "..", "bin", "assessor.mjs"), ...args], {
      env: process.env,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  projectId = (await makeProject(db, { name: "claims" })).id;
  await makeChunks(db, projectId, ["k1", "k2"]);
  await makeQueries(db, projectId, ["q1", "q2", "q3"]);
  annotatorId = (await makeUser(db)).id;
  const text = [
    { qid: "q1", answer: "RAG retrieves chunks. It then answers, citing them. Done.", context: ["k1"] },
    { qid: "q2", answer: "Chunks are 60 s long. They overlap by 15 s.", context: ["k2"] },
    { qid: "q3", answer: "UNREADABLE answer. Twice.", context: [] },
  ]
    .map((r) => JSON.stringify(r))
    .join("\n");
  await importAnswers(db, projectId, { system: "sys", fileName: "a.jsonl", text });
  await importAnswers(db, projectId, { system: "edit", fileName: "a.jsonl", text });
  const edit = await db.answer.findMany({ where: { projectId, system: "edit" }, select: { id: true } });
  await db.answerAssignment.createMany({
    data: edit.map((a, i) => ({ answerId: a.id, userId: annotatorId, orderKey: i })),
  });
  fake = await startFakeLlm({ models: ["fake-judge"], script: (req) => decomposition(req.prompt) });
});

afterAll(async () => {
  await fake?.close();
});

describe("editClaims", () => {
  it("merges two claims into the annotator's own claim set (a random version from PRIVATE_VERSION_MIN), leaves the shared set, and records the texts before and after", async () => {
    const a = await answerOf("edit", "q1");
    const r = await editClaims(db, {
      answerId: a.id,
      actorId: annotatorId,
      op: { kind: "merge", positions: [0, 1] },
      version: 1,
      idempotencyKey: "m-1",
    });
    expect(r.version).toBeGreaterThanOrEqual(PRIVATE_VERSION_MIN);
    expect(r.version).toBeLessThanOrEqual(INT32_MAX);
    expect(r.claims).toEqual([
      {
        position: 0,
        text: "RAG retrieves chunks. It then answers, citing them.",
        startChar: 0,
        endChar: 51,
        source: "annotator",
      },
      { position: 1, text: "Done.", startChar: 52, endChar: 57, source: "sentence" },
    ]);
    expect(await claimsOf(a.id, r.version)).toEqual(r.claims);
    // The shared set is as imported: Answer.claimVersion did not move.
    expect((await db.answer.findUniqueOrThrow({ where: { id: a.id } })).claimVersion).toBe(1);
    expect((await claimsOf(a.id)).map((c) => c.text)).toEqual([
      "RAG retrieves chunks.",
      "It then answers, citing them.",
      "Done.",
    ]);
    expect(await ownClaimVersion(db, a.id, annotatorId)).toBe(r.version);
    const ev = await db.answerEvent.findFirstOrThrow({ where: { answerId: a.id, kind: "merge" } });
    expect(ev.actorId).toBe(annotatorId);
    expect(JSON.parse(ev.before!)).toEqual({
      claimVersion: 1,
      claims: ["RAG retrieves chunks.", "It then answers, citing them.", "Done."],
    });
    expect(JSON.parse(ev.after)).toEqual({
      claimVersion: r.version,
      op: { kind: "merge", positions: [0, 1] },
      claims: ["RAG retrieves chunks. It then answers, citing them.", "Done."],
    });

    // The same request again (a retry) changes nothing and answers the same.
    const again = await editClaims(db, {
      answerId: a.id,
      actorId: annotatorId,
      op: { kind: "merge", positions: [0, 1] },
      version: 1,
      idempotencyKey: "m-1",
    });
    expect(again).toEqual(r);
    expect(await db.answerEvent.count({ where: { answerId: a.id, kind: "merge" } })).toBe(1);
  });

  it("splits a claim of the annotator's own set; a stale version, a bad position or an answer not theirs is refused and writes nothing", async () => {
    const a = await answerOf("edit", "q1");
    const mine = (await ownClaimVersion(db, a.id, annotatorId))!;
    // Claim 0 of their set is "RAG retrieves chunks. It then answers, citing them." (0–51); cut after "chunks." (21).
    const r = await editClaims(db, {
      answerId: a.id,
      actorId: annotatorId,
      op: { kind: "split", position: 0, at: 21 },
      version: mine,
      idempotencyKey: "s-1",
    });
    expect(r.version).not.toBe(mine);
    expect(r.claims.map((c) => [c.text, c.startChar, c.endChar, c.source])).toEqual([
      ["RAG retrieves chunks.", 0, 21, "annotator"],
      ["It then answers, citing them.", 22, 51, "annotator"],
      ["Done.", 52, 57, "sentence"],
    ]);
    expect((await db.answer.findUniqueOrThrow({ where: { id: a.id } })).claimVersion).toBe(1);
    const events = await db.answerEvent.count({ where: { answerId: a.id } });
    const claims = await db.answerClaim.count({ where: { answerId: a.id } });

    const stale = await editClaims(db, {
      answerId: a.id,
      actorId: annotatorId,
      op: { kind: "merge", positions: [0, 1] },
      version: mine,
      idempotencyKey: "m-stale",
    }).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(AppError);
    expect([(stale as AppError).code, (stale as AppError).message, (stale as AppError).details]).toEqual([
      "conflict",
      "your claims of this answer changed meanwhile (in another tab?); reload the answer",
      { version: r.version },
    ]);
    const bad = await editClaims(db, {
      answerId: a.id,
      actorId: annotatorId,
      op: { kind: "split", position: 2, at: 9 },
      version: r.version,
      idempotencyKey: "s-bad",
    }).catch((e: unknown) => e);
    expect((bad as AppError).code).toBe("bad_input");
    expect((bad as AppError).message).toBe("split: cut claim 2 at a character offset 1 to 4, got 9");
    const stranger = (await makeUser(db)).id;
    const notTheirs = await editClaims(db, {
      answerId: a.id,
      actorId: stranger,
      op: { kind: "merge", positions: [0, 1] },
      version: 1,
      idempotencyKey: "m-stranger",
    }).catch((e: unknown) => e);
    expect((notTheirs as AppError).code).toBe("not_found");
    expect(await db.answerEvent.count({ where: { answerId: a.id } })).toBe(events);
    expect(await db.answerClaim.count({ where: { answerId: a.id } })).toBe(claims);
  });
});

describe("resplitAnswers", () => {
  it("re-splits with the model: a new llm version per answer, offsets only for verbatim statements, a resplit event; an unreadable reply fails that answer only", async () => {
    const r = await resplitAnswers(db, projectId, {
      system: "sys",
      method: "llm",
      endpoint: { baseUrl: fake.url, apiKey: "", model: "fake-judge", concurrency: 2 },
    });
    expect(r).toEqual({
      system: "sys",
      method: "llm",
      answers: 3,
      resplit: 2,
      unchanged: 0,
      labelled: 0,
      claims: 5,
      failed: [{ qid: "q3", message: "the reply was cut at the token limit (1024); raise --max-tokens" }],
    });
    const a = await answerOf("sys", "q2");
    expect(a.claimVersion).toBe(2);
    // "They overlap by 15 s." starts at 22 in "Chunks are 60 s long. They overlap by 15 s." (21 characters and a space).
    expect(await claimsOf(a.id)).toEqual([
      { position: 0, text: "Rewritten: Chunks are 60 s long.", startChar: null, endChar: null, source: "llm" },
      { position: 1, text: "They overlap by 15 s.", startChar: 22, endChar: 43, source: "llm" },
    ]);
    const ev = await db.answerEvent.findFirstOrThrow({ where: { answerId: a.id, kind: "resplit" } });
    expect(JSON.parse(ev.before!)).toEqual({
      claimVersion: 1,
      claims: ["Chunks are 60 s long.", "They overlap by 15 s."],
    });
    expect(JSON.parse(ev.after)).toMatchObject({
      claimVersion: 2,
      method: "llm",
      model: "fake-judge",
      baseUrl: fake.url,
      claims: ["Rewritten: Chunks are 60 s long.", "They overlap by 15 s."],
    });
    expect(fake.requests.at(-1)!.prompt).toContain("break the answer down into standalone statements");
    const q3 = await answerOf("sys", "q3");
    expect(q3.claimVersion).toBe(1);
  });

  it("leaves answers with human labels alone unless forced, and goes back to sentences", async () => {
    const a = await answerOf("sys", "q1");
    await db.answerJudgement.create({
      data: {
        answerId: a.id,
        userId: annotatorId,
        claimVersion: 2,
        claimLabels: JSON.stringify(["s", "s", "n"]),
        relevance: 3,
        idempotencyKey: "j-1",
      },
    });
    const r = await resplitAnswers(db, projectId, { system: "sys", method: "sentences" });
    // q1 labelled: left alone; q2 back from llm to sentences; q3 still has its sentence split: unchanged.
    expect(r).toEqual({
      system: "sys",
      method: "sentences",
      answers: 3,
      resplit: 1,
      unchanged: 1,
      labelled: 1,
      claims: 2,
      failed: [],
    });
    expect((await answerOf("sys", "q1")).claimVersion).toBe(2);
    const q2 = await answerOf("sys", "q2");
    expect(q2.claimVersion).toBe(3);
    expect((await claimsOf(q2.id)).map((c) => [c.text, c.source])).toEqual([
      ["Chunks are 60 s long.", "sentence"],
      ["They overlap by 15 s.", "sentence"],
    ]);
    const forced = await resplitAnswers(db, projectId, { system: "sys", method: "sentences", force: true });
    expect(forced).toMatchObject({ resplit: 1, unchanged: 2, labelled: 0 });
    expect((await answerOf("sys", "q1")).claimVersion).toBe(3);
    // The label still names the version it was given on.
    expect((await db.answerJudgement.findFirstOrThrow({ where: { answerId: a.id } })).claimVersion).toBe(2);
  });

  it("checks the endpoint before anything is written, and names the systems when one has no answers", async () => {
    const before = await db.answerEvent.count();
    const wrongModel = await resplitAnswers(db, projectId, {
      system: "edit",
      method: "llm",
      endpoint: { baseUrl: fake.url, apiKey: "", model: "nope" },
    }).catch((e: unknown) => e);
    expect((wrongModel as AppError).message).toBe(
      `the endpoint ${fake.url} does not serve a model "nope"; it serves: fake-judge`,
    );
    expect(await db.answerEvent.count()).toBe(before);
    const none = await resplitAnswers(db, projectId, { system: "ghost", method: "sentences" }).catch((e: unknown) => e);
    expect((none as AppError).message).toBe(
      'system "ghost" has no answers in this project; systems with answers: edit, sys',
    );
  });

  it("runs from the CLI: answers resplit --llm against the endpoint, failures on stderr and exit 1", async () => {
    const r = await cli([
      "answers",
      "resplit",
      "--project",
      "claims",
      "--system",
      "edit",
      "--llm",
      "--base-url",
      fake.url,
      "--model",
      "fake-judge",
      "--no-api-key",
    ]);
    // q1 of "edit" was edited by an annotator (their own set; the shared one is still 1) and has no labels: re-split; q2 re-split; q3 unreadable.
    expect(r.stderr).toBe("failed: question q3: the reply was cut at the token limit (1024); raise --max-tokens\n");
    expect(r.stdout).toMatch(
      /^re-split 3 answers of system edit \(llm\): 2 changed \(5 claims\), 0 unchanged, 1 failed \(\d+\.\d s\)\n$/,
    );
    expect(r.code).toBe(1);
    const q1 = await answerOf("edit", "q1");
    expect(q1.claimVersion).toBe(2);
    // The lead's re-split replaces the annotator's unlabelled edit in what they see.
    expect(await ownClaimVersion(db, q1.id, annotatorId)).toBe(2);

    // The endpoint, model and key variable of a judge run ("" = no key), for labelled answers too.
    await db.judgeRun.create({
      data: {
        projectId,
        judge: "local",
        model: "fake-judge",
        baseUrl: fake.url,
        apiKeyEnv: "",
        template: "t",
        templateSha256: "0",
        params: "{}",
        subset: "pool",
      },
    });
    const before = fake.requests.length;
    const viaRun = await cli([
      "answers",
      "resplit",
      "--project",
      "claims",
      "--system",
      "sys",
      "--llm",
      "--judge-run",
      "local",
      "--force",
    ]);
    expect(viaRun.stdout).toMatch(
      /^re-split 3 answers of system sys \(llm\): 2 changed \(5 claims\), 0 unchanged, 1 failed \(\d+\.\d s\)\n$/,
    );
    expect(fake.requests.length - before).toBe(3);
    expect(fake.seen.at(-1)!.headers.authorization).toBeUndefined();
    expect((await claimsOf((await answerOf("sys", "q1")).id)).map((c) => c.source)).toEqual(["llm", "llm", "llm"]);

    const usage = await cli(["answers", "resplit", "--project", "claims", "--system", "edit"]);
    expect(usage.stderr).toBe("error: choose how to split: --llm (the model) or --sentences (the default split)\n");
    expect(usage.code).toBe(1);
  });
});
