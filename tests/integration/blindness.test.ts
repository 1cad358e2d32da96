import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import type { Db } from "../../lib/db/client.ts";
import { submitJudgement } from "../../lib/labels/submit.ts";
import { PASSWORDS, SECRETS, seedAnnotationFixture, type TFixture } from "./annotate-fixture.ts";

/**
 * Blindness, enforced on the server: an annotator walks every page and route
 * handler they can reach — HTML, RSC payloads (header `RSC: 1`) and JSON — and none of it holds a
 * system or run name, a rank or score, pool provenance, another annotator's label, a judge's name
 * or label, or the qid/docid external ids. Lead, adjudicator and dashboard routes answer 403.
 * Needs a production build: NEXT_DIST_DIR=.next-annotate npx next build (and the same NEXT_DIST_DIR here).
 */
useTestDatabase();
let db: Db;
let fx: TFixture;
let cookie: string;

const FORBIDDEN_KEYS = new Set([
  "rank",
  "score",
  "system",
  "run",
  "runs",
  "runId",
  "provenance",
  "judge",
  "judgeLabels",
  "rationale",
  "referenceLabels",
  "judgements",
  "labels",
  "userId",
  "externalId",
  "qid",
  "docid",
  "author",
  "email",
  "orderKey",
  "calibration",
  "contentHash",
  "chunking",
  "chunkingId",
  "chunkings",
]);

const JUDGE_RUN_SECRETS = {
  judge: "JUDGE_RUN_NAME_SECRET",
  model: "JUDGE_MODEL_SECRET",
  template: "JUDGE_TEMPLATE_SECRET {{question}} {{chunk}}",
  raw: "JUDGE_RAW_ANSWER_SECRET",
};
let judgeRunId = 0;
let auditItem: { id: string };
/** A hidden check item (lib/assignment/checks.ts): settled by an adjudication, then served to the annotator. */
let checkItem: { id: string };
const CHECK_SECRET = "CHECK_RATIONALE_SECRET";
/** The name of the chunking every item came from: the lead's, never an annotator's. */
const CHUNKING_SECRET = "CHUNKING_NAME_SECRET";
const TRANSFER_JUDGE = `transfer:${CHUNKING_SECRET}->${CHUNKING_SECRET}_2`;

function secretStrings(): string[] {
  return [
    ...Object.values(JUDGE_RUN_SECRETS),
    ...SECRETS.systems,
    SECRETS.runDescription,
    SECRETS.judge,
    SECRETS.judgeRationale,
    SECRETS.referenceSource,
    SECRETS.otherNotes,
    SECRETS.qidPrefix,
    SECRETS.docidPrefix,
    ...SECRETS.scores,
    SECRETS.otherName,
    SECRETS.otherEmail,
    "AUTHOR_SECRET",
    "Only for the outsider",
    "Private chunk",
    CHUNKING_SECRET,
    TRANSFER_JUDGE,
    "PROVENANCE_SECRET",
    CHECK_SECRET,
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

type TSeen = { what: string; status: number; body: string };
const seen: TSeen[] = [];

async function get(path: string, headers: Record<string, string> = {}): Promise<TSeen> {
  // An RSC request needs Next's cache-busting `_rsc` parameter (empty when no router headers are sent).
  const url = headers.RSC ? `${server.url}${path}${path.includes("?") ? "&" : "?"}_rsc=` : `${server.url}${path}`;
  const res = await fetch(url, { headers: { Cookie: cookie, ...headers }, redirect: "manual" });
  const entry = { what: `GET ${path}${headers.RSC ? " (RSC)" : ""}`, status: res.status, body: await res.text() };
  seen.push(entry);
  return entry;
}

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  fx = await seedAnnotationFixture(db);
  // The other annotator grades everything, with notes; the annotator under test grades one item.
  for (const [i, item] of fx.items.entries()) {
    await submitJudgement(db, fx.other.id, {
      poolItemId: item.id,
      grade: 3,
      startSeconds: 7,
      notes: `${SECRETS.otherNotes} ${i}`,
      flags: ["unsure"],
      timeSpentMs: 1000,
      idempotencyKey: `other-${i}-key`,
    });
  }
  await submitJudgement(db, fx.ann.id, {
    poolItemId: fx.items[0].id,
    grade: 1,
    startSeconds: 2.5,
    notes: "MY_OWN_NOTE",
    flags: [],
    timeSpentMs: 500,
    idempotencyKey: "ann-own-key-1",
  });
  // An LLM judge run over the same pool: its name, model, template and answers are the lead's.
  const first = await db.poolItem.findUniqueOrThrow({ where: { id: fx.items[0].id } });
  const judgeRun = await db.judgeRun.create({
    data: {
      projectId: fx.project.id,
      judge: JUDGE_RUN_SECRETS.judge,
      model: JUDGE_RUN_SECRETS.model,
      baseUrl: "http://127.0.0.1:9/v1",
      apiKeyEnv: "JUDGE_KEY",
      template: JUDGE_RUN_SECRETS.template,
      templateSha256: "0".repeat(64),
      params: "{}",
      subset: "pool",
      status: "completed",
    },
  });
  await db.judgeTask.create({
    data: {
      runId: judgeRun.id,
      queryId: first.queryId,
      chunkId: first.chunkId,
      status: "done",
      grade: 2,
      raw: JUDGE_RUN_SECRETS.raw,
    },
  });
  await db.judgeLabel.create({
    data: {
      projectId: fx.project.id,
      judge: JUDGE_RUN_SECRETS.judge,
      queryId: first.queryId,
      chunkId: first.chunkId,
      grade: 2,
      rationale: JUDGE_RUN_SECRETS.raw,
    },
  });
  judgeRunId = judgeRun.id;
  // Every chunk is in one chunking; plant its name (and a second, empty chunking) where a leak would show it.
  await db.chunking.updateMany({
    where: { projectId: fx.project.id },
    data: { name: CHUNKING_SECRET, method: "seconds", size: 20, overlap: 5 },
  });
  const second = await db.chunking.create({
    data: { projectId: fx.project.id, name: `${CHUNKING_SECRET}_2`, method: "imported" },
  });
  // Label transfer onto the second chunking: an audit item of it, assigned to the
  // annotator, with a transfer judge's label and provenance on the same pair.
  const firstChunk = await db.chunk.findUniqueOrThrow({ where: { id: first.chunkId } });
  const auditChunk = await db.chunk.create({
    data: {
      projectId: fx.project.id,
      chunkingId: second.id,
      videoId: firstChunk.videoId,
      externalId: `${SECRETS.docidPrefix}audit`,
      startSeconds: firstChunk.startSeconds,
      endSeconds: firstChunk.endSeconds + 20,
      text: "Audit chunk text",
    },
  });
  auditItem = await db.poolItem.create({
    data: { projectId: fx.project.id, queryId: first.queryId, chunkId: auditChunk.id },
  });
  await db.assignment.create({
    data: { poolItemId: auditItem.id, userId: fx.ann.id, orderKey: 0.5, calibration: true },
  });
  await db.judgeLabel.create({
    data: {
      projectId: fx.project.id,
      judge: TRANSFER_JUDGE,
      queryId: first.queryId,
      chunkId: auditChunk.id,
      grade: 3,
      rationale: TRANSFER_JUDGE,
      provenance: JSON.stringify({
        from: CHUNKING_SECRET,
        to: `${CHUNKING_SECRET}_2`,
        sources: [{ chunk: "PROVENANCE_SECRET" }],
      }),
    },
  });
  // A pool item the other annotator graded and an adjudicator settled, made a hidden check item of
  // the annotator's by `assign --checks` (every other settled item was theirs already).
  const checkChunk = await db.chunk.create({
    data: {
      projectId: fx.project.id,
      chunkingId: firstChunk.chunkingId,
      videoId: firstChunk.videoId,
      externalId: `${SECRETS.docidPrefix}check`,
      startSeconds: firstChunk.endSeconds,
      endSeconds: firstChunk.endSeconds + 20,
      text: "Check chunk text",
    },
  });
  checkItem = await db.poolItem.create({
    data: { projectId: fx.project.id, queryId: first.queryId, chunkId: checkChunk.id },
  });
  await db.assignment.create({ data: { poolItemId: checkItem.id, userId: fx.other.id, orderKey: 0.3 } });
  await submitJudgement(db, fx.other.id, {
    poolItemId: checkItem.id,
    grade: 2,
    startSeconds: 21,
    notes: `${SECRETS.otherNotes} check`,
    flags: [],
    timeSpentMs: 1000,
    idempotencyKey: "other-check-key",
  });
  await db.adjudication.create({
    data: {
      poolItemId: checkItem.id,
      adjudicatorId: fx.adjudicator.id,
      grade: 2,
      startSeconds: 21,
      rationale: CHECK_SECRET,
    },
  });
  const { assignChecks } = await import("../../lib/assignment/checks.ts");
  const made = await assignChecks(db, fx.project.id, { share: 1, annotators: ["ann@example.org"], seed: 5 });
  expect(made.created).toBe(1);
  expect(
    await db.assignment.findFirst({ where: { checkItem: true }, select: { poolItemId: true, userId: true } }),
  ).toEqual({
    poolItemId: checkItem.id,
    userId: fx.ann.id,
  });
});
const server = useTestServer();
beforeAll(async () => {
  cookie = await server.cookie("ann@example.org", PASSWORDS.ann);
});

describe("an annotator sees nothing that breaks blindness", () => {
  it("walks every page and route handler the annotator can reach", async () => {
    expect((await get("/")).status).toBe(307);
    const page = await get("/annotate");
    expect(page.status).toBe(200);
    const rsc = await get("/annotate", { RSC: "1" });
    expect(rsc.status).toBe(200);
    // A flight payload, not HTML: it names the client component that renders the page.
    expect(rsc.body).toContain("AnnotateProjects");
    await get("/login");
    await get("/api/health");
    const session = await get("/api/auth/session");
    expect(JSON.parse(session.body).user.email).toBe("ann@example.org");

    const projects = await get("/api/annotate/projects");
    expect(projects.status).toBe(200);
    const all = [...fx.items.map((i) => i.id), auditItem.id, checkItem.id];
    expect(JSON.parse(projects.body)).toMatchObject({
      projects: [{ id: fx.project.id, total: all.length, done: 1 }],
      current: fx.project.id,
    });
    // The queue, walked a page at a time (pages of 2): back from where it opens, then forwards.
    type TPage = { project: { id: number }; items: { id: string }[]; hasBefore: boolean; hasAfter: boolean };
    const pageOf = async (query: string) => {
      const page = await get(`/api/annotate/queue?projectId=${fx.project.id}&limit=2${query}`);
      expect(page.status).toBe(200);
      return JSON.parse(page.body) as TPage;
    };
    const opening = await pageOf("");
    const ids: string[] = [...opening.items.map((i) => i.id)];
    for (let p = opening; p.hasBefore;) {
      p = await pageOf(`&before=${ids[0]}`);
      ids.unshift(...p.items.map((i) => i.id));
    }
    for (let p = opening; p.hasAfter;) {
      p = await pageOf(`&after=${ids[ids.length - 1]}`);
      ids.push(...p.items.map((i) => i.id));
    }
    // Every item of the fixture, the audit item of the second chunking and the check item, alike.
    expect([...ids].sort()).toEqual([...all].sort());
    // The outsider's project item and cursors are not theirs.
    expect((await get(`/api/annotate/queue?projectId=${fx.project.id}&after=${fx.privateItem.id}`)).status).toBe(404);
    for (const id of ids) {
      const item = await get(`/api/annotate/items/${id}`);
      expect(item.status).toBe(200);
      const json = JSON.parse(item.body) as { own: { notes: string } | null };
      // Only the annotator's own label, never the other annotator's (who graded every item).
      expect(json.own?.notes ?? null).toBe(id === fx.items[0].id ? "MY_OWN_NOTE" : null);
    }
    // A submission's answer, and a refusal's, are seen too.
    const post = await fetch(`${server.url}/api/annotate/judgements`, {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/json" },
      body: JSON.stringify({
        poolItemId: ids.find((i) => i !== fx.items[0].id),
        grade: 2,
        startSeconds: 3,
        notes: "",
        flags: [],
        timeSpentMs: 10,
        idempotencyKey: "blind-walk-key-1",
      }),
    });
    seen.push({ what: "POST /api/annotate/judgements", status: post.status, body: await post.text() });
    expect(post.status).toBe(200);
    const refused = await fetch(`${server.url}/api/annotate/judgements`, {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/json" },
      body: JSON.stringify({
        poolItemId: fx.privateItem.id,
        grade: 2,
        startSeconds: 3,
        notes: "",
        flags: [],
        timeSpentMs: 10,
        idempotencyKey: "blind-walk-key-2",
      }),
    });
    seen.push({
      what: "POST /api/annotate/judgements (not assigned)",
      status: refused.status,
      body: await refused.text(),
    });
    expect(refused.status).toBe(403);

    for (const s of seen) {
      for (const secret of secretStrings())
        expect(s.body.toLowerCase().includes(secret.toLowerCase()), `${s.what} contains ${secret}`).toBe(false);
      if (s.body.startsWith("{") || s.body.startsWith("[")) {
        const keys = keysOf(JSON.parse(s.body));
        for (const k of keys)
          expect(FORBIDDEN_KEYS.has(k) && s.what !== "GET /api/auth/session", `${s.what} has the field "${k}"`).toBe(
            false,
          );
      }
    }
    // The HTML and the RSC payload carry the annotator's opening item (read on the
    // server by lib/annotate/view.ts annotatorOpening, the queue API's own reads — equal to the API's
    // answers in tests/integration/annotate-queue.test.ts — and checked for secrets above): only
    // items of theirs, never an item of someone else's or the other annotator's label.
    const theirs = new Set(ids);
    const everyItem = await db.poolItem.findMany({ select: { id: true } });
    for (const s of [page, rsc]) {
      expect(
        ids.some((id) => s.body.includes(id)),
        `${s.what} shows the opening item`,
      ).toBe(true);
      for (const { id } of everyItem)
        if (!theirs.has(id)) expect(s.body.includes(id), `${s.what} contains an item that is not theirs`).toBe(false);
      expect(s.body.includes(SECRETS.otherNotes)).toBe(false);
    }
  });

  it("answers alike for a hidden check item and an ordinary item: fields, headers, queue entries", async () => {
    // An ordinary item of theirs on the check item's video, not graded yet.
    const checkChunk = await db.poolItem.findUniqueOrThrow({ where: { id: checkItem.id }, select: { chunk: true } });
    const ordinary = await db.assignment.findFirstOrThrow({
      where: {
        userId: fx.ann.id,
        checkItem: false,
        calibration: false,
        poolItem: { chunk: { videoId: checkChunk.chunk.videoId }, judgements: { none: { userId: fx.ann.id } } },
      },
      select: { poolItemId: true },
    });
    const names = (h: Headers) => [...h.keys()].sort();
    const shape = async (id: string) => {
      const res = await fetch(`${server.url}/api/annotate/items/${id}`, { headers: { Cookie: cookie } });
      const body = await res.text();
      seen.push({ what: `GET /api/annotate/items/${id}`, status: res.status, body });
      return { status: res.status, headers: names(res.headers), keys: [...keysOf(JSON.parse(body))].sort() };
    };
    expect(await shape(checkItem.id)).toEqual(await shape(ordinary.poolItemId));
    const grade = async (id: string, key: string) => {
      const res = await fetch(`${server.url}/api/annotate/judgements`, {
        method: "POST",
        headers: { Cookie: cookie, "Content-Type": "application/json" },
        body: JSON.stringify({
          poolItemId: id,
          grade: 1,
          startSeconds: 22,
          notes: "n",
          flags: [],
          timeSpentMs: 5,
          idempotencyKey: key,
        }),
      });
      const body = JSON.parse(await res.text()) as Record<string, unknown>;
      return { status: res.status, headers: names(res.headers), body: { ...body, poolItemId: "", idempotencyKey: "" } };
    };
    const graded = await grade(checkItem.id, "blind-check-key-1");
    expect(graded).toEqual(await grade(ordinary.poolItemId, "blind-check-key-2"));
    expect(graded.status).toBe(200);
    // A retry of each: the same answer again.
    expect(await grade(checkItem.id, "blind-check-key-1")).toEqual(
      await grade(ordinary.poolItemId, "blind-check-key-2"),
    );
    // After grading: both show the own label the same way, and both count as done in the queue.
    const after = [await shape(checkItem.id), await shape(ordinary.poolItemId)];
    expect(after[0]).toEqual(after[1]);
    expect(after[0].keys).toContain("grade");
    // Both sides of one item of the queue: where the two items fall depends on the random order keys.
    const page = async (side: "after" | "before") =>
      (
        JSON.parse(
          (await get(`/api/annotate/queue?projectId=${fx.project.id}&limit=100&${side}=${fx.items[0].id}`)).body,
        ) as { items: Record<string, unknown>[] }
      ).items;
    const queue = [...(await page("before")), ...(await page("after"))];
    const entries = [checkItem.id, ordinary.poolItemId].map((id) => queue.find((i) => i.id === id));
    expect(entries.map((e) => e && Object.keys(e).sort())).toEqual([
      ["done", "id", "index", "question"],
      ["done", "id", "index", "question"],
    ]);
    expect(entries.map((e) => e?.done)).toEqual([true, true]);
    // The check grade went to CheckJudgement: the reference is the adjudicator's, unmoved.
    expect(await db.judgement.count({ where: { poolItemId: checkItem.id } })).toBe(1);
    expect(await db.checkJudgement.count({ where: { poolItemId: checkItem.id, userId: fx.ann.id } })).toBe(1);
    for (const s of seen)
      for (const secret of secretStrings())
        expect(s.body.toLowerCase().includes(secret.toLowerCase()), `${s.what} contains ${secret}`).toBe(false);
  });

  it("gives opaque random ids, in the annotator's own random order within each query", async () => {
    // Starts at the first item not graded; one page from there to the end and one before it.
    const rest = JSON.parse((await get(`/api/annotate/queue?projectId=${fx.project.id}&limit=100`)).body) as {
      items: { id: string; question: number }[];
    };
    const head = JSON.parse(
      (await get(`/api/annotate/queue?projectId=${fx.project.id}&limit=100&before=${rest.items[0].id}`)).body,
    ) as { items: { id: string; question: number }[] };
    const items = [...head.items, ...rest.items];
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const assignments = await db.assignment.findMany({
      where: { userId: fx.ann.id },
      select: { poolItemId: true, orderKey: true, poolItem: { select: { queryId: true } } },
    });
    const expected = assignments.sort((a, b) => a.poolItem.queryId - b.poolItem.queryId || a.orderKey - b.orderKey);
    for (const it of items) expect(it.id).toMatch(uuid);
    expect(items.map((i) => i.id)).toEqual(expected.map((a) => a.poolItemId));
    expect(items.map((i) => i.question)).toEqual(
      expected.map((a) => [...new Set(expected.map((e) => e.poolItem.queryId))].indexOf(a.poolItem.queryId) + 1),
    );
  });

  it("cannot read an item or a video that is not theirs", async () => {
    expect((await get(`/api/annotate/items/${fx.privateItem.id}`)).status).toBe(404);
    expect((await get(`/api/media/${fx.privateVideo.id}`, { Range: "bytes=0-9" })).status).toBe(404);
    expect((await get(`/api/media/${fx.fileVideo.id}`, { Range: "bytes=0-9" })).status).toBe(206);
  });

  it("gets 403 from every lead, adjudicator and dashboard route", async () => {
    for (const path of ["/lead", "/lead/users", `/lead/projects/${fx.project.id}`, "/adjudicate", "/dashboard"]) {
      const r = await get(path);
      expect(r.status, `${path}`).toBe(path === "/dashboard" && r.status === 404 ? 404 : 403);
      for (const secret of secretStrings()) expect(r.body.includes(secret), `${path} contains ${secret}`).toBe(false);
    }
    for (const path of [
      "/api/lead/projects",
      "/api/lead/users",
      `/api/lead/projects/${fx.project.id}`,
      `/api/lead/projects/${fx.project.id}/progress`,
      `/api/lead/projects/${fx.project.id}/judge`,
      `/api/dashboard/${fx.project.id}/retest`,
      "/api/adjudicate/projects",
      `/api/adjudicate/queue?projectId=${fx.project.id}`,
      "/api/dashboard/projects",
    ]) {
      expect((await get(path)).status, path).toBe(403);
    }
    for (const [path, body] of [
      [`/api/lead/projects/${fx.project.id}/judge`, { judge: "x", model: "m", baseUrl: "http://127.0.0.1:9/v1" }],
      [`/api/lead/projects/${fx.project.id}/judge/preview`, {}],
      [`/api/lead/projects/${fx.project.id}/judge/try`, { judge: "x", model: "m", baseUrl: "http://127.0.0.1:9/v1" }],
      [`/api/lead/projects/${fx.project.id}/judge/${judgeRunId}`, { action: "cancel" }],
    ] as const) {
      const r = await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { Cookie: cookie, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(r.status, `POST ${path}`).toBe(403);
    }
    expect((await db.judgeRun.findUniqueOrThrow({ where: { id: judgeRunId } })).status).toBe("completed");
    const decide = await fetch(`${server.url}/api/adjudicate/decisions`, {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/json" },
      body: JSON.stringify({
        poolItemId: fx.items[0].id,
        grade: 1,
        startSeconds: null,
        rationale: "",
        idempotencyKey: "blind-adj-key-1",
      }),
    });
    expect(decide.status).toBe(403);
  });
});
