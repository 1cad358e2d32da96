import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import {
  ANSWER_CSV_COLUMNS,
  answerExportFileName,
  CLAIM_CSV_COLUMNS,
  exportAnswerLabels,
} from "../../lib/answers/export.ts";
import { pseudonym } from "../../lib/annotators/report.ts";
import { runCli } from "../helpers/cli.ts";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { makeGenerationProject } from "../helpers/generation-project.ts";

/**
 * Claim and answer label exports of the project in tests/helpers/generation-project.ts:
 * final labels on all six answers (sysB q2 adjudicated, revision 1; the others agreed by Ann and
 * Bob; Ann flagged sysA q1 "unsure" with a note). Claims are the answers' sentences: 3 + 2 + 1 + 2
 * + 2 + 0 = 10 claim rows, 6 answer rows, sorted by system then question.
 */
useTestDatabase();
let db: Db;
let projectId: number;
let ids: Map<string, string>;
let users: Awaited<ReturnType<typeof makeGenerationProject>>["users"];
const dir = mkdtempSync(join(tmpdir(), "gen-export-"));
const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");
const now = new Date("2026-12-02T10:00:00Z");

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  const made = await makeGenerationProject(db);
  projectId = made.project.id;
  ids = made.ids;
  users = made.users;
});
// The annotators report's pseudonymous id (lib/annotators/report.ts), the default naming of the last columns.
const alias = (userId: string) => pseudonym(projectId, userId);

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

describe("answer label exports", () => {
  it("write one JSONL line per claim after the version line, whose sha256 is the body's", async () => {
    const e = await exportAnswerLabels(db, projectId, "claims", "jsonl", now);
    const lines = e.content.trimEnd().split("\n");
    const head = JSON.parse(lines[0]) as {
      label_set_version: { sha256: string; rows: number; kind: string; project: string; created_at: string };
    };
    expect(head.label_set_version).toMatchObject({
      rows: 10,
      kind: "claims",
      project: "gen",
      created_at: "2026-12-02T10:00:00.000Z",
    });
    expect(head.label_set_version.sha256).toBe(
      sha(
        lines
          .slice(1)
          .map((l) => `${l}\n`)
          .join(""),
      ),
    );
    const rows = lines.slice(1).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows).toHaveLength(10);
    expect(rows[0]).toEqual({
      answer_id: ids.get("sysA/q1"),
      system: "sysA",
      query: "q1",
      claim_version: 1,
      claim: 0,
      text: "Robertson developed it.",
      label: "s",
      status: "agreed",
      annotators: 2,
      revision: null,
      flags: ["unsure"],
      notes: ["dates are vague"],
      // Agreed by Ann and Bob, in the order of their labels; their labels named no guidelines revision.
      labelled_by: [alias(users.ann.id), alias(users.bob.id)],
      guideline_revisions: [null, null],
    });
    expect(rows.map((r) => `${String(r.system)} ${String(r.query)} ${String(r.claim)} ${String(r.label)}`)).toEqual([
      "sysA q1 0 s",
      "sysA q1 1 s",
      "sysA q1 2 p",
      "sysA q2 0 n",
      "sysA q2 1 x",
      "sysA q3 0 s",
      "sysB q1 0 p",
      "sysB q1 1 n",
      "sysB q2 0 s",
      "sysB q2 1 p",
    ]);
    // The adjudicated answer: the adjudicator's labels, revision 1, both annotators counted.
    expect(rows[9]).toMatchObject({ text: "In London.", status: "adjudicated", revision: 1, annotators: 2 });
    // An adjudicated answer is the adjudicator's label.
    expect(rows[9].labelled_by).toEqual([alias(users.adj.id)]);
    expect(answerExportFileName("gen", "claims", "jsonl", e.version)).toBe(
      `gen.claim-labels.${e.version.sha256.slice(0, 12)}.jsonl`,
    );
  });

  it("write the same labels as CSV with the same version, and answers with relevance and faithfulness", async () => {
    const jsonl = await exportAnswerLabels(db, projectId, "claims", "jsonl", now);
    const csv = await exportAnswerLabels(db, projectId, "claims", "csv", now);
    expect(csv.version.sha256).toBe(jsonl.version.sha256);
    const lines = csv.content.trimEnd().split("\n");
    expect(lines[0]).toBe(CLAIM_CSV_COLUMNS.join(","));
    expect(lines[1]).toBe(
      `${ids.get("sysA/q1")},sysA,q1,1,0,Robertson developed it.,s,agreed,2,,unsure,dates are vague,${alias(users.ann.id)};${alias(users.bob.id)},;`,
    );
    expect(lines).toHaveLength(11);
    const answers = await exportAnswerLabels(db, projectId, "answers", "csv", now);
    const a = answers.content.trimEnd().split("\n");
    expect(a[0]).toBe(ANSWER_CSV_COLUMNS.join(","));
    expect(a).toHaveLength(7);
    // sysA q1: s s p → (1 + 1 + 0.5)/3 and 2/3; sysB q3: no claims, no faithfulness.
    const pair = `${alias(users.ann.id)};${alias(users.bob.id)},;`;
    expect(a[1]).toBe(`${ids.get("sysA/q1")},sysA,q1,1,3,3,${5 / 6},${2 / 3},agreed,2,,unsure,dates are vague,${pair}`);
    expect(a[6]).toBe(`${ids.get("sysB/q3")},sysB,q3,1,0,0,,,agreed,2,,,,${pair}`);
    expect(a[5]).toBe(`${ids.get("sysB/q2")},sysB,q2,1,2,3,0.75,0.5,adjudicated,2,1,,,${alias(users.adj.id)},`);
    const bySystem = await exportAnswerLabels(db, projectId, "answers", "jsonl", now, { system: "sysB" });
    expect(bySystem.version.rows).toBe(3);
  });

  it("changes the version when a label changes", async () => {
    const before = await exportAnswerLabels(db, projectId, "answers", "jsonl", now);
    const answerId = ids.get("sysB/q2")!;
    await db.answerAdjudication.update({ where: { answerId }, data: { relevance: 2, revision: 2 } });
    const after = await exportAnswerLabels(db, projectId, "answers", "jsonl", now);
    expect(after.version.sha256).not.toBe(before.version.sha256);
    await db.answerAdjudication.update({ where: { answerId }, data: { relevance: 3, revision: 1 } });
    expect((await exportAnswerLabels(db, projectId, "answers", "jsonl", now)).version.sha256).toBe(
      before.version.sha256,
    );
  });

  it("assessor export answers writes the file and its version sidecar, and refuses --claims with --answers", () => {
    const file = join(dir, "answers.csv");
    const r = runCli(["export", "answers", "--answers", "--format", "csv", "--project", "gen", "--out", file]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/wrote 6 answer label\(s\) to .*answers\.csv; label set [0-9a-f]{64}/);
    const content = readFileSync(file, "utf8");
    const side = JSON.parse(readFileSync(`${file}.version.json`, "utf8")) as {
      label_set_version: { kind: string; rows: number };
      format: string;
      file_sha256: string;
    };
    expect(side).toMatchObject({
      format: "csv",
      file_sha256: sha(content),
      label_set_version: { kind: "answers", rows: 6 },
    });
    const printed = runCli(["export", "answers", "--format", "csv", "--project", "gen"]);
    expect(printed.code).toBe(0);
    expect(printed.stdout.split("\n")[0]).toBe(CLAIM_CSV_COLUMNS.join(","));
    expect(printed.stderr).toMatch(/^label_set_version kind=claims sha256=[0-9a-f]{64} .* rows=10 project=gen\n$/);
    const both = runCli(["export", "answers", "--claims", "--answers", "--project", "gen"]);
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/--claims and --answers: choose one/);
  });

  it("names the people with names, keeping the pseudonymous export's version; the revision each label recorded", async () => {
    const pseudo = await exportAnswerLabels(db, projectId, "answers", "jsonl", now);
    const named = await exportAnswerLabels(db, projectId, "answers", "jsonl", now, { names: true });
    expect(named.version.sha256).toBe(pseudo.version.sha256);
    const row = (e: typeof named, key: string) =>
      e.content
        .trimEnd()
        .split("\n")
        .slice(1)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((r) => r.answer_id === ids.get(key));
    expect(row(named, "sysA/q1")?.labelled_by).toEqual(["Ann", "Bob"]);
    expect(row(named, "sysB/q2")?.labelled_by).toEqual(["Ada"]);
    // A revision recorded with a label shows in its place (and changes the version).
    const answerId = ids.get("sysA/q1")!;
    await db.answerJudgement.updateMany({ where: { answerId, userId: users.bob.id }, data: { guidelineRevision: 0 } });
    const after = await exportAnswerLabels(db, projectId, "answers", "jsonl", now);
    expect(row(after, "sysA/q1")?.guideline_revisions).toEqual([null, 0]);
    expect(after.version.sha256).not.toBe(pseudo.version.sha256);
    await db.answerJudgement.updateMany({
      where: { answerId, userId: users.bob.id },
      data: { guidelineRevision: null },
    });
    const cli = runCli(["export", "answers", "--answers", "--names", "--format", "csv", "--project", "gen"]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout.split("\n")[1]).toMatch(/,Ann;Bob,;$/);
  });
});
