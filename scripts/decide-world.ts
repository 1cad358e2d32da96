/**
 * Regenerates lib/decisions/simulation-world.json, the constants of the decision benchmark's
 * simulated collections (lib/decisions/simulation.ts), from two pinned public repositories:
 *
 * - TREC Deep Learning 2019 and 2020 passage task: the official NIST qrels and submitted runs, as
 *   kept by github.com/TREMA-UNH/appendix-umbrella-other-llm at commit
 *   10906c73cadc927ff5fab7b3284196334633432c (data/dl2019/2019qrels-pass.txt,
 *   data/dl2020/2020qrels-pass.txt, data/dl20{19,20}/runs_dl20{19,20}/*.run). That repository
 *   holds no LLM labels of its own (its results/ folder is not published).
 * - The LLM judge: an UMBRELA-prompt judge of the LLMJudge challenge (SIGIR 2024 LLM4Eval) on the
 *   TREC DL 2023 passage test set, released with Rahmani et al., "Judging the Judges: A Collection
 *   of LLM-Generated Relevance Judgements" (arXiv:2502.13908), github.com/llm4eval/LLMJudge-benchmark
 *   at commit 968a1f9c962fddfc6508faa2d45e3e7edd1c3829 (submissions/scores/willia-umbrela1.txt,
 *   its prompt submissions/prompts/william-umbrela1.txt), against the challenge's human (NIST)
 *   test qrels in the same id space, data/dl2023/llm4eval_test_qrel_2024_withRel.txt of the
 *   TREMA-UNH repository above. (SynDL's GPT-4 labels, github.com/rahmanidashti/SynDL, cover only
 *   the questions NIST did not judge, so they give no confusion matrix.)
 *
 * Derived (small enough to check in):
 * - the judge's confusion matrix: counts of (NIST grade, judge grade) over the pairs both label;
 * - a jury's joint grades: counts of (NIST grade, the three members' grades) over the pairs all
 *   label, for the three UMBRELA prompt variants of the same team (JURY_FILES);
 * - per question, the grades of its depth-10 pool over the available runs (a histogram of 4
 *   counts; chunks the qrels do not list count as grade 0, as trec_eval treats them);
 * - the mean share of one run's top 10 found in another's top 10 (run overlap), over every pair of
 *   runs and every judged question, and the runs' median mean nDCG@10 (linear gain, trec_eval's
 *   ndcg_cut_10).
 *
 * Usage: fetch both repositories (they arrive as bare git directories), then
 *   npx tsx scripts/decide-world.ts TREMA_GIT_DIR LLMJUDGE_GIT_DIR
 * Run files missing from the snapshot (large files may be absent) are skipped and listed.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { format, resolveConfig } from "prettier";
import { dcg, idealDcg } from "../lib/stats/measures/ndcg.ts";

const TREMA = { repo: "TREMA-UNH/appendix-umbrella-other-llm", commit: "10906c73cadc927ff5fab7b3284196334633432c" };
const LLMJUDGE = { repo: "llm4eval/LLMJudge-benchmark", commit: "968a1f9c962fddfc6508faa2d45e3e7edd1c3829" };
const JUDGE_FILE = "submissions/scores/willia-umbrela1.txt";
/**
 * A jury of three: the same team's three UMBRELA prompt variants (prompts
 * submissions/prompts/william-umbrela{1,2,3}.txt: grades 0–3, named grades, and a two-prompt
 * variant), which label the same pairs and disagree with each other on 16% of them.
 */
const JURY_FILES = [1, 2, 3].map((i) => `submissions/scores/willia-umbrela${i}.txt`);
const JUDGE_HUMAN_QRELS = "data/dl2023/llm4eval_test_qrel_2024_withRel.txt";
const YEARS = [
  {
    year: 2019,
    qrels: "data/dl2019/2019qrels-pass.txt",
    runs: "data/dl2019/runs_dl2019",
  },
  {
    year: 2020,
    qrels: "data/dl2020/2020qrels-pass.txt",
    runs: "data/dl2020/runs_dl2020",
  },
];

const show = (gitDir: string, commit: string, path: string): string | null => {
  try {
    return execFileSync("git", ["--git-dir", gitDir, "show", `${commit}:${path}`], {
      encoding: "utf8",
      maxBuffer: 1 << 30,
      stdio: ["ignore", "pipe", "ignore"],
    });
  } catch {
    return null;
  }
};

/** qid → docid → grade from a qrels-format text (qid iter docid grade). */
function qrels(text: string): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const line of text.split("\n")) {
    const f = line.trim().split(/\s+/);
    if (f.length < 4) continue;
    const g = Number(f[3]);
    if (!Number.isInteger(g)) continue;
    if (!out.has(f[0])) out.set(f[0], new Map());
    out.get(f[0])!.set(f[2], g);
  }
  return out;
}

/** qid → docids of the top 10, by rank then score (trec_eval sorts by score; the files are in rank order). */
function top10(text: string): Map<string, string[]> {
  const rows = new Map<string, { doc: string; score: number }[]>();
  for (const line of text.split("\n")) {
    const f = line.trim().split(/\s+/);
    if (f.length < 6) continue;
    if (!rows.has(f[0])) rows.set(f[0], []);
    rows.get(f[0])!.push({ doc: f[2], score: Number(f[4]) });
  }
  const out = new Map<string, string[]>();
  for (const [q, r] of rows)
    out.set(
      q,
      r
        .sort((a, b) => b.score - a.score)
        .slice(0, 10)
        .map((x) => x.doc),
    );
  return out;
}

async function main(tremaDir: string, llmjudgeDir: string): Promise<void> {
  const confusion = [0, 1, 2, 3].map(() => [0, 0, 0, 0]);
  // The challenge's files spell a question "Q49" in one place and "q49" in another: ids compared in lower case.
  const lower = (m: Map<string, Map<string, number>>) => new Map([...m].map(([q, d]) => [q.toLowerCase(), d]));
  const judgeHuman = lower(qrels(show(tremaDir, TREMA.commit, JUDGE_HUMAN_QRELS) ?? ""));
  const judge = lower(qrels(show(llmjudgeDir, LLMJUDGE.commit, JUDGE_FILE) ?? ""));
  if (judgeHuman.size === 0 || judge.size === 0)
    throw new Error("the judge's labels or their human qrels were not found");
  for (const [q, docs] of judge)
    for (const [doc, jg] of docs) {
      const hg = judgeHuman.get(q)?.get(doc);
      if (hg !== undefined && hg >= 0 && hg <= 3 && jg >= 0 && jg <= 3) confusion[hg][jg]++;
    }
  // The jury's joint grades per human grade: jury[h][16·g₁ + 4·g₂ + g₃] over the pairs all label.
  const members = JURY_FILES.map((f) => lower(qrels(show(llmjudgeDir, LLMJUDGE.commit, f) ?? "")));
  if (members.some((m) => m.size === 0)) throw new Error("a jury member's labels were not found");
  const jury = [0, 1, 2, 3].map(() => new Array<number>(64).fill(0));
  for (const [q, docs] of judgeHuman)
    for (const [doc, hg] of docs) {
      const g = members.map((m) => m.get(q)?.get(doc));
      if (hg < 0 || hg > 3 || g.some((x) => x === undefined || x < 0 || x > 3)) continue;
      const [a, b, c] = g as number[];
      jury[hg][16 * a + 4 * b + c]++;
    }
  const pools: number[][] = [];
  const overlaps: number[] = [];
  const ndcgs: number[] = [];
  const runsUsed: string[] = [];
  const runsMissing: string[] = [];
  for (const y of YEARS) {
    const human = qrels(show(tremaDir, TREMA.commit, y.qrels) ?? "");
    if (human.size === 0) throw new Error(`${y.year}: qrels not found`);
    const listing = execFileSync("git", ["--git-dir", tremaDir, "ls-tree", "--name-only", TREMA.commit, `${y.runs}/`], {
      encoding: "utf8",
    });
    const runs: Map<string, string[]>[] = [];
    for (const path of listing.split("\n").filter(Boolean)) {
      const text = show(tremaDir, TREMA.commit, path);
      if (!text || text.length === 0) {
        runsMissing.push(path);
        continue;
      }
      runs.push(top10(text));
      runsUsed.push(path);
    }
    for (const [q, grades] of human) {
      const pool = new Set<string>();
      for (const r of runs) for (const d of r.get(q) ?? []) pool.add(d);
      if (pool.size === 0) continue;
      const hist = [0, 0, 0, 0];
      for (const d of pool) hist[Math.max(0, Math.min(3, grades.get(d) ?? 0))]++;
      pools.push(hist);
      for (let i = 0; i < runs.length; i++)
        for (let j = i + 1; j < runs.length; j++) {
          const a = runs[i].get(q);
          const b = new Set(runs[j].get(q) ?? []);
          if (!a || b.size === 0) continue;
          overlaps.push(a.filter((d) => b.has(d)).length / Math.max(a.length, 1));
        }
    }
    const judgedAtGrade = new Map<string, number[]>();
    for (const [q, grades] of human) {
      const h = [0, 0, 0, 0];
      for (const g of grades.values()) if (g >= 0 && g <= 3) h[g]++;
      judgedAtGrade.set(q, h);
    }
    for (const r of runs) {
      let s = 0;
      let n = 0;
      for (const [q, h] of judgedAtGrade) {
        const list = r.get(q);
        if (!list) continue; // the snapshot's run files hold a subset of the questions: score what each covers
        const ideal = idealDcg(h, 10, "linear");
        s +=
          ideal > 0
            ? dcg(
                list.map((d) => human.get(q)?.get(d) ?? 0),
                10,
                "linear",
              ) / ideal
            : 0;
        n++;
      }
      if (n > 0) ndcgs.push(s / n);
    }
  }
  ndcgs.sort((a, b) => a - b);
  const world = {
    generatedBy: "npx tsx scripts/decide-world.ts TREMA_GIT_DIR LLMJUDGE_GIT_DIR",
    sources: {
      trecDl: { ...TREMA, qrels: YEARS.map((y) => y.qrels), runs: runsUsed, runsMissingFromSnapshot: runsMissing },
      judge: {
        ...LLMJUDGE,
        labels: JUDGE_FILE,
        juryLabels: JURY_FILES,
        humanQrels: `${TREMA.repo}@${TREMA.commit}:${JUDGE_HUMAN_QRELS}`,
        paper:
          "Rahmani et al., Judging the Judges: A Collection of LLM-Generated Relevance Judgements (arXiv:2502.13908), LLMJudge challenge, TREC DL 2023 passages",
      },
    },
    /** confusion[human grade][judge grade]: pairs labelled by both (NIST qrels vs GPT-4). */
    confusion,
    /** jury[human grade][16·g₁ + 4·g₂ + g₃]: pairs whose three members gave g₁, g₂, g₃ (JURY_FILES' order). */
    jury,
    /** Per question: its depth-10 pool's counts of grade 0, 1, 2, 3 (unlisted chunks: 0). */
    pools,
    /** Mean share of a run's top 10 also in another run's top 10 (every pair of runs, every question). */
    runOverlap: overlaps.reduce((a, b) => a + b, 0) / overlaps.length,
    /** Median over the runs of their mean nDCG@10 (linear gain). */
    medianNdcg10: ndcgs[Math.floor(ndcgs.length / 2)],
    runNdcg10Range: [ndcgs[0], ndcgs[ndcgs.length - 1]],
  };
  const out = join(import.meta.dirname, "..", "lib", "decisions", "simulation-world.json");
  // Written as the repository's formatter writes it, so that a regenerated file differs only where the data does.
  writeFileSync(out, await format(JSON.stringify(world), { ...(await resolveConfig(out)), filepath: out }));
  process.stdout.write(
    `written ${out}: ${pools.length} questions, ${runsUsed.length} runs (${runsMissing.length} missing), overlap ${world.runOverlap.toFixed(3)}, median nDCG@10 ${world.medianNdcg10.toFixed(3)}\n`,
  );
}

const [trema, llmjudge] = process.argv.slice(2);
if (!trema || !llmjudge) {
  process.stderr.write("usage: npx tsx scripts/decide-world.ts TREMA_GIT_DIR LLMJUDGE_GIT_DIR\n");
  process.exit(2);
}
await main(trema, llmjudge);
