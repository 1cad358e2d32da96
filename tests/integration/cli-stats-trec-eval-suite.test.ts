/**
 * trec_eval 10.0's own test directory through `assessor eval`: each line of the vendored Makefile
 * target (tests/fixtures/trec_eval/v10.0-test/quicktest.txt, copied verbatim from
 * usnistgov/trec_eval tag v10.0, commit f4253652c8efd0d86ddffd0d163cc0a0f813111a) is run with the
 * same arguments, `test/FILE` read from the fixture folder, and its output compared with the
 * expected file line for line (the text trec_eval prints, 4 decimals). The count of matching lines
 * over all cases is printed as "N/1825 lines" and must be every line.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";

const dir = join(import.meta.dirname, "..", "fixtures", "trec_eval", "v10.0-test");

type Case = { line: string; args: string[]; expected: string };

/** `./trec_eval ARGS | diff - test/OUT` → ARGS (test/ paths mapped into the fixture folder) and OUT. */
function parseQuicktest(text: string): Case[] {
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((line) => {
      const m = /^\.\/trec_eval (.*) \| diff - test\/(\S+)$/.exec(line);
      if (!m) throw new Error(`quicktest.txt: not a "./trec_eval ARGS | diff - test/OUT" line: ${line}`);
      const args = m[1].split(/\s+/).map((a) => (a.startsWith("test/") ? join(dir, a.slice("test/".length)) : a));
      return { line, args, expected: m[2] };
    });
}

const cases = parseQuicktest(readFileSync(join(dir, "quicktest.txt"), "utf8"));
const expectedLines = (name: string) => readFileSync(join(dir, name), "utf8").replace(/\n$/, "").split("\n");
const results = new Map<string, { matching: number; total: number }>();

describe("trec_eval 10.0's test directory (make quicktest) through assessor eval", () => {
  it("has the nine command lines of the Makefile that read qrels and TREC runs", () => {
    expect(cases).toHaveLength(9);
    expect(cases.map((c) => c.expected)).toEqual([
      "out.test",
      "out.test",
      "out.comment.test",
      "out.test.a",
      "out.test.aq",
      "out.test.aqc",
      "out.test.aqcM",
      "out.test.aql",
      "out.test.meas_params",
    ]);
  });

  it.each(cases.map((c, i) => [i + 1, c.line, c] as const))("line %i: %s", (_i, line, c) => {
    const r = runCli(["eval", ...c.args]);
    expect(r.stderr.split("\n").filter((l) => l && !l.startsWith("note: "))).toEqual([]);
    expect(r.code).toBe(0);
    const want = expectedLines(c.expected);
    const got = r.stdout.replace(/\n$/, "").split("\n");
    let matching = 0;
    for (let k = 0; k < want.length; k++) if (got[k] === want[k]) matching++;
    results.set(line, { matching, total: want.length });
    expect(got).toEqual(want);
  });

  it("-n leaves out the summary lines, as trec_eval -n (out.test.aq's per-query lines only; nothing without -q)", () => {
    const perQuery = expectedLines("out.test.aq").filter((l) => l.split("\t")[1].trim() !== "all");
    const r = runCli(["eval", "-n", "-m", "all_trec", "-q", join(dir, "qrels.test"), join(dir, "results.test")]);
    expect(r.stdout.replace(/\n$/, "").split("\n")).toEqual(perQuery);
    expect(runCli(["eval", "-n", join(dir, "qrels.test"), join(dir, "results.test")]).stdout).toBe("");
  });

  it("matches every expected line: 1825/1825", () => {
    const matching = [...results.values()].reduce((s, r) => s + r.matching, 0);
    const total = cases.reduce((s, c) => s + expectedLines(c.expected).length, 0);
    process.stdout.write(`trec_eval 10.0 quicktest through assessor eval: ${matching}/${total} lines\n`);
    expect(total).toBe(1825);
    expect(results.size).toBe(cases.length);
    expect(matching).toBe(total);
  });
});
