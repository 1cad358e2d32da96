import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Hidden check items keep their grades in CheckJudgement and CheckEvent, apart from every reader of
 * Judgement and LabelEvent (the reference, agreement, adjudication queue, exports, judge
 * comparison). This lists every module that names those tables, so a new reader is a decision
 * made here, not a leak: only the submit path, the annotator's own views, the lead's counts and
 * the check accuracy figures may read them.
 */
const root = join(import.meta.dirname, "..", "..");
const ALLOWED = [
  "lib/labels/submit-check.ts", // the write
  "lib/labels/submit.ts", // routes a check item to the write above
  "lib/annotate/own-grades.ts", // the annotator's own queue counts
  "lib/annotate/queue.ts", // the annotator's own queue: their own grade of each item (OWN_CHECK_JUDGEMENT)
  "lib/annotate/queue-projects.ts", // the annotator's own queue: their own grade of each item (OWN_CHECK_JUDGEMENT)
  "lib/annotate/queue-walk.ts", // the annotator's own queue: their own grade of each item (OWN_CHECK_JUDGEMENT)
  "lib/annotate/view.ts", // the annotator's own label on their item
  "lib/assignment/checks.ts", // the lead's status counts
  "lib/annotators/checks.ts", // the check accuracy figures (lead, adjudicator)
].sort();

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === "generated" || e.name === "node_modules" ? [] : sources(p);
    return /\.(ts|tsx)$/.test(e.name) ? [p] : [];
  });
}

describe("who reads check grades", () => {
  it("only the allowed modules name CheckJudgement or CheckEvent", () => {
    const readers = ["lib", "app", "components", "bin"]
      .flatMap((d) => sources(join(root, d)))
      .filter((f) => /CheckJudgement|checkJudgement|CheckEvent|checkEvent/.test(readFileSync(f, "utf8")))
      .map((f) => relative(root, f))
      .sort();
    expect(readers).toEqual(ALLOWED);
  });
});
