import { beforeAll, describe, expect, it } from "vitest";
import { useAnnotatorProject } from "../helpers/fixtures.ts";
import { assignAnswersTo, makeAnswer } from "../helpers/answer-items.ts";
import type { Db } from "../../lib/db/client.ts";
import { submitAnswerJudgement } from "../../lib/answers/submit.ts";
import { adjudicateAnswer } from "../../lib/answers/adjudicate.ts";
import { PASSWORDS, SECRETS, type TFixture } from "./annotate-fixture.ts";

/**
 * Blindness of the answer task, as tests/integration/blindness.test.ts for chunks:
 * an annotator walks the answer task's page and every /api/annotate/answers route — HTML, RSC and
 * JSON, the queue page by page, every answer, a submission, a refused one, a claim merge — and
 * none of it holds a system name, another annotator's label or notes, an adjudication, a judge's
 * label, an answer's citations or content hash, or question and chunk external ids. The answer
 * adjudication routes answer 403. Needs a production build (NEXT_DIST_DIR).
 */
const project = useAnnotatorProject(async (d, f) => {
  const chunks = await d.chunk.findMany({
    where: { projectId: f.project.id },
    orderBy: { id: "asc" },
    select: { id: true, videoId: true },
  });
  const file = chunks.filter((c) => c.videoId === f.fileVideo.id);
  const priv = chunks.find((c) => c.videoId === f.privateVideo.id)!;
  const [alpha, beta, privSystem] = ANSWER_SECRETS.systems;
  // A video the annotator reaches only through an answer's context (no pool item of theirs is on it).
  const video = await d.video.create({
    data: {
      projectId: f.project.id,
      externalId: "vid-context",
      title: "A context-only talk",
      path: "demo/media/rrf.mp4",
      durationSeconds: 73,
    },
  });
  contextVideo = video.id;
  const ctxChunk = await d.chunk.create({
    data: {
      chunkingId: (await d.chunk.findFirstOrThrow({ where: { projectId: f.project.id } })).chunkingId,
      projectId: f.project.id,
      externalId: `${SECRETS.docidPrefix}ctx`,
      videoId: video.id,
      startSeconds: 10,
      endSeconds: 30,
      text: "Context-only chunk.",
    },
  });
  const a1 = await makeAnswer(d, f.project.id, {
    system: alpha,
    queryId: f.queries.q1.id,
    claims: ["Lists are fused by rank.", "Scores are ignored."],
    context: [file[0].id, ctxChunk.id],
  });
  const a2 = await makeAnswer(d, f.project.id, {
    system: beta,
    queryId: f.queries.q1.id,
    claims: ["Reciprocal ranks are summed."],
    context: [file[1].id],
  });
  const a3 = await makeAnswer(d, f.project.id, {
    system: alpha,
    queryId: f.queries.q2.id,
    claims: ["Long documents are penalised.", "It divides by length.", "It uses b."],
    context: [file[3].id, file[4].id],
  });
  // An answer only the other annotator labels, with context on the outsider's video.
  const a4 = await makeAnswer(d, f.project.id, {
    system: privSystem,
    queryId: f.queries.q3.id,
    claims: ["Private."],
    context: [priv.id],
  });
  await d.answer.updateMany({
    where: { projectId: f.project.id },
    data: {
      citations: JSON.stringify([{ sentence: 0, chunks: [ANSWER_SECRETS.citations] }]),
      contentHash: ANSWER_SECRETS.hash,
    },
  });
  await assignAnswersTo(d, [a1, a2, a3], [f.ann, f.other]);
  await assignAnswersTo(d, [a4], [f.other]);
  mine.push(a1.id, a2.id, a3.id);
  othersOnly = a4.id;
  // The other annotator labels everything (notes!), disagreeing on a3, which is adjudicated; the annotator under test labels a3.
  for (const [i, a] of [a1, a2, a3, a4].entries()) {
    const n = (await d.answerClaim.count({ where: { answerId: a.id } })) as number;
    await submitAnswerJudgement(d, f.other.id, {
      answerId: a.id,
      claimVersion: 1,
      claimLabels: Array.from({ length: n }, () => "n" as const),
      relevance: 1,
      notes: `${ANSWER_SECRETS.otherNotes} ${i}`,
      flags: ["unsure"],
      timeSpentMs: 100,
      idempotencyKey: `other-answer-${i}-key`,
    });
  }
  await submitAnswerJudgement(d, f.ann.id, {
    answerId: a3.id,
    claimVersion: 1,
    claimLabels: ["s", "s", "p"],
    relevance: 3,
    notes: "MY_OWN_ANSWER_NOTE",
    flags: [],
    timeSpentMs: 100,
    idempotencyKey: "ann-answer-a3-key",
  });
  await adjudicateAnswer(d, f.adjudicator.id, {
    answerId: a3.id,
    claimVersion: 1,
    claimLabels: ["x", "x", "x"],
    relevance: 0,
    rationale: ANSWER_SECRETS.rationale,
    idempotencyKey: "adj-answer-a3-key",
  });
  await d.answerJudgeLabel.create({
    data: {
      projectId: f.project.id,
      judge: ANSWER_SECRETS.judge,
      answerId: a1.id,
      claimVersion: 1,
      claimLabels: JSON.stringify(["p", "p"]),
      relevance: 2,
      rationale: ANSWER_SECRETS.judge,
    },
  });
});
let db: Db;
let fx: TFixture;
let cookie: string;
const mine: string[] = [];
let othersOnly: string;
let contextVideo: number;

const ANSWER_SECRETS = {
  systems: ["GEN_SYSTEM_ALPHA_SECRET", "GEN_SYSTEM_BETA_SECRET", "GEN_SYSTEM_PRIVATE_SECRET"],
  otherNotes: "OTHER_ANSWER_NOTE_SECRET",
  rationale: "ANSWER_ADJ_RATIONALE_SECRET",
  judge: "ANSWER_JUDGE_SECRET",
  citations: "CITATION_SECRET",
  hash: "CONTENT_HASH_SECRET",
};
const FORBIDDEN_KEYS = new Set([
  "system",
  "systems",
  "citations",
  "contentHash",
  "judgements",
  "labels",
  "userId",
  "actorId",
  "externalId",
  "qid",
  "docid",
  "orderKey",
  "adjudication",
  "rationale",
  "judgeLabels",
  "disputedAt",
  "email",
  "chunkId",
  "queryId",
]);
const seen: { what: string; status: number; body: string }[] = [];

function secrets(): string[] {
  return [
    ...Object.values(ANSWER_SECRETS).flat(),
    ...SECRETS.systems,
    SECRETS.qidPrefix,
    SECRETS.docidPrefix,
    SECRETS.otherName,
    SECRETS.otherEmail,
    SECRETS.otherNotes,
    "Only for the outsider",
    "Private chunk",
  ];
}

function keysOf(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysOf(v, out));
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysOf(v, out);
    }
  }
  return out;
}

async function get(path: string, headers: Record<string, string> = {}) {
  const url = headers.RSC
    ? `${project.server.url}${path}${path.includes("?") ? "&" : "?"}_rsc=`
    : `${project.server.url}${path}`;
  const res = await fetch(url, { headers: { Cookie: cookie, ...headers }, redirect: "manual" });
  const entry = { what: `GET ${path}${headers.RSC ? " (RSC)" : ""}`, status: res.status, body: await res.text() };
  seen.push(entry);
  return entry;
}

async function post(path: string, body: unknown) {
  const res = await fetch(`${project.server.url}${path}`, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const entry = { what: `POST ${path}`, status: res.status, body: await res.text() };
  seen.push(entry);
  return entry;
}

beforeAll(async () => {
  ({ db, fx } = project);
  cookie = await project.server.cookie("ann@example.org", PASSWORDS.ann);
});

describe("an annotator labelling answers sees nothing that breaks blindness", () => {
  it("walks the answer task's page and routes", async () => {
    const page = await get("/annotate/answers");
    expect(page.status).toBe(200);
    const rsc = await get("/annotate/answers", { RSC: "1" });
    expect(rsc.status).toBe(200);
    expect(rsc.body).toContain("AnswerTask");
    const projects = await get("/api/annotate/answers/projects");
    expect(JSON.parse(projects.body)).toEqual({
      projects: [{ id: fx.project.id, name: "Blind project", done: 1, total: 3 }],
    });

    type TPage = { items: { id: string; index: number }[]; hasAfter: boolean; total: number };
    const pageOf = async (after?: string) => {
      const r = await get(
        `/api/annotate/answers/queue?projectId=${fx.project.id}&limit=2${after ? `&after=${after}` : ""}`,
      );
      expect(r.status).toBe(200);
      return JSON.parse(r.body) as TPage;
    };
    const ids: string[] = [];
    for (let p = await pageOf(); ; p = await pageOf(ids[ids.length - 1])) {
      ids.push(...p.items.map((i) => i.id));
      if (!p.hasAfter) break;
    }
    expect([...ids].sort()).toEqual([...mine].sort());
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    for (const id of ids) expect(id).toMatch(uuid);
    expect((await get(`/api/annotate/answers/queue?projectId=${fx.project.id}&after=${othersOnly}`)).status).toBe(404);

    for (const id of ids) {
      const r = await get(`/api/annotate/answers/items/${id}`);
      expect(r.status).toBe(200);
      const json = JSON.parse(r.body) as { own: { notes: string; claimLabels: string[] } | null };
      // Only the annotator's own label (the adjudication of a3 is not shown either).
      expect(json.own).toEqual(
        id === mine[2]
          ? { claimVersion: 1, claimLabels: ["s", "s", "p"], relevance: 3, notes: "MY_OWN_ANSWER_NOTE", flags: [] }
          : null,
      );
    }
    expect((await get(`/api/annotate/answers/items/${othersOnly}`)).status).toBe(404);

    const ok = await post("/api/annotate/answers/judgements", {
      answerId: mine[0],
      claimVersion: 1,
      claimLabels: ["s", "n"],
      relevance: 2,
      notes: "",
      flags: [],
      timeSpentMs: 10,
      idempotencyKey: "blind-answer-walk-1",
    });
    expect(ok.status).toBe(200);
    // An edit of the adjudicated answer is accepted like any other: nothing tells it was disputed.
    const edit = await post("/api/annotate/answers/judgements", {
      answerId: mine[2],
      claimVersion: 1,
      claimLabels: ["s", "s", "s"],
      relevance: 3,
      notes: "",
      flags: [],
      timeSpentMs: 10,
      idempotencyKey: "blind-answer-walk-2",
    });
    expect(edit.status).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({ applied: true });
    expect(Object.keys(JSON.parse(edit.body) as object).sort()).toEqual(
      Object.keys(JSON.parse(ok.body) as object).sort(),
    );
    expect(
      (
        await post("/api/annotate/answers/judgements", {
          answerId: othersOnly,
          claimVersion: 1,
          claimLabels: ["s"],
          relevance: 2,
          notes: "",
          flags: [],
          timeSpentMs: 10,
          idempotencyKey: "blind-answer-walk-3",
        })
      ).status,
    ).toBe(403);
    const short = await post("/api/annotate/answers/judgements", {
      answerId: mine[1],
      claimVersion: 1,
      claimLabels: ["s", "s"],
      relevance: 2,
      notes: "",
      flags: [],
      timeSpentMs: 10,
      idempotencyKey: "blind-answer-walk-4",
    });
    expect(short.status).toBe(422);
    expect(short.body).toContain("claimLabels: expected 1 label(s)");
    const merged = await post(`/api/annotate/answers/items/${mine[0]}/claims`, {
      op: { kind: "merge", positions: [0, 1] },
      version: 1,
      idempotencyKey: "blind-answer-merge",
    });
    expect(merged.status).toBe(200);
    expect(JSON.parse(merged.body)).toEqual({
      version: expect.any(Number),
      claims: [{ position: 0, text: "Lists are fused by rank. Scores are ignored." }],
    });
    expect(
      (
        await post(`/api/annotate/answers/items/${othersOnly}/claims`, {
          op: { kind: "split", position: 0, at: 3 },
          version: 1,
          idempotencyKey: "blind-answer-split",
        })
      ).status,
    ).toBe(404);

    for (const s of seen) {
      for (const secret of secrets())
        expect(s.body.toLowerCase().includes(secret.toLowerCase()), `${s.what} contains ${secret}`).toBe(false);
      if (s.body.startsWith("{") || s.body.startsWith("["))
        for (const k of keysOf(JSON.parse(s.body)))
          expect(FORBIDDEN_KEYS.has(k), `${s.what} has the field "${k}"`).toBe(false);
    }
    for (const s of [page, rsc])
      for (const id of ids) expect(s.body.includes(id), `${s.what} contains an answer id`).toBe(false);
  });

  it("watches the context's videos of their answers, not others'", async () => {
    expect((await get(`/api/media/${contextVideo}`, { Range: "bytes=0-9" })).status).toBe(206);
    expect((await get(`/api/media/${fx.privateVideo.id}`, { Range: "bytes=0-9" })).status).toBe(404);
  });

  it("gets 403 from the answer adjudication routes", async () => {
    for (const path of [
      "/api/adjudicate/answers/projects",
      `/api/adjudicate/answers/queue?projectId=${fx.project.id}`,
      "/adjudicate/answers",
    ])
      expect((await get(path)).status, path).toBe(403);
    const r = await post("/api/adjudicate/answers/decisions", {
      answerId: mine[0],
      claimVersion: 1,
      claimLabels: ["s", "s"],
      relevance: 1,
      rationale: "",
      idempotencyKey: "blind-answer-adj-1",
    });
    expect(r.status).toBe(403);
    expect(await db.answerAdjudication.count({ where: { answerId: mine[0] } })).toBe(0);
  });
});
