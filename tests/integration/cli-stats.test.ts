import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { runCli } from "../helpers/cli.ts";
import { formatFixed } from "../../bin/commands/eval.ts";

/*
 * `assessor eval` and `assessor agreement` as a user runs them, on the files in
 * tests/fixtures/stats. Expected values are hand-derived:
 *
 * small.qrels: q1 judges d1=3 d2=0 d3=1 d4=2; q2 judges d5=0 d6=0 (no relevant chunk); q3 d7=1.
 * runA.run: q1 d2 0.9, d1 0.8, d9 0.8, d3 0.5 → evaluated order d2(0) d9(unjudged) d1(3) d3(1)
 *   (d9 and d1 tie at 0.8; docid descending puts d9 first); q2 d5 d6; q4 (not in qrels: ignored);
 *   q3 missing from the run.
 * q1: num_rel 3, num_ret 4, num_rel_ret 2, P_5 = 2/5, recip_rank = 1/3, map = (1/3 + 2/4)/3,
 *   recall_5 = 2/3, ndcg_cut_5 = (3/log2 4 + 1/log2 5) / (3 + 2/log2 3 + 1/log2 4) = 0.405446.
 * q2: every measure 0, num_ret 2. Means over 2 queries (q3 left out) or 3 with -c.
 */
const fx = (name: string) => join(import.meta.dirname, "..", "fixtures", "stats", name);
const M = [
  "-m",
  "num_ret",
  "-m",
  "num_rel",
  "-m",
  "num_rel_ret",
  "-m",
  "map",
  "-m",
  "recip_rank",
  "-m",
  "P.5",
  "-m",
  "recall.5",
  "-m",
  "ndcg_cut.5",
  "-m",
  "num_q",
];
const line = (m: string, q: string, v: string) => `${m.padEnd(22)}\t${q}\t${v}`;

describe("assessor eval", () => {
  it("prints trec_eval's lines for the summary", () => {
    const r = runCli(["eval", fx("small.qrels"), fx("runA.run"), ...M]);
    expect(r.stderr).toContain(
      "1 query of the qrels not in the run (q3): left out of the means (use -c to score them 0)",
    );
    expect(r.stderr).toContain("1 query not in the qrels ignored (q4)");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        line("num_q", "all", "2"),
        line("num_ret", "all", "6"),
        line("num_rel", "all", "3"),
        line("num_rel_ret", "all", "2"),
        line("map", "all", "0.1389"),
        line("recip_rank", "all", "0.1667"),
        line("P_5", "all", "0.2000"),
        line("recall_5", "all", "0.3333"),
        line("ndcg_cut_5", "all", "0.2027"),
        "",
      ].join("\n"),
    );
  });
  it("gives the same result when a query's lines are scattered through the run", () => {
    const dir = mkdtempSync(join(tmpdir(), "cli-stats-"));
    const scattered = join(dir, "scattered.run");
    writeFileSync(
      scattered,
      "q1 Q0 d2 1 0.9 A\nq2 Q0 d5 1 0.7 A\nq1 Q0 d1 2 0.8 A\nq4 Q0 d1 1 1.0 A\nq1 Q0 d9 3 0.8 A\nq2 Q0 d6 2 0.6 A\nq1 Q0 d3 4 0.5 A\n",
    );
    const a = runCli(["eval", "-q", fx("small.qrels"), fx("runA.run"), ...M]);
    const b = runCli(["eval", "-q", fx("small.qrels"), scattered, ...M]);
    expect(b.code).toBe(0);
    expect(b.stdout).toBe(a.stdout);
    writeFileSync(scattered, "q1 Q0 d2 1 0.9 A\nq2 Q0 d5 1 0.7 A\nq1 Q0 d2 2 0.8 A\n");
    expect(runCli(["eval", fx("small.qrels"), scattered]).stderr).toContain(
      `${scattered}:3: docid: docid "d2" appears twice for query "q1" (first on line 1)`,
    );
  });
  it("-q adds per-query lines, -c averages over every query of the qrels, --precision sets decimals", () => {
    const r = runCli([
      "eval",
      "-q",
      "-c",
      "--precision",
      "6",
      fx("small.qrels"),
      fx("runA.run"),
      "-m",
      "map",
      "-m",
      "P.5",
      "-m",
      "num_rel",
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("scored 0 and averaged in (-c)");
    expect(r.stdout.split("\n")).toEqual([
      line("num_rel", "q1", "3"),
      line("map", "q1", "0.277778"),
      line("P_5", "q1", "0.400000"),
      line("num_rel", "q2", "0"),
      line("map", "q2", "0.000000"),
      line("P_5", "q2", "0.000000"),
      // q3 is in the qrels but not the run: trec_eval 10.0 -c evaluates it on a stand-in ranking
      // of one unjudged chunk and prints its lines (num_rel 1: d7), and sums it into num_rel
      line("num_rel", "q3", "1"),
      line("map", "q3", "0.000000"),
      line("P_5", "q3", "0.000000"),
      line("num_rel", "all", "4"),
      line("map", "all", "0.092593"),
      line("P_5", "all", "0.133333"),
      "",
    ]);
  });
  it("-l 2 raises the relevance level", () => {
    // q1 at level 2: relevant d1, d4; ranking d2 d9 d1 d3 → RR 1/3, P_5 1/5; q2 0.
    const r = runCli([
      "eval",
      "-l",
      "2",
      fx("small.qrels"),
      fx("runA.run"),
      "-m",
      "recip_rank",
      "-m",
      "P.5",
      "-m",
      "num_rel",
    ]);
    expect(r.stdout).toBe(
      [line("num_rel", "all", "2"), line("recip_rank", "all", "0.1667"), line("P_5", "all", "0.1000"), ""].join("\n"),
    );
  });
  it("computes start_error from JSONL queries and chunks", () => {
    // q1: first relevant chunk d1 (rank 3) starts at 130, reference 100: error 30 s, within 30 and
    // 60 but not 15, time-aware RR = 1/3 × (1 − 30/150). q2 has no reference start: not scored.
    const r = runCli([
      "eval",
      fx("small.qrels"),
      fx("runA.run"),
      "-m",
      "start_error",
      "--queries",
      fx("queries.jsonl"),
      "--chunks",
      fx("chunks.jsonl"),
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        line("start_error", "all", "30.0000"),
        line("start_within_15", "all", "0.0000"),
        line("start_within_30", "all", "1.0000"),
        line("start_within_60", "all", "1.0000"),
        line("start_rr", "all", "0.2667"),
        "",
      ].join("\n"),
    );
    expect(runCli(["eval", fx("small.qrels"), fx("runA.run"), "-m", "start_error"]).code).toBe(2);
  });
  it('start_error compares video ids as strings: a numeric id ("video": 4103) is still checked', () => {
    // The importers accept numeric video ids. q1's reference is in video 4103; its first relevant
    // chunk c1 is in video 4104 and starts 42.22 s after the reference start: another video, so
    // the error is the cap, 150 s (read as "no video" it was 42.22). q2's chunk c2 is in video
    // "4103" (a string) and its reference in 4103 (a number): the same video, error |57.78 − 0|.
    const dir = mkdtempSync(join(tmpdir(), "cli-start-"));
    const p = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const qrels = p("q.qrels", "q1 0 c1 1\nq2 0 c2 1\n");
    const run = p("r.run", "q1 Q0 c1 1 1 t\nq2 Q0 c2 1 1 t\n");
    const queries = p(
      "queries.jsonl",
      '{"id":"q1","reference_start":100,"video":4103}\n{"id":"q2","reference_start":0,"video":4103}\n',
    );
    const chunks = p(
      "chunks.jsonl",
      '{"id":"c1","video":4104,"start":142.22,"end":170}\n{"id":"c2","video":"4103","start":57.78,"end":80}\n',
    );
    const r = runCli(["eval", "-q", qrels, run, "-m", "start_error", "--queries", queries, "--chunks", chunks]);
    expect(r.code).toBe(0);
    const value = (name: string, qid: string) =>
      r.stdout
        .split("\n")
        .find((l) => l.startsWith(`${name.padEnd(22)}\t${qid}\t`))
        ?.split("\t")[2];
    expect(value("start_error", "q1")).toBe("150.0000");
    expect(value("start_error", "q2")).toBe("57.7800");
    expect(value("start_error", "all")).toBe("103.8900");
    const bad = p("bad.jsonl", '{"id":"c1","video":true,"start":1}\n');
    const b = runCli(["eval", qrels, run, "-m", "start_error", "--queries", queries, "--chunks", bad]);
    expect(b.code).toBe(1);
    expect(b.stderr).toContain(`${bad}:1: video: expected a video id (a string or an integer), found true`);
  });
  it("-c: the table's num_q is what the means are over, and it says how many queries the run answered", () => {
    // runA answers q1 and q2 of small.qrels' three queries; runB all three. With -c the means are
    // over 3 for both (map runA = (0.277778 + 0 + 0)/3), as trec_eval 10.0's num_q says.
    const t = runCli([
      "eval",
      "-c",
      "--bootstrap",
      "0",
      fx("small.qrels"),
      fx("runA.run"),
      fx("runB.run"),
      "-m",
      "map",
    ]);
    expect(t.code).toBe(0);
    const rows = t.stdout.split("\n").map((l) => l.split(/\s{2,}/));
    expect(rows.find((r) => r[0] === "num_q")).toEqual(["num_q", "3", "3"]);
    expect(rows.find((r) => r[0] === "answered")).toEqual(["answered", "2", "3"]);
    expect(rows.find((r) => r[0] === "map")?.[1]).toBe("0.0926");
    expect(t.stdout).toContain("Means are over num_q: every query of the qrels (-c).");
    const j = JSON.parse(
      runCli(["eval", "--format", "json", "-c", fx("small.qrels"), fx("runA.run"), "-m", "map"]).stdout,
    );
    expect(j.runs[0]).toMatchObject({ num_q: 3, averaged_over: 3, answered: 2 });
    const without = runCli([
      "eval",
      "--bootstrap",
      "0",
      fx("small.qrels"),
      fx("runA.run"),
      fx("runB.run"),
      "-m",
      "map",
    ]);
    expect(
      without.stdout
        .split("\n")
        .map((l) => l.split(/\s{2,}/))
        .find((r) => r[0] === "num_q"),
    ).toEqual(["num_q", "2", "3"]);
    expect(without.stdout).toContain("Means are over num_q: the queries of the qrels that the run answers");
  });
  it("compares several runs in a table and in JSON with CIs and a paired test against the first", () => {
    const t = runCli(["eval", fx("small.qrels"), fx("runA.run"), fx("runB.run"), "-m", "map", "-m", "P.5"]);
    expect(t.code).toBe(0);
    expect(t.stdout).toContain("runA.run");
    expect(t.stdout).toContain("paired randomization test");
    const j = runCli([
      "eval",
      "--format",
      "json",
      "-c",
      fx("small.qrels"),
      fx("runA.run"),
      fx("runB.run"),
      "-m",
      "map",
      "-m",
      "P.5",
      "--seed",
      "3",
    ]);
    expect(j.code).toBe(0);
    const out = JSON.parse(j.stdout);
    expect(out.runs).toHaveLength(2);
    expect(out.runs[0].measures.map).toBeCloseTo(0.092593, 6);
    // runB with -c: q1 AP 1, q2 0, q3 1 → 2/3; P_5: q1 3/5, q2 0, q3 1/5 → 0.8/3.
    expect(out.runs[1].measures.map).toBeCloseTo(2 / 3, 6);
    expect(out.runs[1].measures.P_5).toBeCloseTo(0.8 / 3, 6);
    expect(out.runs[1].vs_first.map.n).toBe(3);
    expect(out.runs[1].vs_first.map.mean_diff).toBeCloseTo(2 / 3 - 0.092593, 5);
    expect(out.runs[0].ci.map.low).toBeLessThanOrEqual(out.runs[0].measures.map);
    expect(out.runs[0].missing_from_run).toEqual({ count: 1, handling: "scored_zero", queries: ["q3"] });
    // Queries needed for ±0.1: runB's per-query AP with -c is 1, 0, 1 (sd = 0.57735):
    // (1.959964 · 0.57735 / 0.1)² = 128.05 → 129.
    const h = JSON.parse(
      runCli([
        "eval",
        "--format",
        "json",
        "-c",
        "--half-width",
        "0.1",
        fx("small.qrels"),
        fx("runA.run"),
        fx("runB.run"),
        "-m",
        "map",
      ]).stdout,
    );
    expect(h.runs[1].queries_needed).toEqual({ half_width: 0.1, level: 0.95, by_measure: { map: 129 } });
  });
  it("takes trec_eval's relevance values: 4 gains 4, a negative value is in the pool but unjudged", () => {
    // As trec_eval 9/10 reads them (form_res_rels.c: a negative rel is RELVALUE_UNJUDGED, counted
    // at no level; m_ndcg.c: gain = rel when rel > 0). Worked by hand:
    //   q1: d1 -2 (retrieved 1st), d2 4 (2nd)  → recip_rank 1/2, P_2 1/2, num_rel 1,
    //       ndcg_cut_10 = (4 / log2 3) / 4 = 0.6309, judged_2 = 1/2 (d1 unjudged)
    //   q2: d3 2 (1st)                          → recip_rank 1, ndcg 1
    //   q3: only d9 -1 in the qrels: still a query of the qrels, no relevant chunk → 0 everywhere.
    const dir = mkdtempSync(join(tmpdir(), "cli-stats-"));
    const qrels = join(dir, "web.qrels");
    writeFileSync(qrels, "q1 0 d1 -2\nq1 0 d2 4\nq2 0 d3 2\nq3 0 d9 -1\n");
    const run = join(dir, "a.run");
    writeFileSync(run, "q1 Q0 d1 1 0.9 r\nq1 Q0 d2 2 0.8 r\nq2 Q0 d3 1 0.5 r\nq3 Q0 d9 1 0.5 r\n");
    const r = runCli([
      "eval",
      qrels,
      run,
      "-m",
      "num_q",
      "-m",
      "num_rel",
      "-m",
      "recip_rank",
      "-m",
      "P.2",
      "-m",
      "ndcg_cut.10",
      "-m",
      "judged.2",
      "-q",
    ]);
    expect(r.code).toBe(0);
    const value = (measure: string, qid: string) =>
      new RegExp(`^${measure}\\s+${qid}\\s+(\\S+)$`, "m").exec(r.stdout)?.[1];
    expect([
      value("recip_rank", "q1"),
      value("P_2", "q1"),
      value("num_rel", "q1"),
      value("ndcg_cut_10", "q1"),
      value("judged_2", "q1"),
    ]).toEqual(["0.5000", "0.5000", "1", "0.6309", "0.5000"]);
    expect([
      value("recip_rank", "q3"),
      value("ndcg_cut_10", "q3"),
      value("num_rel", "q3"),
      value("judged_2", "q3"),
    ]).toEqual(["0.0000", "0.0000", "0", "0.0000"]);
    // Means over the 3 queries: recip_rank (0.5 + 1 + 0) / 3, ndcg (0.6309 + 1 + 0) / 3.
    expect([
      value("num_q", "all"),
      value("num_rel", "all"),
      value("recip_rank", "all"),
      value("ndcg_cut_10", "all"),
    ]).toEqual(["3", "2", "0.5000", "0.5436"]);
    // --clip reads the same file on the 0–3 scale: -2 → 0 (judged, not relevant), 4 → 3.
    const clipped = runCli(["eval", qrels, run, "-m", "judged.2", "--clip"]);
    expect(clipped.stderr).toContain("--clip changed 3 grades into 0–3");
    expect(/^judged_2\s+all\s+(\S+)$/m.exec(clipped.stdout)?.[1]).toBe("1.0000");
  });

  it("writes all of a large output to a pipe before exiting (-q -m all_trec: 146 KB)", () => {
    // process.exit() right after the last write used to cut the output at the pipe's buffer
    const tre = (name: string) => join(import.meta.dirname, "..", "fixtures", "trec_eval", name);
    const r = runCli(["eval", "-q", "-m", "all_trec", tre("graded.qrels"), tre("graded.run")]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(readFileSync(tre("expected/graded.all_q.txt"), "utf8"));
  });

  it("fuse writes a TREC run that eval reads; --tune reports each fold's held-out score; usage errors exit 2", () => {
    const dir = mkdtempSync(join(tmpdir(), "cli-fuse-"));
    const r = runCli(["fuse", "--method", "rrf", fx("runA.run"), fx("runB.run")]);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toMatch(/^q1 Q0 \S+ 1 0\.0\d+ fused$/);
    const fused = join(dir, "fused.trec");
    writeFileSync(fused, r.stdout);
    const ev = runCli(["eval", "-c", fx("small.qrels"), fused, "-m", "num_q", "-m", "map"]);
    expect(ev.code).toBe(0);
    expect(ev.stdout).toMatch(/^num_q\s+all\s+\d+$/m);
    const t = runCli([
      "fuse",
      "--method",
      "wsum",
      "--tune",
      "ndcg_cut.10",
      "--qrels",
      fx("small.qrels"),
      "--folds",
      "3",
      fx("runA.run"),
      fx("runB.run"),
    ]);
    expect(t.code).toBe(0);
    expect(t.stderr).toContain("mean held-out ndcg_cut_10");
    expect(t.stderr.match(/^\s+\d\s+\d+\s+[\d.,]+\s+[\d.]+\s+[\d.]+$/gm)).toHaveLength(3);
    expect(runCli(["fuse", "--method", "rrf", "--weights", "1,2", fx("runA.run"), fx("runB.run")]).code).toBe(2);
    expect(runCli(["fuse", "--method", "wsum", "--weights", "1", fx("runA.run"), fx("runB.run")]).code).toBe(2);
  });

  it("exit 1 naming file and line for bad input; exit 2 for usage errors", () => {
    const dir = mkdtempSync(join(tmpdir(), "cli-stats-"));
    const bad = join(dir, "bad.run");
    writeFileSync(bad, "q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 0.4x t\n");
    const r = runCli(["eval", fx("small.qrels"), bad]);
    expect(r.code).toBe(1); // trec_eval's atof would read 0.4x as 0.4: refused here
    expect(r.stderr).toContain(`${bad}:2: score: expected a finite number as score, found "0.4x"`);
    // the rank column is never read, as in trec_eval: any text there is taken
    const rank = join(dir, "rank.run");
    writeFileSync(rank, "q1 Q0 d1 one 0.5 t\nq1 Q0 d3 - 0.4 t extra columns\n");
    expect(runCli(["eval", fx("small.qrels"), rank, "-m", "num_ret"]).stdout).toBe(`${line("num_ret", "all", "2")}\n`);
    const dup = join(dir, "dup.run");
    writeFileSync(dup, "q1 Q0 d1 1 0.5 t\nq2 Q0 d5 1 0.5 t\nq1 Q0 d1 2 0.4 t\n");
    expect(runCli(["eval", fx("small.qrels"), dup]).stderr).toContain(
      `${dup}:3: docid: docid "d1" appears twice for query "q1" (first on line 1)`,
    );
    const grade = join(dir, "g.qrels");
    writeFileSync(grade, "q1 0 d1 300\n");
    const g = runCli(["eval", grade, fx("runA.run")]);
    expect(g.code).toBe(1);
    expect(g.stderr).toContain(`${grade}:1: grade: expected a relevance value from -127 to 127, found 300`);
    const none = join(dir, "none.run");
    writeFileSync(none, "q4 Q0 d1 1 1 t\n");
    const n = runCli(["eval", fx("small.qrels"), none]);
    expect(n.code).toBe(1); // trec_eval: "No queries with both results and relevance info"
    expect(n.stderr).toContain("no queries with both results and relevance information");
    expect(runCli(["eval", fx("small.qrels"), fx("runA.run"), "-m", "nonsense"]).code).toBe(2);
    expect(runCli(["eval", fx("small.qrels")]).code).toBe(2);
    expect(runCli(["eval", fx("small.qrels"), fx("runA.run"), fx("runB.run"), "--format", "trec"]).code).toBe(2);
  });
});

describe("assessor agreement", () => {
  // reference.qrels / judge.qrels hold the 16-pair case of tests/unit/stats/agreement.test.ts
  // (scikit-learn 1.2.1: cohen_kappa_score(..., labels=[0,1,2,3]) = 0.41667 / 0.64103 / 0.81579)
  // plus one reference-only and two judge-only labels.
  it("prints the JSON object with --format json", () => {
    const r = runCli([
      "agreement",
      fx("reference.qrels"),
      fx("judge.qrels"),
      "--format",
      "json",
      "--bootstrap",
      "200",
      "--seed",
      "5",
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual([
      "n",
      "unmatched",
      "kappa",
      "raw_agreement",
      "within_one",
      "confusion",
      "per_grade",
      "leniency",
      "alpha_ordinal",
      "binary",
      "ci",
    ]);
    expect(out.n).toBe(16);
    expect(out.unmatched).toEqual({ reference_only: 1, other_only: 2 });
    expect(out.kappa.unweighted).toBeCloseTo(0.41666666666666663, 12);
    expect(out.kappa.linear).toBeCloseTo(0.641025641025641, 12);
    expect(out.kappa.quadratic).toBeCloseTo(0.8157894736842105, 12);
    expect(out.confusion).toEqual([
      [2, 2, 0, 0],
      [1, 2, 1, 0],
      [0, 1, 2, 1],
      [0, 0, 1, 3],
    ]);
    expect(out.per_grade["0"]).toEqual({ precision: 0.6666666666666666, recall: 0.5, support: 4 });
    // 9 equal of 16; no pair two or more apart → within one 16/16; other − ref is +1 four times
    // and −1 three times → leniency = 1/16.
    expect(out.raw_agreement).toBe(9 / 16);
    expect(out.within_one).toBe(1);
    expect(out.leniency).toBe(1 / 16);
    expect(out.ci.bootstrap.resamples).toBe(200);
    expect(Object.keys(out.binary)).toEqual(["ge1", "ge2", "ge3"]);
  });
  it("rejects grades outside 0–3 unless --clip, which says how many changed", () => {
    const dir = mkdtempSync(join(tmpdir(), "cli-agree-"));
    const f = join(dir, "x.qrels");
    writeFileSync(f, "q0 0 c0 4\nq1 0 c1 -1\nq2 0 c2 1\n");
    const bad = runCli(["agreement", fx("reference.qrels"), f]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`${f}:1: grade: expected a grade 0–3, found 4`);
    const ok = runCli(["agreement", fx("reference.qrels"), f, "--clip", "--bootstrap", "0", "--format", "json"]);
    expect(ok.code).toBe(0);
    expect(ok.stderr).toContain("--clip changed 2 grades into 0–3");
    expect(JSON.parse(ok.stdout).ci.bootstrap).toBeNull();
  });
  it("prints a table by default, as eval does (one convention, --format json for scripts)", () => {
    const r = runCli(["agreement", fx("reference.qrels"), fx("judge.qrels"), "--bootstrap", "100"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("kappa quadratic   0.8158");
    expect(r.stdout.trimStart().startsWith("{")).toBe(false);
  });
});

describe("file-only commands stay away from the database", () => {
  // Walks the static import graph of both commands: nothing under lib/db, no Prisma package.
  it("eval and agreement import no database module", () => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const src = readFileSync(file, "utf8");
      for (const m of src.matchAll(/^\s*import\s[^;]*?from\s+"([^"]+)"/gms)) {
        const spec = m[1];
        expect(spec).not.toMatch(/prisma|lib\/db|better-sqlite3|^pg$/);
        if (spec.startsWith(".")) visit(resolve(dirname(file), spec));
      }
    };
    const root = join(import.meta.dirname, "..", "..");
    visit(join(root, "bin", "commands", "eval.ts"));
    visit(join(root, "bin", "commands", "agreement.ts"));
    expect([...seen].some((f) => f.includes("lib/db"))).toBe(false);
    expect(seen.size).toBeGreaterThan(5);
  });
});

describe("number formatting as C's printf", () => {
  it("rounds exact ties half to even like glibc, others to nearest", () => {
    expect(formatFixed(0.03125, 4)).toBe("0.0312"); // exact binary tie; toFixed would give 0.0313
    expect(formatFixed(0.09375, 4)).toBe("0.0938");
    expect(formatFixed(0.5, 0, 0)).toBe("0");
    expect(formatFixed(1.5, 0, 0)).toBe("2");
    expect(formatFixed(1 / 3, 4)).toBe("0.3333");
    expect(formatFixed(30, 4)).toBe("30.0000");
    expect(formatFixed(0.5, 2, 6)).toBe("  0.50");
  });
});

describe("eval -m time prints only what was asked", () => {
  it("-m time alone: the time measures, not trec_eval's official ones beside them; -m time -m P.5: both", () => {
    const dir = mkdtempSync(join(tmpdir(), "assessor-time-"));
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const qrels = file("e.qrels", "q1 0 a2 3\nq2 0 a3 3\n");
    const run = file("r.trec", "q1 Q0 a2 1 2 bm25\nq1 Q0 a1 2 1 bm25\nq2 Q0 a1 1 2 bm25\nq2 Q0 a3 2 1 bm25\n");
    const chunks = file(
      "c.jsonl",
      [
        '{"id":"a1","video":"v1","start":0,"end":20}',
        '{"id":"a2","video":"v1","start":20,"end":40}',
        '{"id":"a3","video":"v1","start":40,"end":60}',
        "",
      ].join("\n"),
    );
    const names = (args: string[]) => {
      const r = runCli(["eval", qrels, run, "--chunks", chunks, ...args]);
      expect(r.code, r.stderr).toBe(0);
      return r.stdout
        .trim()
        .split("\n")
        .map((l) => l.split(/\s+/)[0]);
    };
    const time = [
      "span_recall_5",
      "span_recall_10",
      "time_iou_10",
      "seconds_read_10",
      "time_start_error",
      "time_within_15",
      "time_within_30",
      "time_within_60",
    ];
    expect(names(["-m", "time"])).toEqual(time);
    expect(names(["-m", "time", "-m", "P.5"])).toEqual(["P_5", ...time]);
  });
});
