import { beforeAll, describe, expect, it } from "vitest";
import { useAnnotatorProject, type TestServer } from "../helpers/fixtures.ts";
import type { Db } from "../../lib/db/client.ts";
import { PASSWORDS, type TFixture } from "./annotate-fixture.ts";

/**
 * The annotate route handlers against next start: queue and item shape, idempotent submissions
 * (a retried key is applied once), edits kept in the label history and always accepted, 401/403/404/422.
 */
const project = useAnnotatorProject();
let db: Db;
let server: TestServer;
let fx: TFixture;
let ann: string;
let other: string;

beforeAll(async () => {
  ({ db, fx, server } = project);
  ann = await server.cookie("ann@example.org", PASSWORDS.ann);
  other = await server.cookie("other-secret@example.org", PASSWORDS.other);
});

const submit = (cookie: string, body: Record<string, unknown>) =>
  fetch(`${server.url}/api/annotate/judgements`, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
const judgement = (poolItemId: string, key: string, grade = 2, extra: Record<string, unknown> = {}) => ({
  poolItemId,
  grade,
  startSeconds: 12.5,
  notes: "n",
  flags: ["unsure"],
  timeSpentMs: 1200,
  idempotencyKey: key,
  ...extra,
});

describe("annotate API", () => {
  it("gives the queue grouped by query and each item with its video and neighbouring transcript", async () => {
    const q = (await (await fetch(`${server.url}/api/annotate/queue`, { headers: { Cookie: ann } })).json()) as {
      project: { name: string; questions: number };
      questions: { text: string; index: number }[];
    };
    const count = await db.assignment.count({ where: { userId: fx.ann.id } });
    expect(q.project).toMatchObject({ name: "Blind project", questions: 2 });
    const projects = (await (
      await fetch(`${server.url}/api/annotate/projects`, { headers: { Cookie: ann } })
    ).json()) as unknown;
    expect(projects).toEqual({
      projects: [{ id: fx.project.id, name: "Blind project", done: 0, total: count, questions: 2, lastGradedAt: null }],
      current: fx.project.id,
    });
    expect(q.questions.map((g) => [g.index, g.text])).toEqual([
      [1, "How are the results of two lists combined?"],
      [2, "What does the length normalisation do?"],
    ]);
    // File chunk 2 (starts at 30 s) is in the pool of q1; its neighbours are chunks 0,1 before and 3,4 after.
    const row = await db.poolItem.findFirstOrThrow({
      where: { queryId: fx.queries.q1.id, chunk: { externalId: { endsWith: "f2" } } },
      select: { id: true },
    });
    const item = (await (
      await fetch(`${server.url}/api/annotate/items/${row.id}`, { headers: { Cookie: ann } })
    ).json()) as Record<string, unknown> & {
      chunk: { startSeconds: number };
      before: { startSeconds: number }[];
      after: { startSeconds: number }[];
      video: { src: string; kind: string };
    };
    expect(item.chunk.startSeconds).toBe(30);
    expect(item.before.map((b) => b.startSeconds)).toEqual([0, 15]);
    expect(item.after.map((b) => b.startSeconds)).toEqual([45, 60]);
    expect(item.video).toEqual({
      src: `/api/media/${fx.fileVideo.id}`,
      kind: "file",
      title: "A talk on ranking",
      durationSeconds: 92,
      allowed: true,
    });
    expect(Object.keys(item).sort()).toEqual([
      "after",
      "before",
      "chunk",
      "cues",
      "gradingClosedAt",
      // The revision of the guidelines shown, and whether the lead asked this annotator for a second look.
      "guidelineRevision",
      "guidelines",
      "id",
      "own",
      "question",
      "regrade",
      "video",
    ]);
    const yt = await db.poolItem.findFirstOrThrow({
      where: { chunk: { videoId: fx.ytVideo.id }, assignments: { some: { userId: fx.ann.id } } },
      select: { id: true },
    });
    const ytItem = (await (
      await fetch(`${server.url}/api/annotate/items/${yt.id}`, { headers: { Cookie: ann } })
    ).json()) as { video: { src: string; kind: string } };
    expect(ytItem.video.kind).toBe("youtube");
    expect(ytItem.video.src).toBe("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
  });

  it("applies a submission once however often it is retried, and keeps every edit in the history", async () => {
    const id = fx.items[0].id;
    const first = await submit(ann, judgement(id, "key-aaaa-1"));
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ applied: true, grade: 2, startSeconds: 12.5 });
    // Five retries of the same key, two of them at once.
    const retries = await Promise.all([1, 2, 3, 4, 5].map(() => submit(ann, judgement(id, "key-aaaa-1"))));
    for (const r of retries) expect(await r.json()).toMatchObject({ applied: false, grade: 2 });
    expect(await db.labelEvent.count({ where: { idempotencyKey: "key-aaaa-1" } })).toBe(1);
    // An edit with a new key changes the grade and appends to the history.
    const edit = await submit(ann, judgement(id, "key-aaaa-2", 0, { startSeconds: 14 }));
    expect(await edit.json()).toMatchObject({ applied: true, grade: 0, startSeconds: 14 });
    const events = await db.labelEvent.findMany({
      where: { poolItemId: id, actorId: fx.ann.id },
      orderBy: { id: "asc" },
      select: { before: true, after: true },
    });
    expect(events.length).toBe(2);
    expect(JSON.parse(events[1].before ?? "{}")).toMatchObject({ grade: 2, startSeconds: 12.5 });
    expect(JSON.parse(events[1].after)).toMatchObject({ grade: 0, startSeconds: 14 });
    const item = (await (
      await fetch(`${server.url}/api/annotate/items/${id}`, { headers: { Cookie: ann } })
    ).json()) as { own: unknown };
    expect(item.own).toEqual({ grade: 0, startSeconds: 14, endSeconds: null, notes: "n", flags: ["unsure"] });
    const q = (await (await fetch(`${server.url}/api/annotate/projects`, { headers: { Cookie: ann } })).json()) as {
      projects: { done: number; lastGradedAt: string | null }[];
    };
    expect(q.projects[0]).toMatchObject({ done: 1, lastGradedAt: expect.any(String) });
  });

  it("accepts an edit of an agreed item like any other (no 409 telling the peer's grade); the disagreement it makes goes to adjudication", async () => {
    const id = fx.items[1].id;
    expect((await submit(ann, judgement(id, "key-bbbb-1", 3))).status).toBe(200);
    expect((await submit(other, judgement(id, "key-bbbb-2", 3))).status).toBe(200);
    const late = await submit(ann, judgement(id, "key-bbbb-3", 1));
    expect(late.status).toBe(200);
    expect(await late.json()).toMatchObject({ applied: true, grade: 1 });
    expect(
      (await db.judgement.findUniqueOrThrow({ where: { poolItemId_userId: { poolItemId: id, userId: fx.ann.id } } }))
        .grade,
    ).toBe(1);
    expect((await db.poolItem.findUniqueOrThrow({ where: { id } })).disputedAt).toBeInstanceOf(Date);
  });

  it("answers 401, 403, 404 and 422 where it should, and writes nothing", async () => {
    const before = await db.labelEvent.count();
    expect((await submit("", judgement(fx.items[2].id, "key-cccc-1"))).status).toBe(401);
    expect((await submit(ann, judgement(fx.privateItem.id, "key-cccc-2"))).status).toBe(403);
    const bad = await submit(ann, judgement(fx.items[2].id, "key-cccc-3", 4));
    expect(bad.status).toBe(422);
    expect(JSON.stringify(await bad.json())).toContain("grade");
    expect((await submit(ann, judgement(fx.items[2].id, "key-cccc-4", 2, { flags: ["nonsense"] }))).status).toBe(422);
    expect(
      (await fetch(`${server.url}/api/annotate/items/${fx.privateItem.id}`, { headers: { Cookie: ann } })).status,
    ).toBe(404);
    expect((await fetch(`${server.url}/api/annotate/items/not-a-uuid`, { headers: { Cookie: ann } })).status).toBe(404);
    const lead = await server.cookie("lead@example.org", PASSWORDS.lead);
    expect((await fetch(`${server.url}/api/annotate/queue`, { headers: { Cookie: lead } })).status).toBe(403);
    expect(
      (await fetch(`${server.url}/api/annotate/queue?projectId=${fx.project.id}`, { headers: { Cookie: lead } }))
        .status,
    ).toBe(403);
    expect((await fetch(`${server.url}/api/annotate/projects`, { headers: { Cookie: lead } })).status).toBe(403);
    expect(await db.labelEvent.count()).toBe(before);
  });

  it("pages the queue per project: bounds, cursors and projects that are not the caller's", async () => {
    const queue = (cookie: string, query: string) =>
      fetch(`${server.url}/api/annotate/queue${query}`, { headers: { Cookie: cookie } });
    expect((await queue(ann, `?projectId=${fx.project.id}&limit=201`)).status).toBe(422);
    expect((await queue(ann, `?projectId=${fx.project.id}&limit=0`)).status).toBe(422);
    expect(
      (await queue(ann, `?projectId=${fx.project.id}&after=${fx.items[0].id}&before=${fx.items[1].id}`)).status,
    ).toBe(422);
    expect((await queue(ann, "?projectId=999999")).status).toBe(404);
    expect((await queue(ann, "?projectId=abc")).status).toBe(404);
    // Another annotator (the outsider: one item in the same project) sees only theirs, and none of ann's items works as a cursor.
    const outsider = await server.cookie("outsider@example.org", PASSWORDS.outsider);
    const own = (await (await queue(outsider, `?projectId=${fx.project.id}`)).json()) as {
      items: { id: string }[];
      project: { questions: number };
    };
    expect(own.items.map((i) => i.id)).toEqual([fx.privateItem.id]);
    expect(own.project).toMatchObject({ questions: 1 });
    expect((await queue(outsider, `?projectId=${fx.project.id}&after=${fx.items[0].id}`)).status).toBe(404);
    expect((await queue(ann, `?projectId=${fx.project.id}&before=${fx.privateItem.id}`)).status).toBe(404);
    const projects = (await (
      await fetch(`${server.url}/api/annotate/projects`, { headers: { Cookie: outsider } })
    ).json()) as unknown;
    expect(projects).toEqual({
      projects: [{ id: fx.project.id, name: "Blind project", done: 0, total: 1, questions: 1, lastGradedAt: null }],
      current: fx.project.id,
    });
    // The whole queue (the page from the first ungraded item, and the one before it), then pages of one walking it.
    type TPage = { items: { id: string; question: number; index: number }[]; hasBefore: boolean; hasAfter: boolean };
    const get = async (query: string) =>
      (await (await queue(ann, `?projectId=${fx.project.id}${query}`)).json()) as TPage;
    const rest = await get("&limit=200");
    const all = [...(rest.hasBefore ? (await get(`&limit=200&before=${rest.items[0].id}`)).items : []), ...rest.items];
    expect(all.length).toBe(await db.assignment.count({ where: { userId: fx.ann.id } }));
    const second = await get(`&limit=1&after=${all[0].id}`);
    expect(second).toEqual({ ...second, items: [all[1]], hasBefore: true });
    const back = await get(`&limit=1&before=${all[1].id}`);
    expect(back).toMatchObject({ items: [all[0]], hasBefore: false, hasAfter: true });
    expect(all[0]).toMatchObject({ question: 1, index: 1 });
  });
});
