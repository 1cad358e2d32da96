import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { useAnnotatorProject } from "../helpers/fixtures.ts";
import { PASSWORDS } from "./annotate-fixture.ts";

/**
 * Closed grading ("final items shown read-only when revisited") under blind grading (no answer
 * to an annotator depends on the other annotators or on adjudication): the lead closes grading for
 * the whole project (lib/projects/grading.ts) and every item becomes read-only at once. Walked
 * through the HTTP routes of `next start` (SQLite, or PostgreSQL with TEST_DATABASE_URL).
 */
const project = useAnnotatorProject();
let ann: string;
let other: string;
let adj: string;
let lead: string;

beforeAll(async () => {
  [ann, other, adj, lead] = await Promise.all([
    project.server.cookie("ann@example.org", PASSWORDS.ann),
    project.server.cookie("other-secret@example.org", PASSWORDS.other),
    project.server.cookie("adj@example.org", PASSWORDS.adjudicator),
    project.server.cookie("lead@example.org", PASSWORDS.lead),
  ]);
});

const call = (path: string, cookie: string, body?: unknown) =>
  fetch(`${project.server.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { Cookie: cookie, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const grade = (cookie: string, poolItemId: string, g: number, idempotencyKey: string = randomUUID()) =>
  call("/api/annotate/judgements", cookie, {
    poolItemId,
    grade: g,
    startSeconds: g > 0 ? 10 : null,
    notes: "",
    flags: [],
    timeSpentMs: 1000,
    idempotencyKey,
  });
const closing = (cookie: string, closed: boolean) =>
  call(`/api/lead/projects/${project.fx.project.id}/grading`, cookie, { closed });

describe("closing grading", () => {
  it("makes every item read-only alike, whatever its state; adjudication goes on; reopening restores grading", async () => {
    const { db, fx } = project;
    const [adjudicated, agreed, ungraded] = fx.items;
    // One item disputed then adjudicated, one agreed, one that only the peer graded.
    expect((await grade(ann, adjudicated.id, 2)).status).toBe(200);
    expect((await grade(other, adjudicated.id, 0)).status).toBe(200);
    expect((await grade(ann, agreed.id, 2)).status).toBe(200);
    expect((await grade(other, agreed.id, 2)).status).toBe(200);
    expect((await grade(other, ungraded.id, 3)).status).toBe(200);
    const sentBefore = randomUUID();
    expect((await grade(ann, agreed.id, 2, sentBefore)).status).toBe(200);
    expect(
      (
        await call("/api/adjudicate/decisions", adj, {
          poolItemId: adjudicated.id,
          grade: 1,
          startSeconds: 10,
          rationale: "partly",
          idempotencyKey: randomUUID(),
        })
      ).status,
    ).toBe(200);

    // Only a lead closes it; closing twice keeps the first time.
    expect((await closing(ann, true)).status).toBe(403);
    expect((await closing(adj, true)).status).toBe(403);
    const closed = await closing(lead, true);
    expect(closed.status).toBe(200);
    const { closedAt } = (await closed.json()) as { closedAt: string };
    expect(Date.parse(closedAt)).toBeGreaterThan(0);
    expect(await (await closing(lead, true)).json()).toEqual({ closedAt });

    // Every grade is refused with the same answer, whatever the item's state.
    const judgementsBefore = await db.judgement.findMany({ orderBy: { id: "asc" } });
    const answers = [];
    for (const item of [adjudicated, agreed, ungraded]) {
      const res = await grade(ann, item.id, 3);
      answers.push({ status: res.status, body: await res.json() });
    }
    expect(answers[0].status).toBe(409);
    expect(JSON.stringify(answers[0].body)).toMatch(/grading in this project was closed by the lead/);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(await db.judgement.findMany({ orderBy: { id: "asc" } })).toEqual(judgementsBefore);
    // A retry of a grade acknowledged before the closing is still answered as applied before (nothing lost, nothing refused).
    const retry = await grade(ann, agreed.id, 2, sentBefore);
    expect(retry.status).toBe(200);
    expect(await retry.json()).toMatchObject({ applied: false, grade: 2 });

    // The pages the annotator reads say so, on every item alike: the time and their own grade only.
    const queue = (await (await call(`/api/annotate/queue?projectId=${fx.project.id}`, ann)).json()) as {
      project: { gradingClosedAt: string | null };
    };
    expect(queue.project.gradingClosedAt).toBe(closedAt);
    const items = [];
    for (const item of [adjudicated, agreed, ungraded])
      items.push(
        (await (await call(`/api/annotate/items/${item.id}`, ann)).json()) as {
          gradingClosedAt: string | null;
          own: { grade: number } | null;
        },
      );
    expect(items.map((i) => [i.gradingClosedAt, i.own?.grade ?? null])).toEqual([
      [closedAt, 2],
      [closedAt, 2],
      [closedAt, null],
    ]);

    // Nothing new is assigned while it is closed (annotators could not grade it); nothing written.
    const assignments = await db.assignment.count();
    const assign = await call(`/api/lead/projects/${fx.project.id}/assign`, lead, { perItem: 1, dryRun: true });
    expect(assign.status).toBe(409);
    expect(JSON.stringify(await assign.json())).toMatch(/is closed .*reopen it first/);
    expect((await call(`/api/lead/projects/${fx.project.id}/assign`, lead, { perItem: 1, answers: true })).status).toBe(
      409,
    );
    expect(await db.assignment.count()).toBe(assignments);

    // The dashboard's calibration advice says to reopen (its version includes the closing).
    const advice = async () =>
      (
        (await (await call(`/api/dashboard/${fx.project.id}/calibration`, lead)).json()) as {
          advice: { action: string };
        }
      ).advice.action;
    expect(await advice()).toBe("reopen");

    // Adjudication goes on: the decision can be revised.
    expect(
      (
        await call("/api/adjudicate/decisions", adj, {
          poolItemId: adjudicated.id,
          grade: 2,
          startSeconds: 12,
          rationale: "on second thought",
          revises: 1,
          idempotencyKey: randomUUID(),
        })
      ).status,
    ).toBe(200);

    // Reopened: grading works again.
    expect(await (await closing(lead, false)).json()).toEqual({ closedAt: null });
    expect(await advice()).not.toBe("reopen");
    expect((await grade(ann, ungraded.id, 1)).status).toBe(200);
    expect(
      (await db.judgement.findFirstOrThrow({ where: { poolItemId: ungraded.id, user: { email: "ann@example.org" } } }))
        .grade,
    ).toBe(1);
  });
});
