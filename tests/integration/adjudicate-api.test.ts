import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import type { Db } from "../../lib/db/client.ts";
import { submitJudgement } from "../../lib/labels/submit.ts";
import { PASSWORDS, SECRETS, seedAnnotationFixture, type TFixture } from "./annotate-fixture.ts";

/**
 * The adjudicate route handlers against next start: the queue shows disagreements with the
 * annotators as A and B (never names), a decision is applied once, and a second adjudicator
 * deciding the same item gets 409 with the decision that stands.
 */
useTestDatabase();
let db: Db;
let fx: TFixture;
let adj1: string;
let adj2: string;
type TItem = {
  id: string;
  question: string;
  labels: { label: string; grade: number; startSeconds: number | null; notes: string }[];
  video: { src: string };
};

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  fx = await seedAnnotationFixture(db);
  // Items 0 and 1 disagree (1 vs 3, 0 vs 2); item 2 agrees; the rest are graded by one annotator only.
  const grades: [number, number][] = [
    [1, 3],
    [0, 2],
    [2, 2],
  ];
  for (const [i, [a, b]] of grades.entries()) {
    await submitJudgement(db, fx.ann.id, {
      poolItemId: fx.items[i].id,
      grade: a,
      startSeconds: 10 + i,
      notes: `ann note ${i}`,
      flags: [],
      timeSpentMs: 1,
      idempotencyKey: `adj-test-ann-${i}`,
    });
    await submitJudgement(db, fx.other.id, {
      poolItemId: fx.items[i].id,
      grade: b,
      startSeconds: 20 + i,
      notes: `other note ${i}`,
      flags: [],
      timeSpentMs: 1,
      idempotencyKey: `adj-test-oth-${i}`,
    });
  }
});
const server = useTestServer();
beforeAll(async () => {
  adj1 = await server.cookie("adj@example.org", PASSWORDS.adjudicator);
  adj2 = await server.cookie("adj2@example.org", PASSWORDS.adjudicator2);
});

const queue = async (cookie: string) =>
  (await (
    await fetch(`${server.url}/api/adjudicate/queue?projectId=${fx.project.id}`, { headers: { Cookie: cookie } })
  ).json()) as TItem[];
const decide = (cookie: string, body: Record<string, unknown>) =>
  fetch(`${server.url}/api/adjudicate/decisions`, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

describe("adjudicate API", () => {
  it("lists exactly the disagreements, annotators as A and B without names", async () => {
    const projects = (await (
      await fetch(`${server.url}/api/adjudicate/projects`, { headers: { Cookie: adj1 } })
    ).json()) as { id: number; name: string; pending: number }[];
    // The picker's count: the two disagreements.
    expect(projects).toMatchObject([{ id: fx.project.id, name: "Blind project", pending: 2 }]);
    const items = await queue(adj1);
    expect(items.map((i) => i.id).sort()).toEqual([fx.items[0].id, fx.items[1].id].sort());
    const first = items.find((i) => i.id === fx.items[0].id)!;
    // A is the first submission (the annotator under test), B the second.
    expect(first.labels).toEqual([
      { label: "A", grade: 1, startSeconds: 10, endSeconds: null, notes: "ann note 0", flags: [], history: [1] },
      { label: "B", grade: 3, startSeconds: 20, endSeconds: null, notes: "other note 0", flags: [], history: [3] },
    ]);
    const text = JSON.stringify(items);
    for (const s of [SECRETS.otherName, SECRETS.otherEmail, "Ann Annotator", "ann@example.org", fx.ann.id, fx.other.id])
      expect(text.includes(s), s).toBe(false);
  });

  it("applies a decision once; a second adjudicator gets 409 and the standing decision", async () => {
    const id = fx.items[0].id;
    const ok = await decide(adj1, {
      poolItemId: id,
      grade: 2,
      startSeconds: 15,
      rationale: "the chunk names the method",
      idempotencyKey: "decide-key-0001",
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ applied: true, grade: 2, startSeconds: 15 });
    const retry = await decide(adj1, {
      poolItemId: id,
      grade: 2,
      startSeconds: 15,
      rationale: "the chunk names the method",
      idempotencyKey: "decide-key-0001",
    });
    expect(await retry.json()).toMatchObject({ applied: false });
    const late = await decide(adj2, {
      poolItemId: id,
      grade: 0,
      startSeconds: null,
      rationale: "no",
      idempotencyKey: "decide-key-0002",
    });
    expect(late.status).toBe(409);
    expect(((await late.json()) as { error: { details: unknown } }).error.details).toEqual({
      standing: { grade: 2, startSeconds: 15, endSeconds: null, rationale: "the chunk names the method", revision: 1 },
    });
    expect(await db.adjudication.count({ where: { poolItemId: id } })).toBe(1);
    expect((await queue(adj2)).map((i) => i.id)).toEqual([fx.items[1].id]);
  });

  it("races two adjudicators on one item: exactly one decision stands, the other gets 409", async () => {
    const id = fx.items[1].id;
    const [a, b] = await Promise.all([
      decide(adj1, { poolItemId: id, grade: 1, startSeconds: 11, rationale: "A", idempotencyKey: "race-key-0001" }),
      decide(adj2, { poolItemId: id, grade: 2, startSeconds: 21, rationale: "B", idempotencyKey: "race-key-0002" }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const stored = await db.adjudication.findUniqueOrThrow({ where: { poolItemId: id } });
    const loser = (await (a.status === 409 ? a : b).json()) as { error: { details: { standing: { grade: number } } } };
    expect(loser.error.details.standing.grade).toBe(stored.grade);
  });

  it("revises a decision with revises: n once; a stale revision is 409 with what stands; every decision stays in the history", async () => {
    const id = fx.items[0].id; // decided above: grade 2 at 15 s, revision 1
    const body = {
      poolItemId: id,
      grade: 3,
      startSeconds: 20,
      rationale: "B was right",
      idempotencyKey: "revise-key-0001",
      revises: 1,
    };
    const ok = await decide(adj2, body);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ applied: true, grade: 3, startSeconds: 20, revision: 2 });
    // The same key again: harmless, nothing new.
    expect(await (await decide(adj2, body)).json()).toMatchObject({ applied: false, revision: 2 });
    // Revising revision 1 again (another adjudicator's stale page): refused, with what stands.
    const stale = await decide(adj1, { ...body, grade: 1, idempotencyKey: "revise-key-0002" });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { error: { details: unknown } }).error.details).toEqual({
      standing: { grade: 3, startSeconds: 20, endSeconds: null, rationale: "B was right", revision: 2 },
    });
    // Without revises a decided item is still a conflict; revising an undecided item is one too.
    expect(
      (
        await decide(adj1, {
          poolItemId: id,
          grade: 1,
          startSeconds: 3,
          rationale: "",
          idempotencyKey: "revise-key-0003",
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await decide(adj1, {
          poolItemId: fx.items[2].id,
          grade: 1,
          startSeconds: 3,
          rationale: "",
          idempotencyKey: "revise-key-0004",
          revises: 1,
        })
      ).status,
    ).toBe(409);
    // A grade-0 revision keeps no start.
    const zero = await decide(adj1, {
      poolItemId: id,
      grade: 0,
      startSeconds: 12,
      rationale: "not an answer",
      idempotencyKey: "revise-key-0005",
      revises: 2,
    });
    expect(await zero.json()).toMatchObject({ grade: 0, startSeconds: null, revision: 3 });
    const events = await db.labelEvent.findMany({
      where: { poolItemId: id, kind: "adjudication" },
      orderBy: { id: "asc" },
      select: { after: true },
    });
    expect(events.map((e) => JSON.parse(e.after) as { grade: number; revision?: number })).toMatchObject([
      { grade: 2 },
      { grade: 3, revision: 2 },
      { grade: 0, revision: 3 },
    ]);
    // The export's provenance names the revision; the decided item left the picker's count.
    const { exportLabels } = await import("../../lib/exports/labels.ts");
    const rows = (await exportLabels(db, fx.project.id, "jsonl")).content
      .trim()
      .split("\n")
      .slice(1)
      .map(
        (l) =>
          JSON.parse(l) as {
            grade: number;
            start: number | null;
            status: string;
            revision: number | null;
            notes: string[];
          },
      );
    expect(rows.filter((r) => r.status === "adjudicated" && r.revision === 3)).toMatchObject([
      { grade: 0, start: null, notes: ["ann note 0", "other note 0"] },
    ]);
  });

  it("gives each adjudicator their own last decision in the project, with the item and the decision that stands (u on a later visit)", async () => {
    type TLast = {
      item: (TItem & { decision: { grade: number; startSeconds: number | null; revision: number } }) | null;
    };
    const last = async (cookie: string) =>
      (await (
        await fetch(`${server.url}/api/adjudicate/last?projectId=${fx.project.id}`, { headers: { Cookie: cookie } })
      ).json()) as TLast;
    // adj1 made revision 3 of item 0 last (the test above); adj2 made revision 2 of it earlier, and nothing since.
    const mine = (await last(adj1)).item;
    expect([mine?.id, mine?.decision]).toEqual([
      fx.items[0].id,
      { grade: 0, startSeconds: null, endSeconds: null, rationale: "not an answer", revision: 3 },
    ]);
    expect(mine?.labels.map((l) => l.label)).toEqual(["A", "B"]);
    expect(JSON.stringify(mine)).not.toContain(SECRETS.otherName);
    expect(JSON.stringify(mine)).not.toContain("Ann Annotator");
    // adj2's own latest event is on item 0 too; what comes back is what stands now (revision 3), so a revision of it is not stale.
    expect((await last(adj2)).item?.decision.revision).toBe(3);
    const lead = await server.cookie("lead@example.org", PASSWORDS.lead);
    expect((await last(lead)).item).toBeNull();
    const ann = await server.cookie("ann@example.org", PASSWORDS.ann);
    expect(
      (await fetch(`${server.url}/api/adjudicate/last?projectId=${fx.project.id}`, { headers: { Cookie: ann } }))
        .status,
    ).toBe(403);
  });

  it("refuses annotators (403), bad input (422) and unknown items and projects (404)", async () => {
    const ann = await server.cookie("ann@example.org", PASSWORDS.ann);
    expect(
      (
        await decide(ann, {
          poolItemId: fx.items[2].id,
          grade: 1,
          startSeconds: null,
          rationale: "",
          idempotencyKey: "x-key-00001",
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await decide(adj1, {
          poolItemId: fx.items[2].id,
          grade: 7,
          startSeconds: null,
          rationale: "",
          idempotencyKey: "x-key-00002",
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await decide(adj1, {
          poolItemId: "no-such-item",
          grade: 1,
          startSeconds: null,
          rationale: "",
          idempotencyKey: "x-key-00003",
        })
      ).status,
    ).toBe(404);
    // No project can have that id (ids in URLs that cannot exist are 404s).
    expect(
      (await fetch(`${server.url}/api/adjudicate/queue?projectId=abc`, { headers: { Cookie: adj1 } })).status,
    ).toBe(404);
    expect((await fetch(`${server.url}/api/adjudicate/queue`, { headers: { Cookie: adj1 } })).status).toBe(422);
  });
});
