import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { seededRng } from "../../lib/stats/random.ts";
import { runCli } from "../helpers/cli.ts";

/*
 * `assessor eval --ppi` and `--detect` on a generated collection: 40 questions of 8 chunks, human
 * grades 0–3 (seeded), the judge giving the human grade 70% of the time; the human file labels the
 * first 15 questions completely. The judge-only and human-only figures must be what plain
 * `assessor eval -c` gives on each file (the same measure, averaged over the same questions).
 */
let dir = "";
const p = (name: string) => join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "assessor-ppi-"));
  const rng = seededRng(7);
  const judge: string[] = [];
  const human: string[] = [];
  const runA: string[] = [];
  const runB: string[] = [];
  for (let q = 0; q < 40; q++) {
    const qid = `q${String(q).padStart(2, "0")}`;
    for (let c = 0; c < 8; c++) {
      const docid = `${qid}_c${c}`;
      const u = rng.next();
      const g = u < 0.5 ? 0 : u < 0.75 ? 1 : u < 0.9 ? 2 : 3;
      const j = rng.next() < 0.7 ? g : rng.int(4);
      judge.push(`${qid} 0 ${docid} ${j}`);
      if (q < 15) human.push(`${qid} 0 ${docid} ${g}`);
      runA.push(`${qid} Q0 ${docid} ${c + 1} ${(10 - c + rng.next()).toFixed(3)} A`);
      runB.push(`${qid} Q0 ${docid} ${c + 1} ${(g * 2 + rng.next() * 3).toFixed(3)} B`);
    }
  }
  writeFileSync(p("judge.qrels"), `${judge.join("\n")}\n`);
  writeFileSync(p("human.qrels"), `${human.join("\n")}\n`);
  writeFileSync(p("A.run"), `${runA.join("\n")}\n`);
  writeFileSync(p("B.run"), `${runB.join("\n")}\n`);
  writeFileSync(p("judge4.qrels"), `${judge.map((l) => l.replace(/ 3$/, " 4")).join("\n")}\n`);
  writeFileSync(p("other.qrels"), "x1 0 d1 1\nx2 0 d2 0\n");
  // 8 questions of 2 chunks, every one labelled: recall@5 is 1 on 7 and 0 on e07 (nothing relevant),
  // 0.875 ± 0.229 = [0.646, 1.104] unclipped; C.run ranks as A2.run does (differences all 0).
  const edge = Array.from({ length: 8 }, (_, i) => `e0${i}`);
  writeFileSync(p("edge.qrels"), edge.map((q) => `${q} 0 ${q}_c0 ${q === "e07" ? 0 : 2}\n${q} 0 ${q}_c1 0\n`).join(""));
  for (const name of ["A2.run", "C.run"])
    writeFileSync(p(name), edge.map((q) => `${q} Q0 ${q}_c0 1 2 x\n${q} Q0 ${q}_c1 2 1 x\n`).join(""));
});

type TJsonEst = { estimate: number; low: number; high: number; width: number } | null;
type TJson = {
  questions: number;
  labelled: number;
  baseline: string | null;
  measures: {
    id: string;
    runs: {
      run: string;
      ppi: TJsonEst;
      human: TJsonEst;
      judge: TJsonEst;
      lambda: number | null;
      narrower_than_human: number | null;
      vs_baseline?: { ppi: TJsonEst; p: number | null };
    }[];
  }[];
  range?: number[];
  advisor: {
    rows: {
      measure: string;
      run: string;
      queries_to_detect: number | null;
      queries_for_half_width: number | null;
      sd_source: string;
      no_basis: string | null;
    }[];
  };
};

describe("assessor eval --ppi", () => {
  it("prints human, judge and judge + human (PPI) with the advisor (text)", () => {
    const r = runCli([
      "eval",
      "--ppi",
      "--judge",
      p("judge.qrels"),
      "--human",
      p("human.qrels"),
      p("A.run"),
      p("B.run"),
      "--detect",
      "0.1",
    ]);
    expect(r.stderr).not.toMatch(/error/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("40 questions, 15 completely human-labelled");
    expect(r.stdout).toContain("judge + human (PPI)");
    expect(r.stdout).toContain("Δ vs A.run (PPI)");
    expect(r.stdout).toContain("to detect 0.1");
    expect(r.stdout).toMatch(/\d+% (narrower|wider)/);
  });

  it("JSON: judge-only and human-only means are plain eval -c's; λ in [0, 1]; advisor per measure", () => {
    const r = runCli([
      "eval",
      "--ppi",
      "--format",
      "json",
      "--judge",
      p("judge.qrels"),
      "--human",
      p("human.qrels"),
      p("A.run"),
      p("B.run"),
      "--detect",
      "0.1",
    ]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as TJson;
    expect(j).toMatchObject({ questions: 40, labelled: 15, baseline: "A.run" });
    const plain = (qrels: string) =>
      JSON.parse(
        runCli([
          "eval",
          "-c",
          "--format",
          "json",
          "-m",
          "ndcg_exp_cut.10",
          "-m",
          "recip_rank",
          qrels,
          p("A.run"),
          p("B.run"),
        ]).stdout,
      ) as { runs: { measures: Record<string, number> }[] };
    const byJudge = plain(p("judge.qrels"));
    const byHuman = plain(p("human.qrels"));
    const ndcg = j.measures.find((m) => m.id === "ndcg_cut_10")!;
    const mrr = j.measures.find((m) => m.id === "recip_rank@1")!;
    for (const k of [0, 1]) {
      expect(ndcg.runs[k].judge!.estimate).toBeCloseTo(byJudge.runs[k].measures.ndcg_exp_cut_10, 5);
      expect(ndcg.runs[k].human!.estimate).toBeCloseTo(byHuman.runs[k].measures.ndcg_exp_cut_10, 5);
      expect(mrr.runs[k].human!.estimate).toBeCloseTo(byHuman.runs[k].measures.recip_rank, 5);
      expect(ndcg.runs[k].lambda).toBeGreaterThanOrEqual(0);
      expect(ndcg.runs[k].lambda).toBeLessThanOrEqual(1);
    }
    expect(ndcg.runs[1].vs_baseline!.ppi).not.toBeNull();
    expect(j.advisor.rows).toHaveLength(8);
    expect(j.advisor.rows.every((a) => a.run === "B.run" && a.sd_source === "human")).toBe(true);
    // Both runs return all 8 chunks: recall@10 is the same for both on every question, so that advice has no basis.
    const rows = j.advisor.rows;
    expect(rows.filter((a) => a.no_basis).map((a) => [a.measure, a.no_basis, a.queries_to_detect])).toEqual([
      ["recall_10@1", "no_spread", null],
      ["recall_10@2", "no_spread", null],
    ]);
    expect(rows.filter((a) => !a.no_basis).every((a) => (a.queries_to_detect ?? 0) >= 2)).toBe(true);
  });

  it("--baseline picks the run the others are compared with", () => {
    const j = JSON.parse(
      runCli([
        "eval",
        "--ppi",
        "--format",
        "json",
        "--judge",
        p("judge.qrels"),
        "--human",
        p("human.qrels"),
        p("A.run"),
        p("B.run"),
        "--baseline",
        "B.run",
      ]).stdout,
    ) as TJson;
    expect(j.baseline).toBe("B.run");
    expect(j.measures[0].runs[0].vs_baseline).toBeDefined();
    expect(j.measures[0].runs[1].vs_baseline).toBeUndefined();
  });

  it("bad input: different scales, different projects, a baseline not in the runs, missing files", () => {
    const scale = runCli(["eval", "--ppi", "--judge", p("judge4.qrels"), "--human", p("human.qrels"), p("A.run")]);
    expect(scale.code).toBe(1);
    expect(scale.stderr).toContain("different relevance scales");
    const other = runCli(["eval", "--ppi", "--judge", p("judge.qrels"), "--human", p("other.qrels"), p("A.run")]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("over different questions (different projects?)");
    const base = runCli([
      "eval",
      "--ppi",
      "--judge",
      p("judge.qrels"),
      "--human",
      p("human.qrels"),
      p("A.run"),
      "--baseline",
      "C.run",
    ]);
    expect(base.code).toBe(1);
    expect(base.stderr).toContain("--baseline C.run is not one of the runs (A.run)");
    const missing = runCli(["eval", "--ppi", "--human", p("human.qrels"), p("A.run")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("--ppi needs --judge FILE");
  });
});

describe("assessor eval --detect", () => {
  it("adds the questions a paired t-test needs to each comparison with the first run", () => {
    const j = JSON.parse(
      runCli([
        "eval",
        "--format",
        "json",
        "--detect",
        "0.05",
        "-m",
        "ndcg_cut.10",
        p("human.qrels"),
        p("A.run"),
        p("B.run"),
      ]).stdout,
    ) as { runs: { vs_first?: Record<string, { queries_to_detect: { delta: number; n: number } }> }[] };
    expect(j.runs[1].vs_first!.ndcg_cut_10.queries_to_detect.delta).toBe(0.05);
    expect(j.runs[1].vs_first!.ndcg_cut_10.queries_to_detect.n).toBeGreaterThanOrEqual(2);
    const text = runCli([
      "eval",
      "--detect",
      "0.05",
      "-m",
      "ndcg_cut.10",
      p("human.qrels"),
      p("A.run"),
      p("B.run"),
    ]).stdout;
    expect(text).toMatch(/detect: \d+\)/);
  });
});

describe("no interval past the measure's range, no advice without a basis", () => {
  it("eval --ppi: every estimate and interval in [0, 1], differences in [-1, 1]; the advisor says no basis (JSON and text)", () => {
    const r = runCli([
      "eval",
      "--ppi",
      "--format",
      "json",
      "--judge",
      p("edge.qrels"),
      "--human",
      p("edge.qrels"),
      p("A2.run"),
      p("C.run"),
      "--detect",
      "0.05",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as TJson;
    expect(j.range).toEqual([0, 1]);
    const recall = j.measures.find((m) => m.id === "recall_5@1")!.runs[0];
    expect(recall.human).toMatchObject({ estimate: 0.875, high: 1 });
    expect(recall.human!.low).toBeCloseTo(0.646, 3);
    for (const m of j.measures)
      for (const run of m.runs) {
        for (const e of [run.ppi, run.human, run.judge])
          if (e) expect([e.low >= 0, e.high <= 1], `${m.id} ${run.run}`).toEqual([true, true]);
        if (run.vs_baseline?.ppi)
          expect([run.vs_baseline.ppi.low >= -1, run.vs_baseline.ppi.high <= 1]).toEqual([true, true]);
      }
    expect(
      j.advisor.rows.every(
        (a) => a.no_basis === "no_spread" && a.queries_to_detect === null && a.queries_for_half_width === null,
      ),
    ).toBe(true);
    const text = runCli([
      "eval",
      "--ppi",
      "--judge",
      p("edge.qrels"),
      "--human",
      p("edge.qrels"),
      p("A2.run"),
      p("C.run"),
      "--detect",
      "0.05",
    ]).stdout;
    expect(text).not.toMatch(/1\.10\d\d\]/);
    expect(text).toContain("no basis: the differences do not vary (sd 0)");
    expect(text).not.toMatch(/ 2\s+1$/m);
  });

  it("eval --detect and --half-width: no basis where the per-question differences or values do not vary", () => {
    const j = JSON.parse(
      runCli([
        "eval",
        "--format",
        "json",
        "--detect",
        "0.05",
        "--half-width",
        "0.1",
        "-m",
        "recall.5",
        p("edge.qrels"),
        p("A2.run"),
        p("C.run"),
      ]).stdout,
    ) as {
      runs: {
        vs_first?: Record<string, { queries_to_detect: { n: number | null; no_basis?: string } }>;
        queries_needed: { by_measure: Record<string, number | null> };
      }[];
    };
    expect(j.runs[1].vs_first!.recall_5.queries_to_detect).toMatchObject({ n: null, no_basis: "no_spread" });
    // recall_5 varies over questions (7 × 1, one 0): the half-width advice has a basis.
    expect(j.runs[0].queries_needed.by_measure.recall_5).toBeGreaterThan(2);
    const text = runCli([
      "eval",
      "--detect",
      "0.05",
      "-m",
      "recall.5",
      p("edge.qrels"),
      p("A2.run"),
      p("C.run"),
    ]).stdout;
    expect(text).toContain("detect: no basis)");
    expect(text).not.toMatch(/detect: 2\)/);
  });
});
