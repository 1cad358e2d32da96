import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { useAnnotatorProject } from "../../helpers/fixtures.ts";
import { assignAnswersTo, makeAnswer } from "../../helpers/answer-items.ts";
import { PASSWORDS } from "../annotate-fixture.ts";

/**
 * The outside security test's stale claim edit, replayed through the HTTP routes of
 * `next start` (SQLite, or PostgreSQL with TEST_DATABASE_URL): ann1 loaded claim version 1, ann2
 * split claim 0, ann1 merged [0, 1] sending version 1 and got 200 with ann2's split undone; the route
 * ignored the version and a retried edit applied twice. Claim edits are now each annotator's own
 * (lib/answers/claims-edit.ts): nothing ann1 reads changes with ann2's edit, a stale version is a
 * 409 that writes nothing, a retry (same key) is applied once, and a version past 32 bits is a 422.
 */
const project = useAnnotatorProject(async (db, fx) => {
  const chunk = await db.chunk.findFirstOrThrow({ where: { videoId: fx.fileVideo.id }, select: { id: true } });
  const a = await makeAnswer(db, fx.project.id, {
    system: "gen-stale",
    queryId: fx.queries.q1.id,
    claims: ["Lists are fused by rank.", "Scores are ignored.", "It is simple."],
    context: [chunk.id],
  });
  await assignAnswersTo(db, [a], [fx.ann, fx.other]);
  answerId = a.id;
});
let answerId: string;
let ann1: string;
let ann2: string;

beforeAll(async () => {
  [ann1, ann2] = await Promise.all([
    project.server.cookie("ann@example.org", PASSWORDS.ann),
    project.server.cookie("other-secret@example.org", PASSWORDS.other),
  ]);
});

const get = async (cookie: string, path: string) => {
  const r = await fetch(`${project.server.url}${path}`, { headers: { Cookie: cookie } });
  return { status: r.status, body: await r.text() };
};
const edit = async (cookie: string, body: unknown) => {
  const r = await fetch(`${project.server.url}/api/annotate/answers/items/${answerId}/claims`, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return {
    status: r.status,
    json: (await r.json()) as { version?: number; claims?: { text: string }[]; error?: { details?: unknown } },
  };
};
/** Everything the annotator reads of their answers: the answer, the queue, the projects. */
const readsOf = async (cookie: string) => [
  await get(cookie, `/api/annotate/answers/items/${answerId}`),
  await get(cookie, `/api/annotate/answers/queue?projectId=${project.fx.project.id}`),
  await get(cookie, "/api/annotate/answers/projects"),
];

describe("issue 30 item 6: claim edits", () => {
  it("a peer's edit shows in no response field; a stale version is a 409 that writes nothing; a retry is applied once", async () => {
    const { db } = project;
    const before = await readsOf(ann1);
    expect(JSON.parse(before[0].body)).toMatchObject({ claimVersion: 1 });

    const split = await edit(ann2, {
      op: { kind: "split", position: 0, at: 5 },
      version: 1,
      idempotencyKey: randomUUID(),
    });
    expect(split.status).toBe(200);
    expect(split.json.claims?.map((c) => c.text)).toEqual([
      "Lists",
      "are fused by rank.",
      "Scores are ignored.",
      "It is simple.",
    ]);
    // ann1 reads byte for byte what they read before.
    expect(await readsOf(ann1)).toEqual(before);

    // ann1's merge of [0, 1] on version 1 (what they saw) is theirs: ann2's split stands for ann2.
    const key = randomUUID();
    const merged = await edit(ann1, { op: { kind: "merge", positions: [0, 1] }, version: 1, idempotencyKey: key });
    expect(merged.status).toBe(200);
    expect(merged.json.claims?.map((c) => c.text)).toEqual([
      "Lists are fused by rank. Scores are ignored.",
      "It is simple.",
    ]);
    expect(
      (
        JSON.parse((await get(ann2, `/api/annotate/answers/items/${answerId}`)).body) as { claims: { text: string }[] }
      ).claims.map((c) => c.text),
    ).toEqual(["Lists", "are fused by rank.", "Scores are ignored.", "It is simple."]);

    // A retry (same key): the same answer, applied once.
    const retry = await edit(ann1, { op: { kind: "merge", positions: [0, 1] }, version: 1, idempotencyKey: key });
    expect(retry).toEqual(merged);
    const edits = () => db.answerEvent.count({ where: { answerId, kind: { in: ["merge", "split"] } } });
    expect(await edits()).toBe(2);

    // Version 1 again (a stale page): 409 naming ann1's own version, nothing written.
    const stale = await edit(ann1, {
      op: { kind: "merge", positions: [0, 1] },
      version: 1,
      idempotencyKey: randomUUID(),
    });
    expect(stale.status).toBe(409);
    expect(stale.json.error?.details).toEqual({ version: merged.json.version });
    expect(await edits()).toBe(2);
    expect((await db.answer.findUniqueOrThrow({ where: { id: answerId } })).claimVersion).toBe(1);

    // Bounds: a version past 32 bits, or no key, is a 422 (not a database error).
    expect(
      (
        await edit(ann1, {
          op: { kind: "merge", positions: [0, 1] },
          version: 2147483648,
          idempotencyKey: randomUUID(),
        })
      ).status,
    ).toBe(422);
    expect((await edit(ann1, { op: { kind: "merge", positions: [0, 1] }, version: 1 })).status).toBe(422);
  });
});
