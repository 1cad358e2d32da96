/**
 * Makes the demo's three runs and its judge labels from the committed transcripts and queries,
 * and the same three systems' runs over the second chunking (SECOND_CHUNKING):
 *
 *   npx tsx scripts/demo/make-runs.ts      (writes demo/runs/*.trec, demo/runs/c40o0/*.trec and demo/judge.jsonl)
 *
 * The chunks are cut exactly as `assessor import transcript --chunk-seconds 20
 * --overlap-seconds 5` cuts them (the same parser and chunker), so the runs name chunk ids the
 * import makes. Run it again whenever the transcripts, the queries or the chunker change.
 *
 * The "systems" are small but real retrieval models over the chunk texts, so their rankings are
 * plausible and differ the way such systems differ:
 * - bm25: Okapi BM25 (k1 1.2, b 0.75) over word tokens;
 * - vector: cosine similarity of TF-IDF vectors of character trigrams plus a few concept
 *   features (synonym groups), a stand-in for an embedding model: good at paraphrase, fuzzy on
 *   names;
 * - hybrid-rrf: reciprocal rank fusion (k 60) of the two.
 * The judge ("gpt-judge") grades every chunk any run returns, from where the answer is spoken
 * (the query's reference start) and word overlap, with a deliberate lenient streak on topical
 * chunks, as LLM judges have, so that calibration against the human labels has something to find;
 * each label carries the judge's stated confidence (p_ge1, p_ge2), which the Judge trust card
 * calibrates against people.
 */
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { parseCaptions, type Cue } from "../../lib/formats/captions.ts";
import { chunkCues, type TranscriptChunk } from "../../lib/formats/chunker.ts";

/** Must match scripts/demo.mjs (CHUNK_SECONDS, OVERLAP_SECONDS). */
export const DEMO_CHUNKING = { by: "seconds", size: 20, overlap: 5 } as const;
/**
 * The demo's second chunking, must match scripts/demo.mjs (SECOND_CHUNKING):
 * 40 s windows without overlap. Its runs are the same three systems over its chunks, written to
 * demo/runs/c40o0/ with the system names `<system>@c40o0` (system names are unique in a project;
 * the chunking report reads `bm25@c40o0` on c40o0 as system bm25).
 */
export const SECOND_CHUNKING = { name: "c40o0", cut: { by: "seconds", size: 40, overlap: 0 } } as const;
const RUN_DEPTH = 10;
const RRF_K = 60;
const VECTOR_NOISE = 0.2;

const root = join(import.meta.dirname, "..", "..");
const demo = join(root, "demo");

type Chunk = TranscriptChunk & { video: string };
type Query = { id: string; text: string; start: number; video: string };
type Scored = { docid: string; score: number };

const STOP = new Set(
  "a an and are as at be by can do does for from how in is it its of on one or so that the their them these this to we what when where which who whether why with you your not no our than into just much more most only".split(" "),
);

function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t && !STOP.has(t))
    .map((t) => (t.length > 4 && t.endsWith("s") && !t.endsWith("ss") ? t.slice(0, -1) : t));
}

// ---------------------------------------------------------------------------------------------
// bm25

function bm25(chunks: Chunk[], query: string, k1 = 1.2, b = 0.75): Scored[] {
  const docs = chunks.map((c) => tokens(c.text));
  const avgdl = docs.reduce((s, d) => s + d.length, 0) / docs.length;
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = docs.length;
  const q = [...new Set(tokens(query))];
  return chunks
    .map((c, i) => {
      let score = 0;
      for (const t of q) {
        const tf = docs[i].filter((x) => x === t).length;
        if (!tf) continue;
        const d = df.get(t) ?? 0;
        const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
        score += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * docs[i].length) / avgdl));
      }
      return { docid: c.id, score: round(score, 4) };
    })
    .filter((s) => s.score > 0);
}

// ---------------------------------------------------------------------------------------------
// vector (character trigrams + concepts, TF-IDF, cosine)

const CONCEPTS: Record<string, string[]> = {
  author: ["who", "developed", "wrote", "introduced", "paper", "robertson", "jone", "cormack", "jarvelin", "kekalainen"],
  origin: ["came", "come", "system", "university", "okapi", "london"],
  default: ["default", "typical", "usual", "value", "usually", "setting"],
  length: ["length", "long", "normalization", "longer"],
  wording: ["worded", "wording", "vocabulary", "mismatch", "differently", "different", "words"],
  combine: ["combine", "combined", "fusion", "merge", "hybrid", "add", "adding", "summed", "points"],
  scale: ["scale", "score", "calibration"],
  discount: ["discount", "discounted", "position", "logarithm", "rank"],
  judged: ["judged", "judge", "unjudged", "nobody", "pooling", "labels", "grade"],
  better: ["beat", "beats", "better", "outperform", "alone", "single"],
};

function features(text: string): Map<string, number> {
  const f = new Map<string, number>();
  const add = (k: string, w = 1) => f.set(k, (f.get(k) ?? 0) + w);
  const ts = tokens(text);
  for (const t of ts) {
    const padded = `#${t}#`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`g:${padded.slice(i, i + 3)}`);
    for (const [concept, words] of Object.entries(CONCEPTS)) if (words.includes(t)) add(`c:${concept}`, 3);
  }
  for (const raw of text.toLowerCase().split(/[^a-z]+/)) for (const [concept, words] of Object.entries(CONCEPTS)) if (raw && STOP.has(raw) && words.includes(raw)) add(`c:${concept}`, 3);
  return f;
}

function vector(chunks: Chunk[], query: string): Scored[] {
  const docs = chunks.map((c) => features(c.text));
  const df = new Map<string, number>();
  for (const d of docs) for (const k of d.keys()) df.set(k, (df.get(k) ?? 0) + 1);
  const idf = (k: string) => Math.log((docs.length + 1) / ((df.get(k) ?? 0) + 1)) + 1;
  const weigh = (f: Map<string, number>) => {
    const w = new Map<string, number>();
    for (const [k, v] of f) w.set(k, (1 + Math.log(v)) * idf(k));
    const norm = Math.sqrt([...w.values()].reduce((s, x) => s + x * x, 0)) || 1;
    for (const [k, v] of w) w.set(k, v / norm);
    return w;
  };
  const q = weigh(features(query));
  return chunks.map((c, i) => {
    const d = weigh(docs[i]);
    let dot = 0;
    for (const [k, v] of q) dot += v * (d.get(k) ?? 0);
    // An embedding model's similarities are noisy around the ideal: a fixed pseudo-random wobble.
    return { docid: c.id, score: round(dot + VECTOR_NOISE * (unit(`${query} ${c.id}`) - 0.5), 4) };
  });
}

/** A stable number in [0, 1) from a string. */
function unit(s: string): number {
  return createHash("sha256").update(s).digest().readUInt32BE(0) / 2 ** 32;
}

// ---------------------------------------------------------------------------------------------
// fusion, order, files

const round = (x: number, d: number) => Number(x.toFixed(d));

/** The evaluated order (lib/stats/order.ts): score descending, ties by docid descending. */
function ranked(rows: Scored[]): Scored[] {
  return [...rows].sort((a, b) => b.score - a.score || (a.docid < b.docid ? 1 : a.docid > b.docid ? -1 : 0));
}

function rrf(lists: Scored[][]): Scored[] {
  const total = new Map<string, number>();
  for (const list of lists) ranked(list).forEach((r, i) => total.set(r.docid, (total.get(r.docid) ?? 0) + 1 / (RRF_K + i + 1)));
  return [...total].map(([docid, score]) => ({ docid, score: round(score, 6) }));
}

function trecLines(system: string, results: Map<string, Scored[]>): string {
  const out: string[] = [];
  for (const [qid, rows] of results) ranked(rows).slice(0, RUN_DEPTH).forEach((r, i) => out.push(`${qid} Q0 ${r.docid} ${i + 1} ${r.score} ${system}`));
  return `${out.join("\n")}\n`;
}

// ---------------------------------------------------------------------------------------------
// judge

/** A judge label as `assessor import judge` reads it, with the judge's own confidence (p_ge1, p_ge2). */
type JudgeRow = { query: string; chunk: string; grade: number; rationale: string; p_ge1: number; p_ge2: number };

function quote(s: string, max = 90): string {
  return s.length > max ? `“${s.slice(0, max - 1).trimEnd()}…”` : `“${s}”`;
}

function judge(q: Query, c: Chunk, cues: Map<string, Cue[]>): JudgeRow {
  const videoCues = cues.get(q.video) ?? [];
  const answer = videoCues.reduce((best, cue) => (Math.abs(cue.start - q.start) < Math.abs(best.start - q.start) ? cue : best), videoCues[0]);
  const qt = new Set(tokens(q.text));
  const shared = [...new Set(tokens(c.text))].filter((t) => qt.has(t));
  const lenient = createHash("sha256").update(`${q.id} ${c.id}`).digest()[0] % 5 === 0;
  // The judge's stated confidence [P(grade ≥ 1), P(grade ≥ 2)] follows the evidence it used, and is
  // as sure of its lenient grades as of the others (overconfident there, as LLM judges are), so the
  // calibration card has a miscalibration to find.
  const row = (grade: number, rationale: string, [p_ge1, p_ge2]: [number, number]): JudgeRow => ({ query: q.id, chunk: c.id, grade, rationale, p_ge1, p_ge2 });
  if (c.video === q.video && answer && c.start <= answer.start + 1e-6 && answer.end <= c.end + 1e-6)
    return row(3, `The passage answers the question directly: ${quote(answer.text)}`, [0.97, 0.92]);
  if (c.video === q.video && answer && Math.min(Math.abs(c.end - answer.start), Math.abs(c.start - answer.end)) < 8)
    return row(lenient ? 2 : 1, `Same talk, right next to the answer, but the passage itself does not state it${lenient ? "; it sets up the answer well" : ""}.`, lenient ? [0.9, 0.7] : [0.75, 0.35]);
  if (shared.length >= 2) return row(lenient ? 2 : 1, `Mentions ${shared.slice(0, 3).join(", ")} but does not answer the question${lenient ? "; close enough to be useful" : ""}.`, lenient ? [0.8, 0.6] : [0.6, 0.2]);
  if (shared.length === 1 && c.video === q.video) return row(lenient ? 1 : 0, `On the same topic (${shared[0]}), but not about what was asked.`, lenient ? [0.55, 0.1] : [0.3, 0.05]);
  return row(0, shared.length ? `Shares only the word "${shared[0]}"; about something else.` : "About something else; nothing here answers the question.", shared.length ? [0.15, 0.03] : [0.05, 0.01]);
}

// ---------------------------------------------------------------------------------------------

export function demoChunks(cut: { by: "seconds"; size: number; overlap: number } = DEMO_CHUNKING): { chunks: Chunk[]; cues: Map<string, Cue[]> } {
  const videos = readJsonl<{ id: string }>(join(demo, "videos.jsonl"));
  const chunks: Chunk[] = [];
  const cues = new Map<string, Cue[]>();
  for (const v of videos) {
    const file = join(demo, "transcripts", `${v.id}.vtt`);
    const parsed = parseCaptions(readFileSync(file), file, "vtt");
    if (parsed.errors.length) throw new Error(`${file}: ${parsed.errors.map((e) => `line ${e.line}: ${e.message}`).join("; ")}`);
    cues.set(v.id, parsed.cues);
    for (const c of chunkCues(v.id, parsed.cues, cut)) chunks.push({ ...c, video: v.id });
  }
  return { chunks, cues };
}

function readJsonl<T>(file: string): T[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

/** The three systems' results over one chunking's chunks. */
function systemRuns(chunks: Chunk[], queries: Query[]): Record<"bm25" | "vector" | "hybrid-rrf", Map<string, Scored[]>> {
  const runs = { bm25: new Map<string, Scored[]>(), vector: new Map<string, Scored[]>(), "hybrid-rrf": new Map<string, Scored[]>() };
  for (const q of queries) {
    const b = bm25(chunks, q.text);
    const v = vector(chunks, q.text);
    runs.bm25.set(q.id, b);
    runs.vector.set(q.id, v);
    runs["hybrid-rrf"].set(q.id, rrf([b, v]));
  }
  return runs;
}

/** The files this script writes, by path relative to the repository, with their contents. */
export function demoRunFiles(): { files: Map<string, string>; summary: string } {
  const { chunks, cues } = demoChunks();
  const queries = readJsonl<Query>(join(demo, "queries.jsonl"));
  const runs = systemRuns(chunks, queries);
  const files = new Map<string, string>();
  for (const [system, results] of Object.entries(runs)) files.set(`demo/runs/${system}.trec`, trecLines(system, results));
  const second = demoChunks(SECOND_CHUNKING.cut).chunks;
  for (const [system, results] of Object.entries(systemRuns(second, queries))) files.set(`demo/runs/${SECOND_CHUNKING.name}/${system}.trec`, trecLines(`${system}@${SECOND_CHUNKING.name}`, results));

  const byId = new Map(chunks.map((c) => [c.id, c]));
  const judged: JudgeRow[] = [];
  for (const q of queries) {
    const returned = new Set<string>();
    for (const results of Object.values(runs)) for (const r of ranked(results.get(q.id) ?? []).slice(0, RUN_DEPTH)) returned.add(r.docid);
    for (const id of [...returned].sort()) judged.push(judge(q, byId.get(id) as Chunk, cues));
  }
  files.set("demo/judge.jsonl", `${judged.map((j) => JSON.stringify(j)).join("\n")}\n`);

  const grades = [0, 1, 2, 3].map((g) => judged.filter((j) => j.grade === g).length);
  const summary = [`${chunks.length} chunks, ${queries.length} queries; runs: ${Object.keys(runs).join(", ")} (depth ${RUN_DEPTH}); ${judged.length} judge labels (grades 0–3: ${grades.join(", ")})`];
  for (const [system, results] of Object.entries(runs)) {
    let hits = 0;
    for (const q of queries) {
      const top = ranked(results.get(q.id) ?? [])[0];
      if (top && judged.find((j) => j.query === q.id && j.chunk === top.docid)?.grade === 3) hits++;
    }
    summary.push(`  ${system}: the answer chunk first for ${hits} of ${queries.length} queries`);
  }
  return { files, summary: summary.join("\n") };
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const { files, summary } = demoRunFiles();
  mkdirSync(join(demo, "runs", SECOND_CHUNKING.name), { recursive: true });
  for (const [path, content] of files) writeFileSync(join(root, path), content);
  process.stdout.write(`${summary}\nwritten: ${[...files.keys()].join(", ")}\n`);
}
