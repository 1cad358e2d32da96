import { beforeAll, describe, expect, it } from "vitest";
import { useAnnotatorProject } from "../helpers/fixtures.ts";
import { makeAnswer } from "../helpers/answer-items.ts";
import { PASSWORDS } from "./annotate-fixture.ts";

/**
 * The answer task's routes against next start: the lead assigns answers from the
 * assign route (preview, then the preview's seed), two annotators label over HTTP and disagree, the
 * adjudicator reads the answer queue and decides (a retry is harmless, a second decision is a 409
 * carrying the one that stands). Needs a production build (NEXT_DIST_DIR).
 */
const project = useAnnotatorProject(async (db, fx) => {
  const chunk = await db.chunk.findFirstOrThrow({ where: { videoId: fx.fileVideo.id }, select: { id: true } });
  for (const [i, q] of [fx.queries.q1, fx.queries.q2].entries())
    answers.push(
      (
        await makeAnswer(db, fx.project.id, {
          system: `gen-${i}`,
          queryId: q.id,
          claims: ["First claim.", "Second claim."],
          context: [chunk.id],
        })
      ).id,
    );
});
const answers: string[] = [];
let lead: string, adj: string, ann: string, other: string;

beforeAll(async () => {
  [lead, adj, ann, other] = await Promise.all([
    project.server.cookie("lead@example.org", PASSWORDS.lead),
    project.server.cookie("adj@example.org", PASSWORDS.adjudicator),
    project.server.cookie("ann@example.org", PASSWORDS.ann),
    project.server.cookie("other-secret@example.org", PASSWORDS.other),
  ]);
});

const post = async (cookie: string, path: string, body: unknown) => {
  const r = await fetch(`${project.server.url}${path}`, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: r.status, json: (await r.json()) as Record<string, unknown> };
};
const get = async (cookie: string, path: string) => {
  const r = await fetch(`${project.server.url}${path}`, { headers: { Cookie: cookie } });
  return { status: r.status, json: (await r.json()) as unknown };
};

describe("answer task routes", () => {
  it("the lead assigns the answers to the two annotators: a preview writes nothing, the confirmed call takes its seed, a repeat adds nothing", async () => {
    const { db, fx } = project;
    const path = `/api/lead/projects/${fx.project.id}/assign`;
    const body = { perItem: 2, annotators: ["ann@example.org", "other-secret@example.org"], answers: true };
    expect((await post(ann, path, { ...body, dryRun: true })).status).toBe(403);
    const preview = await post(lead, path, { ...body, dryRun: true });
    expect(preview.status).toBe(200);
    // 2 answers × 2 annotators.
    expect(preview.json).toMatchObject({ created: 4, items: 2, itemsToppedUp: 2, perItem: 2, shortfall: 0 });
    expect(await db.answerAssignment.count()).toBe(0);
    const done = await post(lead, path, { ...body, seed: preview.json.seed });
    expect(done.json).toMatchObject({ created: 4, seed: preview.json.seed });
    expect(await db.answerAssignment.count()).toBe(4);
    expect((await post(lead, path, body)).json).toMatchObject({ created: 0 });
  });

  it("two labels that disagree go to the adjudicator, who decides once", async () => {
    const label = (answerId: string, key: string, claimLabels: string[], relevance: number) => ({
      answerId,
      claimVersion: 1,
      claimLabels,
      relevance,
      notes: "",
      flags: [],
      timeSpentMs: 500,
      idempotencyKey: key,
    });
    expect(
      (await post(ann, "/api/annotate/answers/judgements", label(answers[0], "api-ann-0-key", ["s", "s"], 3))).status,
    ).toBe(200);
    expect(
      (await post(other, "/api/annotate/answers/judgements", label(answers[0], "api-other-0-key", ["s", "x"], 3)))
        .status,
    ).toBe(200);
    const retry = await post(
      other,
      "/api/annotate/answers/judgements",
      label(answers[0], "api-other-0-key", ["s", "x"], 3),
    );
    expect(retry.json).toMatchObject({ applied: false, claimLabels: ["s", "x"] });
    // The second answer: both agree.
    await post(ann, "/api/annotate/answers/judgements", label(answers[1], "api-ann-1-key", ["p", "n"], 1));
    await post(other, "/api/annotate/answers/judgements", label(answers[1], "api-other-1-key", ["p", "n"], 1));

    expect((await get(ann, `/api/adjudicate/answers/queue?projectId=${project.fx.project.id}`)).status).toBe(403);
    expect((await get(adj, "/api/adjudicate/answers/projects")).json).toEqual([
      { projectId: project.fx.project.id, pending: 1 },
    ]);
    const queue = (await get(adj, `/api/adjudicate/answers/queue?projectId=${project.fx.project.id}`)).json as {
      id: string;
      labels: { label: string; claimLabels: string[] }[];
    }[];
    expect(queue.map((q) => [q.id, q.labels.map((l) => `${l.label}:${l.claimLabels.join("")}`)])).toEqual([
      [answers[0], ["A:ss", "B:sx"]],
    ]);

    const decision = {
      answerId: answers[0],
      claimVersion: 1,
      claimLabels: ["s", "x"],
      relevance: 3,
      rationale: "the video says it",
      idempotencyKey: "api-adj-0-key",
    };
    expect((await post(adj, "/api/adjudicate/answers/decisions", { ...decision, claimLabels: ["s"] })).status).toBe(
      422,
    );
    const first = await post(adj, "/api/adjudicate/answers/decisions", decision);
    expect(first).toMatchObject({
      status: 200,
      json: { applied: true, adjudication: { claimLabels: ["s", "x"], relevance: 3, revision: 1 } },
    });
    expect((await post(adj, "/api/adjudicate/answers/decisions", decision)).json).toMatchObject({ applied: false });
    const second = await post(adj, "/api/adjudicate/answers/decisions", {
      ...decision,
      claimLabels: ["n", "n"],
      idempotencyKey: "api-adj-0-key-2",
    });
    expect(second.status).toBe(409);
    expect(second.json).toMatchObject({
      error: { code: "conflict", details: { standing: { claimLabels: ["s", "x"], revision: 1 } } },
    });
    expect((await get(adj, "/api/adjudicate/answers/projects")).json).toEqual([
      { projectId: project.fx.project.id, pending: 0 },
    ]);
    // The agreed answer needs no decision.
    expect(
      (
        await post(adj, "/api/adjudicate/answers/decisions", {
          ...decision,
          answerId: answers[1],
          idempotencyKey: "api-adj-1-key",
        })
      ).status,
    ).toBe(409);
  });
});
