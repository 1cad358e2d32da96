import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { useAnnotatorProject, type TestServer } from "../../helpers/fixtures.ts";
import type { Db } from "../../../lib/db/client.ts";
import { referenceLabels } from "../../../lib/labels/reference.ts";
import { defaultChunkingId } from "../../../lib/chunkings/store.ts";
import { PASSWORDS, type TFixture } from "../annotate-fixture.ts";

/**
 * The findings of the first outside security test in grading, bounds and exports, replayed
 * through the HTTP routes of `next start` (SQLite, or PostgreSQL with TEST_DATABASE_URL):
 * - 18.2: an annotator learned the peer's grade by resubmitting (200, 200, 409 "the annotators of
 *   this item agree") and erased the disagreement; the "has been adjudicated" 409 told them the
 *   peer had disagreed;
 * - 18.4: a NUL in notes, guidelines, names, rationales and imports, a timeSpentMs above 2^31, a
 *   1e308 start and ids above 2^31 in URLs gave 500 on PostgreSQL;
 * - 18.6: CSV exports wrote cells beginning with =, +, -, @ as they were.
 */
const project = useAnnotatorProject(async (db, fx) => {
  // Ids and a source a spreadsheet would run as formulas, in an imported reference label.
  const q = await db.query.create({
    data: { projectId: fx.project.id, externalId: FORMULA.qid, text: "+cmd question" },
  });
  const c = await db.chunk.create({
    data: {
      chunkingId: await defaultChunkingId(db, fx.project.id),
      projectId: fx.project.id,
      externalId: FORMULA.docid,
      videoId: fx.fileVideo.id,
      startSeconds: 200,
      endSeconds: 210,
      text: "formula chunk",
    },
  });
  await db.referenceLabel.create({
    data: {
      projectId: fx.project.id,
      source: FORMULA.source,
      queryId: q.id,
      chunkId: c.id,
      grade: 2,
      startSeconds: null,
    },
  });
});
let db: Db;
let server: TestServer;
let fx: TFixture;
let ann: string;
let other: string;
let adj: string;
let lead: string;

const FORMULA = { qid: "=1+1", docid: "-2+3", source: "@SUM(A1)" };

beforeAll(async () => {
  ({ db, fx, server } = project);
  [ann, other, adj, lead] = await Promise.all([
    server.cookie("ann@example.org", PASSWORDS.ann),
    server.cookie("other-secret@example.org", PASSWORDS.other),
    server.cookie("adj@example.org", PASSWORDS.adjudicator),
    server.cookie("lead@example.org", PASSWORDS.lead),
  ]);
});

const post = (path: string, cookie: string, body: unknown, method = "POST") =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { Cookie: cookie, "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const grade = (cookie: string, poolItemId: string, g: number, extra: Record<string, unknown> = {}) =>
  post("/api/annotate/judgements", cookie, {
    poolItemId,
    grade: g,
    startSeconds: g > 0 ? 10 : null,
    notes: "",
    flags: [],
    timeSpentMs: 1000,
    idempotencyKey: randomUUID(),
    ...extra,
  });

/** What an answer tells the annotator, without the parts that name the request itself (item, key). */
async function observed(res: Response): Promise<{ status: number; body: unknown }> {
  const body = (await res.json()) as Record<string, unknown>;
  const { poolItemId: _item, idempotencyKey: _key, ...rest } = body;
  return { status: res.status, body: rest };
}

const adjudicationQueue = async () =>
  (await (
    await fetch(`${server.url}/api/adjudicate/queue?projectId=${fx.project.id}`, { headers: { Cookie: adj } })
  ).json()) as { id: string; labels: { grade: number; history: number[] }[] }[];

describe("18.2 blind grading cannot be probed", () => {
  it("answers the probing sequence identically whatever the peer's grade (0, 2, none), and the disagreement is adjudicated", async () => {
    const [disagreeing, agreeing, ungraded] = fx.items;
    // The finding: both graded, 2 and 0; the control: the peer graded 2 too, or not at all.
    expect((await grade(ann, disagreeing.id, 2)).status).toBe(200);
    expect((await grade(other, disagreeing.id, 0)).status).toBe(200);
    expect((await grade(ann, agreeing.id, 2)).status).toBe(200);
    expect((await grade(other, agreeing.id, 2)).status).toBe(200);
    expect((await grade(ann, ungraded.id, 2)).status).toBe(200);

    const answers: Record<string, { status: number; body: unknown }[]> = {
      disagreeing: [],
      agreeing: [],
      ungraded: [],
    };
    for (const g of [1, 2, 3]) {
      answers.disagreeing.push(await observed(await grade(ann, disagreeing.id, g)));
      answers.agreeing.push(await observed(await grade(ann, agreeing.id, g)));
      answers.ungraded.push(await observed(await grade(ann, ungraded.id, g)));
    }
    expect(answers.disagreeing.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.agreeing).toEqual(answers.disagreeing);
    expect(answers.ungraded).toEqual(answers.disagreeing);
    // Only the annotator's own judgement is echoed.
    expect(answers.disagreeing[2].body).toEqual({
      applied: true,
      grade: 3,
      startSeconds: 10,
      endSeconds: null,
      notes: "",
    });

    // A's edit to 0 now agrees with B's 0, but 2 and 0 disagreed once: the item waits for an
    // adjudicator, with A's grade history shown, and is not exported as agreed.
    await grade(ann, disagreeing.id, 0);
    const queued = (await adjudicationQueue()).find((q) => q.id === disagreeing.id);
    expect(queued?.labels.map((l) => l.history)).toEqual([[2, 1, 2, 3, 0], [0]]);
    // (The fixture's imported label may stand for the pair meanwhile; no human final label does.)
    expect(
      (await referenceLabels(db, fx.project.id)).find((r) => r.poolItemId === disagreeing.id)?.status ?? "none",
    ).not.toMatch(/agreed|adjudicated/);
    const decided = await post("/api/adjudicate/decisions", adj, {
      poolItemId: disagreeing.id,
      grade: 1,
      startSeconds: 10,
      rationale: "partly",
      idempotencyKey: randomUUID(),
    });
    expect(decided.status).toBe(200);
    expect((await referenceLabels(db, fx.project.id)).find((r) => r.poolItemId === disagreeing.id)).toMatchObject({
      grade: 1,
      status: "adjudicated",
    });
  });

  it("after adjudication an edit is answered as any other (no 409 telling that the peer disagreed), and the decision stands", async () => {
    const [adjudicated, , ungraded] = fx.items;
    const after: { status: number; body: unknown }[] = [];
    const control: { status: number; body: unknown }[] = [];
    for (const g of [3, 0, 2]) {
      after.push(await observed(await grade(ann, adjudicated.id, g)));
      control.push(await observed(await grade(ann, ungraded.id, g)));
    }
    expect(after.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(after).toEqual(control);
    expect((await referenceLabels(db, fx.project.id)).find((r) => r.poolItemId === adjudicated.id)).toMatchObject({
      grade: 1,
      status: "adjudicated",
    });
    expect((await adjudicationQueue()).map((q) => q.id)).not.toContain(adjudicated.id);
  });
});

describe("18.4 bounds: 422 or 404, never 500", () => {
  type TError = {
    error: {
      code: string;
      details?: { path?: string; field?: string; line?: number; file?: string; message: string }[];
    };
  };
  const expectField = async (res: Response, status: number, field: string) => {
    expect(res.status).toBe(status);
    const body = (await res.json()) as TError;
    expect(body.error.details?.map((d) => d.path ?? d.field)).toContain(field);
    return body;
  };

  it("refuses a NUL in notes, guidelines, names and rationales with a 422 naming the field, writing nothing", async () => {
    const events = await db.labelEvent.count();
    await expectField(await grade(ann, fx.items[3].id, 1, { notes: "a\u0000b" }), 422, "notes");
    await expectField(
      await post(`/api/lead/projects/${fx.project.id}`, lead, { guidelines: "# Rules\u0000" }, "PATCH"),
      422,
      "guidelines",
    );
    await expectField(await post("/api/lead/projects", lead, { name: "New\u0000project" }), 422, "name");
    await expectField(
      await post("/api/lead/users", lead, {
        email: "nul@example.org",
        name: "Nul\u0000Name",
        role: "annotator",
        password: "a-long-password-1",
      }),
      422,
      "name",
    );
    await expectField(
      await post("/api/adjudicate/decisions", adj, {
        poolItemId: fx.items[1].id,
        grade: 1,
        startSeconds: null,
        rationale: "why\u0000",
        idempotencyKey: randomUUID(),
      }),
      422,
      "rationale",
    );
    expect(await db.labelEvent.count()).toBe(events);
    expect(await db.user.count({ where: { email: "nul@example.org" } })).toBe(0);
    expect((await db.project.findUniqueOrThrow({ where: { id: fx.project.id } })).guidelines).not.toContain("\u0000");
  });

  it("refuses a NUL or an oversized chunk in an import with its file and line (422), writing nothing", async () => {
    const upload = (kind: string, name: string, body: string) =>
      fetch(`${server.url}/api/lead/projects/${fx.project.id}/imports/${kind}?name=${encodeURIComponent(name)}`, {
        method: "POST",
        headers: { Cookie: lead },
        body,
      });
    const chunks = await db.chunk.count();
    const escaped = await upload(
      "chunks",
      "chunks.jsonl",
      `{"id":"n1","video":"vid-file","start":1,"end":2,"text":"fine"}\n{"id":"n2","video":"vid-file","start":1,"end":2,"text":"a\\u0000b"}\n`,
    );
    expect(escaped.status).toBe(422);
    expect(((await escaped.json()) as TError).error.details).toEqual([
      { file: "chunks.jsonl", line: 2, field: "text", message: "must not contain a NUL character (U+0000)" },
    ]);
    const raw = await upload("queries", "queries.tsv", "id\ttext\nq-nul\tWhat\u0000now\n");
    expect(raw.status).toBe(422);
    expect(((await raw.json()) as TError).error.details).toEqual([
      {
        file: "queries.tsv",
        line: 2,
        message: "a NUL character (U+0000) at byte 11 of the line: text may not contain NUL (remove it)",
      },
    ]);
    const big = await upload(
      "chunks",
      "big.jsonl",
      `{"id":"n3","video":"vid-file","start":1,"end":2,"text":"ok"}\n${JSON.stringify({ id: "n4", video: "vid-file", start: 1, end: 2, text: "x".repeat(100_001) })}\n`,
    );
    expect(big.status).toBe(422);
    expect(((await big.json()) as TError).error.details).toMatchObject([{ file: "big.jsonl", line: 2, field: "text" }]);
    expect((await upload("chunks", "name\u0000.jsonl", "")).status).toBe(422);
    expect(await db.chunk.count()).toBe(chunks);
  });

  it("refuses a timeSpentMs past 2^31 − 1 and a 1e308 start with a 422 naming the field", async () => {
    const item = fx.items[4].id;
    await expectField(await grade(ann, item, 1, { timeSpentMs: 2 ** 31 }), 422, "timeSpentMs");
    await expectField(await grade(ann, item, 1, { startSeconds: 1e308 }), 422, "startSeconds");
    await expectField(
      await post("/api/adjudicate/decisions", adj, {
        poolItemId: fx.items[1].id,
        grade: 1,
        startSeconds: 1e308,
        idempotencyKey: randomUUID(),
      }),
      422,
      "startSeconds",
    );
    expect((await grade(ann, item, 1, { timeSpentMs: 2 ** 31 - 1 })).status).toBe(200);
  });

  it("answers 404 for ids past 2^31 − 1, non-numeric ids and NUL in a path", async () => {
    const get = (path: string, cookie: string) => fetch(`${server.url}${path}`, { headers: { Cookie: cookie } });
    for (const id of ["2147483648", "9999999999", "99999999999999999999", "abc"]) {
      expect((await get(`/api/lead/projects/${id}`, lead)).status, id).toBe(404);
      expect((await get(`/api/lead/projects/${id}/exports/qrels`, lead)).status, id).toBe(404);
      expect((await get(`/api/dashboard/${id}/meta`, lead)).status, id).toBe(404);
      expect((await get(`/api/adjudicate/queue?projectId=${id}`, adj)).status, id).toBe(404);
      expect((await get(`/api/media/${id}`, ann)).status, id).toBe(404);
    }
    expect((await get("/api/lead/projects/2147483647", lead)).status).toBe(404);
    expect((await get("/api/annotate/items/abc%00def", ann)).status).toBe(404);
  });
});

describe("18.6 CSV exports neutralise formula cells", () => {
  it("writes text cells beginning with = + - @ with a leading ' (numbers stay numbers); JSONL and qrels unchanged", async () => {
    const get = async (path: string) => (await fetch(`${server.url}${path}`, { headers: { Cookie: lead } })).text();
    const csv = await get(`/api/lead/projects/${fx.project.id}/exports/labels?format=csv`);
    expect(csv).toContain(`"'=1+1","'-2+3",2,,imported,0,"'@SUM(A1)",vid-file,200,210,default,,,,,,\n`);
    expect(csv).not.toMatch(/(^|,)[=+\-@]/m);
    const jsonl = await get(`/api/lead/projects/${fx.project.id}/exports/labels?format=jsonl`);
    expect(jsonl).toContain(
      JSON.stringify({
        query: FORMULA.qid,
        chunk: FORMULA.docid,
        grade: 2,
        start: null,
        status: "imported",
        annotators: 0,
        source: FORMULA.source,
        video: "vid-file",
        chunk_start: 200,
        chunk_end: 210,
        chunking: "default",
        flags: [],
        notes: [],
        revision: null,
        end: null,
        labelled_by: [],
        guideline_revisions: [],
      }),
    );
    expect(await get(`/api/lead/projects/${fx.project.id}/exports/qrels`)).toContain(
      `${FORMULA.qid} 0 ${FORMULA.docid} 2\n`,
    );
  });
});
