import { createHash, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { runCli } from "../helpers/cli.ts";
import type { Db } from "../../lib/db/client.ts";
import { submitJudgement } from "../../lib/labels/submit.ts";
import { adjudicationQueue } from "../../lib/adjudication/queue.ts";
import { adjudicate } from "../../lib/adjudication/decide.ts";
import { pseudonym } from "../../lib/annotators/report.ts";

/**
 * The whole data path through the real CLI, on the fixture files in tests/fixtures/cli-e2e
 * (their README explains how every expected file was worked out): import everything, pool,
 * assign, grade (through lib/labels, as the annotate page does), adjudicate, export, compare.
 */
const fixtures = join(import.meta.dirname, "..", "fixtures", "cli-e2e");
const fx = (name: string) => join(fixtures, name);
const expected = (name: string) => readFileSync(fx(name), "utf8");

useTestDatabase();
let db: Db;
let outDir: string;

function cli(...args: string[]) {
  const r = runCli(args);
  if (r.code !== 0) throw new Error(`assessor ${args.join(" ")} exited ${r.code}:\n${r.stderr}`);
  return r;
}

beforeAll(async () => {
  db = await (await import("../../lib/db/client.ts")).getDb();
  outDir = mkdtempSync(join(tmpdir(), "assessor-e2e-"));
});
afterAll(async () => {
  rmSync(outDir, { recursive: true, force: true });
});

describe("assessor end to end", () => {
  it("imports, pools, assigns, labels, adjudicates and exports the expected files", async () => {
    cli("project", "create", "e2e", "--start-tolerance", "15");
    cli("user", "add", "--email", "ann@example.org", "--name", "Ann", "--role", "annotator");
    cli("user", "add", "--email", "ben@example.org", "--name", "Ben", "--role", "annotator");
    cli("user", "add", "--email", "ada@example.org", "--name", "Ada", "--role", "adjudicator");
    // A third annotator who is not chosen: --annotators must be respected.
    cli("user", "add", "--email", "cat@example.org", "--name", "Cat", "--role", "annotator");

    cli("import", "videos", fx("videos.jsonl"));
    cli("import", "chunks", fx("chunks.jsonl"));
    cli("import", "queries", fx("queries.jsonl"));
    cli("import", "run", "--system", "A", fx("run-a.txt"));
    cli("import", "run", "--system", "B", fx("run-b.txt"));
    cli("import", "judge", "--judge", "gpt", fx("judge.qrels"));
    cli("import", "labels", "--source", "legacy", fx("legacy.qrels"));

    const pool = cli("pool", "--depth", "2");
    expect(pool.stdout).toContain("9 new item(s)");
    const items = await db.poolItem.findMany({
      include: { query: true, chunk: true, provenance: { include: { run: true } } },
    });
    const poolLines = items
      .map(
        (i) =>
          `${i.query.externalId} ${i.chunk.externalId} ${i.provenance
            .map((p) => `${p.run.system}${p.rank}`)
            .sort()
            .join(",")}`,
      )
      .sort();
    expect(poolLines.join("\n") + "\n").toBe(expected("expected.pool.txt"));
    expect(cli("pool", "--depth", "2").stdout).toContain("0 new item(s)");

    // legacy.qrels labels the pooled pair q1 c1: without --include-labelled it would be left out; here the humans re-grade it.
    const assigned = cli(
      "assign",
      "--per-item",
      "2",
      "--annotators",
      "ann@example.org,ben@example.org",
      "--seed",
      "42",
      "--include-labelled",
    );
    expect(assigned.stdout).toContain("18 new assignment(s) on 9 of 9 item(s)");
    const users = new Map((await db.user.findMany()).map((u) => [u.email, u]));
    const ann = users.get("ann@example.org")!;
    const ben = users.get("ben@example.org")!;
    const ada = users.get("ada@example.org")!;
    // The expected label files name the people by placeholders for their pseudonymous ids (README).
    const projectId = (await db.project.findFirstOrThrow()).id;
    const withPeople = (text: string) =>
      text
        .replaceAll("{ann}", pseudonym(projectId, ann.id))
        .replaceAll("{ben}", pseudonym(projectId, ben.id))
        .replaceAll("{ada}", pseudonym(projectId, ada.id));
    expect(await db.assignment.count({ where: { userId: ann.id } })).toBe(9);
    expect(await db.assignment.count({ where: { userId: ben.id } })).toBe(9);
    expect(await db.assignment.count({ where: { userId: users.get("cat@example.org")!.id } })).toBe(0);

    const itemId = (qid: string, docid: string) =>
      items.find((i) => i.query.externalId === qid && i.chunk.externalId === docid)!.id;
    const grade = (userId: string, qid: string, docid: string, g: number, start: number | null) =>
      submitJudgement(db, userId, {
        poolItemId: itemId(qid, docid),
        grade: g,
        startSeconds: start,
        idempotencyKey: randomUUID(),
      });
    // Two agreeing…
    await grade(ann.id, "q1", "c1", 3, 10);
    await grade(ben.id, "q1", "c1", 3, 14);
    await grade(ann.id, "q2", "c5", 0, null);
    await grade(ben.id, "q2", "c5", 0, 3);
    // …and two disagreeing: on the grade, and on the start (30 s apart, tolerance 15 s).
    await grade(ann.id, "q1", "c3", 1, 60);
    await grade(ben.id, "q1", "c3", 3, 70);
    await grade(ann.id, "q3", "c4", 2, 100);
    await grade(ben.id, "q3", "c4", 2, 130);

    const status = JSON.parse(cli("status", "--json").stdout);
    expect(status).toEqual({
      project: "e2e",
      unassigned: 0,
      assigned: 5,
      agreed: 2,
      awaiting_adjudication: 2,
      adjudicated: 0,
      imported: 1,
      total: 10,
      imported_pooled: 1,
      imported_regrading: 1,
      // No guidelines saved (revision 0); the eight grades are submitted without a revision.
      guidelines: { current: 0, items: 0, judgements: 0, regradeRequested: 0, adjudications: 0, unrecorded: 8 },
      // No hidden check items assigned.
      checks: { items: 0, assigned: 0, graded: 0 },
    });

    const queue = await adjudicationQueue(db, (await db.project.findFirstOrThrow()).id);
    expect(queue.map((q) => `${q.query.externalId} ${q.chunk.externalId}`)).toEqual(["q1 c3", "q3 c4"]);
    await adjudicate(db, ada.id, {
      poolItemId: itemId("q1", "c3"),
      grade: 2,
      startSeconds: 65,
      rationale: "answers part of it",
      idempotencyKey: randomUUID(),
    });
    await adjudicate(db, ada.id, {
      poolItemId: itemId("q3", "c4"),
      grade: 2,
      startSeconds: 110,
      rationale: "the delta is named at 1:50",
      idempotencyKey: randomUUID(),
    });
    expect(JSON.parse(cli("status", "--json").stdout)).toMatchObject({
      agreed: 2,
      awaiting_adjudication: 0,
      adjudicated: 2,
      imported: 1,
      assigned: 5,
    });

    // qrels to a file, with its sidecar.
    const qrelsFile = join(outDir, "labels.qrels");
    cli("export", "qrels", "--out", qrelsFile);
    expect(readFileSync(qrelsFile, "utf8")).toBe(expected("expected.qrels"));
    const sidecar = JSON.parse(readFileSync(`${qrelsFile}.version.json`, "utf8"));
    expect(sidecar).toMatchObject({ format: "qrels", label_set_version: { labels: 5, project: "e2e" } });
    expect(sidecar.file_sha256).toBe(createHash("sha256").update(readFileSync(qrelsFile)).digest("hex"));

    // qrels to stdout: the version on stderr.
    const printed = cli("export", "qrels");
    expect(printed.stdout).toBe(expected("expected.qrels"));
    expect(printed.stderr).toMatch(
      new RegExp(
        `^label_set_version sha256=${sidecar.label_set_version.sha256} created_at=\\S+ labels=5 project=e2e\\n$`,
      ),
    );

    // JSONL: version first, then the labels; the label-set sha256 is that of the label lines.
    const jsonl = cli("export", "labels", "--format", "jsonl").stdout;
    const [head, ...rest] = jsonl.split("\n");
    const body = rest.join("\n");
    expect(body).toBe(withPeople(expected("expected.labels.jsonl")));
    const version = JSON.parse(head).label_set_version;
    expect(version).toEqual({
      sha256: createHash("sha256").update(body).digest("hex"),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      labels: 5,
      project: "e2e",
    });
    expect(version.sha256).toBe(sidecar.label_set_version.sha256);

    // CSV: no comment line, the header row first; the version in the sidecar.
    const csvFile = join(outDir, "labels.csv");
    cli("export", "labels", "--format", "csv", "--out", csvFile);
    const csv = readFileSync(csvFile, "utf8");
    expect(csv).toBe(withPeople(expected("expected.labels.csv")));
    expect(JSON.parse(readFileSync(`${csvFile}.version.json`, "utf8"))).toMatchObject({
      format: "csv",
      label_set_version: { sha256: version.sha256, labels: 5 },
      file_sha256: createHash("sha256").update(csv).digest("hex"),
    });
    const { parse } = await import("csv-parse/sync");
    expect(parse(csv, { columns: true })).toHaveLength(5);
    // To stdout: the version on stderr, as for qrels.
    const printedCsv = cli("export", "labels", "--format", "csv");
    expect(printedCsv.stdout).toBe(csv);
    expect(printedCsv.stderr).toMatch(
      new RegExp(`^label_set_version sha256=${version.sha256} created_at=\\S+ labels=5 project=e2e\\n$`),
    );
  }, 600_000); // some 20 CLI processes, each starting tsx and checking migrations
});
