import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { runCli } from "../helpers/cli.ts";
import type { TFixture } from "./annotate-fixture.ts";

/**
 * Guideline revisions on the suite's database (SQLite, or PostgreSQL with TEST_DATABASE_URL): each
 * save is a revision with its author; grades and decisions record the revision the person was shown
 * (also when the guidelines changed while the page was open); status counts what was graded under
 * older revisions; a regrade request opens the item again in the annotator's queue until they
 * submit it, and the history keeps both grades; the labels export ends with who labelled and under
 * which revision.
 */
useTestDatabase();

let db: Db;
let fx: TFixture;
let items: string[];
let pid: number;
const key = () => randomUUID();

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  const { seedAnnotationFixture, SECRETS } = await import("./annotate-fixture.ts");
  db = await getDb();
  fx = await seedAnnotationFixture(db);
  pid = fx.project.id;
  // Items of q1 and q2 other than the pair with an imported reference label (its chunk f0 under q1).
  const f0 = await db.chunk.findFirstOrThrow({ where: { externalId: `${SECRETS.docidPrefix}f0` } });
  items = fx.items
    .filter((i) => !(i.queryId === fx.queries.q1.id && i.chunkId === f0.id))
    .map((i) => i.id)
    .sort();
});

const lib = async () => ({
  ...(await import("../../lib/projects/guidelines.ts")),
  ...(await import("../../lib/labels/submit.ts")),
  ...(await import("../../lib/adjudication/decide.ts")),
  ...(await import("../../lib/annotate/view.ts")),
  ...(await import("../../lib/annotate/queue.ts")),
  ...(await import("../../lib/assignment/regrade.ts")),
});

const grade = async (userId: string, poolItemId: string, g: number, guidelineRevision?: number | null) => {
  const { submitJudgement } = await lib();
  return submitJudgement(db, userId, {
    poolItemId,
    grade: g,
    startSeconds: null,
    idempotencyKey: key(),
    ...(guidelineRevision === undefined ? {} : { guidelineRevision }),
  });
};

const stored = async (poolItemId: string, userId: string) =>
  db.judgement.findUniqueOrThrow({ where: { poolItemId_userId: { poolItemId, userId } } });

describe("guideline revisions", () => {
  it("saves each change as a revision with its author, and diffs two revisions", async () => {
    const { saveGuidelines, listGuidelineRevisions, diffGuidelines, currentGuidelineRevision } = await lib();
    expect(await currentGuidelineRevision(db, pid)).toBe(0);
    expect(await saveGuidelines(db, pid, "A\nB\n", fx.lead.id)).toEqual({ revision: 1, changed: true });
    // The same text again writes nothing.
    expect(await saveGuidelines(db, pid, "A\nB\n", fx.lead.id)).toEqual({ revision: 1, changed: false });
    const list = await listGuidelineRevisions(db, pid);
    expect(list.map((r) => [r.revision, r.author?.name, r.chars])).toEqual([[1, "Lena Lead", 4]]);
    // From the empty text before the first save: both lines added.
    const d = await diffGuidelines(db, pid, 0, 1);
    expect([d.added, d.removed, d.parts]).toEqual([2, 0, [{ kind: "added", text: "A\nB\n" }]]);
    await expect(diffGuidelines(db, pid, 1, 9)).rejects.toMatchObject({ code: "not_found" });
  });

  it("records with each grade and decision the revision shown, also after the guidelines changed meanwhile", async () => {
    const { annotatorItem, adjudicate, saveGuidelines, diffGuidelines } = await lib();
    const [i0, i1, i2, i3] = items;
    const shown = await annotatorItem(db, fx.ann.id, i3);
    expect([shown?.guidelines, shown?.guidelineRevision, shown?.regrade]).toEqual(["A\nB\n", 1, false]);

    await grade(fx.ann.id, i0, 2, 1);
    await grade(fx.other.id, i0, 2, 1);
    await grade(fx.ann.id, i1, 3, 1);
    await grade(fx.other.id, i1, 1, 1);
    // A client that does not say which revision it showed: none recorded.
    await grade(fx.ann.id, i2, 1);
    expect((await stored(i2, fx.ann.id)).guidelineRevision).toBeNull();

    // The lead saves revision 2 while ann has item i3 open under revision 1.
    expect(await saveGuidelines(db, pid, "A\nC\nD\n", fx.lead.id)).toEqual({ revision: 2, changed: true });
    const d = await diffGuidelines(db, pid, 1, 2);
    // jsdiff diffLines("A\nB\n", "A\nC\nD\n"): A kept, B removed, C and D added.
    expect(d.parts).toEqual([
      { kind: "same", text: "A\n" },
      { kind: "removed", text: "B\n" },
      { kind: "added", text: "C\nD\n" },
    ]);
    expect([d.added, d.removed]).toEqual([2, 1]);
    expect((await db.project.findUniqueOrThrow({ where: { id: pid } })).guidelines).toBe("A\nC\nD\n");

    await grade(fx.ann.id, i3, 1, shown?.guidelineRevision);
    expect((await stored(i3, fx.ann.id)).guidelineRevision).toBe(1);
    // A revision the project does not have: refused, naming the field, nothing written.
    const before = await db.labelEvent.count();
    await expect(grade(fx.other.id, i3, 1, 3)).rejects.toMatchObject({ code: "bad_input" });
    await expect(grade(fx.other.id, i3, 1, 3)).rejects.toThrow(/guidelineRevision: expected .* \(0 … 2\), got 3/);
    expect(await db.labelEvent.count()).toBe(before);
    await grade(fx.other.id, i3, 1, 2);
    expect((await stored(i3, fx.other.id)).guidelineRevision).toBe(2);
    expect((await annotatorItem(db, fx.other.id, i3))?.guidelineRevision).toBe(2);

    await expect(
      adjudicate(db, fx.adjudicator.id, {
        poolItemId: i1,
        grade: 2,
        startSeconds: null,
        idempotencyKey: key(),
        guidelineRevision: 9,
      }),
    ).rejects.toMatchObject({ code: "bad_input" });
    const decided = await adjudicate(db, fx.adjudicator.id, {
      poolItemId: i1,
      grade: 2,
      startSeconds: null,
      idempotencyKey: key(),
      guidelineRevision: 1,
    });
    expect(decided.applied).toBe(true);
    expect((await db.adjudication.findUniqueOrThrow({ where: { poolItemId: i1 } })).guidelineRevision).toBe(1);
  });

  it("counts what was graded and decided under older revisions (status)", async () => {
    const { olderGuidelines } = await lib();
    // Older than revision 2: i0 (ann, other), i1 (ann, other), i3 (ann) = 5 grades on 3 items;
    // i2's grade names no revision; i1's decision was made under revision 1.
    const expected = { current: 2, items: 3, judgements: 5, regradeRequested: 0, adjudications: 1, unrecorded: 1 };
    expect(await olderGuidelines(db, pid)).toEqual(expected);
    const r = runCli(["status", "--json", "--project", fx.project.name]);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { guidelines: unknown }).guidelines).toEqual(expected);
    const text = runCli(["status", "--project", fx.project.name]).stdout;
    expect(text).toMatch(/graded under older guidelines\s+3 item\(s\), 5 grade\(s\)/);
  });

  it("sends older grades back: the item is open again for its annotator until re-submitted, and the history keeps both", async () => {
    const { requestRegrade, annotatorQueuePage, annotatorItem, annotatorProjects, olderGuidelines } = await lib();
    const { mulberry32, shuffle } = await import("../../lib/stats/random.ts");
    const [i0, i1, i2, i3] = items;
    const olderPairs: Record<string, string[]> = {
      [i0]: [fx.ann.id, fx.other.id],
      [i1]: [fx.ann.id, fx.other.id],
      [i3]: [fx.ann.id],
    };
    // A sample of 2 of the 3 items: the documented draw (Fisher–Yates on the ids in order, mulberry32(seed)).
    const drawn = shuffle([i0, i1, i3].sort(), mulberry32(7)).slice(0, 2);
    const sampled = await requestRegrade(db, pid, { sample: 2, seed: 7 });
    const asked = (await db.assignment.findMany({ where: { regradeRequestedAt: { not: null } } }))
      .map((a) => `${a.poolItemId}/${a.userId}`)
      .sort();
    const wanted = drawn.flatMap((i) => olderPairs[i].map((u) => `${i}/${u}`)).sort();
    expect(asked).toEqual(wanted);
    expect([sampled.items, sampled.chosen, sampled.requested, sampled.revision]).toEqual([3, 2, wanted.length, 2]);
    // The rest, through the CLI: only the item not yet sent back.
    const rest = [i0, i1, i3].find((i) => !drawn.includes(i)) ?? "";
    const cli = runCli(["assign", "--regrade-older-guidelines", "--project", fx.project.name]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toContain(
      `${olderPairs[rest].length} grade(s) on 1 of 1 item(s) graded under guidelines older than revision 2 sent back`,
    );
    expect(await db.assignment.count({ where: { regradeRequestedAt: { not: null } } })).toBe(5);
    expect((await requestRegrade(db, pid)).items).toBe(0);

    // ann's queue: i0, i1, i3 open again; i2 (no revision recorded) stays done. other's: i0, i1 open, i3 done.
    // The whole queue: the page where the annotator left off and the page before it (9 items at most).
    const doneOf = async (userId: string) => {
      const page = await annotatorQueuePage(db, userId, pid, { limit: 50 });
      const first = page?.items[0]?.id;
      const earlier = first ? await annotatorQueuePage(db, userId, pid, { before: first, limit: 50 }) : null;
      const all = [...(earlier?.items ?? []), ...(page?.items ?? [])];
      return Object.fromEntries(all.filter((i) => items.slice(0, 4).includes(i.id)).map((i) => [i.id, i.done]));
    };
    expect(await doneOf(fx.ann.id)).toEqual({ [i0]: false, [i1]: false, [i2]: true, [i3]: false });
    expect(await doneOf(fx.other.id)).toEqual({ [i0]: false, [i1]: false, [i2]: false, [i3]: true });
    const projects = await annotatorProjects(db, fx.ann.id);
    expect(projects.projects.find((p) => p.id === pid)?.done).toBe(1);
    // The annotator sees their own grade and that a second look is asked; nothing of the peer's.
    const item = await annotatorItem(db, fx.ann.id, i0);
    expect([item?.regrade, item?.own?.grade, item?.guidelineRevision]).toEqual([true, 2, 2]);

    // Re-graded under revision 2: a changed grade, and an unchanged one (a second look that keeps the grade).
    await grade(fx.ann.id, i0, 3, 2);
    await grade(fx.ann.id, i1, 3, 2);
    for (const i of [i0, i1]) {
      expect((await stored(i, fx.ann.id)).guidelineRevision).toBe(2);
      const a = await db.assignment.findUniqueOrThrow({
        where: { poolItemId_userId: { poolItemId: i, userId: fx.ann.id } },
      });
      expect(a.regradeRequestedAt).toBeNull();
    }
    expect(await doneOf(fx.ann.id)).toEqual({ [i0]: true, [i1]: true, [i2]: true, [i3]: false });
    const history = await db.labelEvent.findMany({
      where: { poolItemId: i0, actorId: fx.ann.id, kind: "judgement" },
      orderBy: { id: "asc" },
    });
    expect(history.map((e) => (JSON.parse(e.after) as { grade: number }).grade)).toEqual([2, 3]);
    expect((JSON.parse(history[1].before ?? "null") as { grade: number }).grade).toBe(2);
    expect(await olderGuidelines(db, pid)).toMatchObject({ items: 3, judgements: 3, regradeRequested: 3 });
  });

  it("exports who labelled and under which revision as the last columns, pseudonymous unless names are asked for", async () => {
    const { exportLabels, CSV_COLUMNS } = await import("../../lib/exports/labels.ts");
    const { pseudonym } = await import("../../lib/annotators/report.ts");
    const [, i1, , i3] = items;
    const docid = async (poolItemId: string) =>
      (await db.poolItem.findUniqueOrThrow({ where: { id: poolItemId }, include: { chunk: true } })).chunk.externalId;
    const now = new Date("2026-12-05T12:00:00Z");
    const jsonl = await exportLabels(db, pid, "jsonl", now);
    const named = await exportLabels(db, pid, "jsonl", now, { names: true });
    // Who labelled is not part of the label set's identity: the same version either way.
    expect(named.version).toEqual(jsonl.version);
    const rows = (e: { content: string }) =>
      e.content
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    const find = async (e: { content: string }, i: string) => {
      const d = await docid(i);
      return rows(e).find((r) => r.chunk === d);
    };
    const agreed = await find(jsonl, i3);
    expect(Object.keys(agreed ?? {}).slice(-3)).toEqual(["end", "labelled_by", "guideline_revisions"]);
    // i3: agreed (1 and 1), ann's grade first (made first), under revisions 1 and 2.
    expect([agreed?.status, agreed?.labelled_by, agreed?.guideline_revisions]).toEqual([
      "agreed",
      [pseudonym(pid, fx.ann.id), pseudonym(pid, fx.other.id)],
      [1, 2],
    ]);
    expect(pseudonym(pid, fx.ann.id)).toMatch(/^annotator-[0-9a-f]{8}$/);
    const decided = await find(jsonl, i1);
    expect([decided?.status, decided?.labelled_by, decided?.guideline_revisions]).toEqual([
      "adjudicated",
      [pseudonym(pid, fx.adjudicator.id)],
      [1],
    ]);
    expect((await find(named, i3))?.labelled_by).toEqual(["Ann Annotator", fx.other.name]);
    expect(
      rows(jsonl)
        .filter((r) => r.status === "imported")
        .map((r) => [r.labelled_by, r.guideline_revisions]),
    ).toEqual([[[], []]]);

    const csv = await exportLabels(db, pid, "csv", now);
    const lines = csv.content.trim().split("\n");
    expect(lines[0]).toBe(CSV_COLUMNS.join(","));
    expect(lines[0].endsWith(",end,labelled_by,guideline_revisions")).toBe(true);
    const d3 = await docid(i3);
    expect(
      lines
        .find((l) => l.includes(`,${d3},`))
        ?.endsWith(`,${pseudonym(pid, fx.ann.id)};${pseudonym(pid, fx.other.id)},1;2`),
    ).toBe(true);
    // qrels unchanged: four columns.
    const qrels = await exportLabels(db, pid, "qrels", now);
    expect(
      qrels.content
        .trim()
        .split("\n")
        .every((l) => l.split(" ").length === 4),
    ).toBe(true);
  });
});
