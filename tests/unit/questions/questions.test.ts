import { describe, expect, it } from "vitest";
import { contentTerms, sStem } from "../../../lib/questions/text.ts";
import {
  answerChunk,
  bm25Index,
  bm25Rank,
  bm25Scores,
  flagged,
  windowOverlap,
} from "../../../lib/questions/overlap.ts";
import { duplicateClusters, jaccard } from "../../../lib/questions/duplicates.ts";
import {
  LogDeduper,
  frequencySample,
  normaliseQuery,
  stratifiedSample,
  stratumOf,
  type TLogEntry,
} from "../../../lib/questions/query-log.ts";
import { mulberry32 } from "../../../lib/stats/random.ts";
import { questionsText } from "../../../lib/questions/export.ts";
import type { TQuestion } from "../../../lib/questions/store.ts";
import { historyChanges, readSnapshot } from "../../../lib/questions/history.ts";
import { endBeforeStart, parseClock } from "../../../lib/questions/places.ts";

describe("content terms (stop words, Harman's S-stemmer)", () => {
  it("drops stop and question words and strips plural endings by Harman's three rules", () => {
    expect(sStem("queries")).toBe("query");
    expect(sStem("movies")).toBe("movy"); // the rule as stated, even where English disagrees
    expect(sStem("statistics")).toBe("statistic");
    expect(sStem("horses")).toBe("horse"); // "es" → "e"
    expect(sStem("does")).toBe("doe"); // (a stop word anyway)
    expect(sStem("corpus")).toBe("corpus");
    expect(sStem("class")).toBe("class");
    expect(sStem("bus")).toBe("bus"); // ≤ 3 letters
    expect(contentTerms("Who introduced the Kappa statistics? Don't ask.")).toEqual([
      "introduced",
      "kappa",
      "statistic",
      "dont",
      "ask",
    ]);
  });
});

describe("window overlap (±30 s of the answer start)", () => {
  const segments = [
    { start: 0, end: 10, text: "Cohen introduced kappa" },
    { start: 50, end: 60, text: "a statistic" },
  ];
  const q = "Who introduced the kappa statistics?"; // terms: introduced, kappa, statistic
  it("counts the question's distinct content terms found in segments meeting [t − 30, t + 30]", () => {
    // t = 25: window [−5, 55] meets both segments: 3 of 3.
    expect(windowOverlap(q, segments, 25)).toEqual({
      share: 1,
      found: ["introduced", "kappa", "statistic"],
      terms: ["introduced", "kappa", "statistic"],
    });
    // t = 90: window [60, 120] touches only [50, 60] (closed intervals): 1 of 3.
    expect(windowOverlap(q, segments, 90)?.share).toBeCloseTo(1 / 3, 12);
    // t = 41: window [11, 71] misses [0, 10]: "statistic" only.
    expect(windowOverlap(q, segments, 41)?.found).toEqual(["statistic"]);
  });
  it("is null without content terms or without transcript in the window", () => {
    expect(windowOverlap("what is it?", segments, 25)).toBeNull();
    expect(windowOverlap(q, segments, 200)).toBeNull();
  });
});

describe("BM25 rank of the answer's chunk (k1 = 0.9, b = 0.4, Lucene idf)", () => {
  const chunks = [
    { id: "c1", start: 0, end: 20, text: "pooling pooling depth" },
    { id: "c2", start: 20, end: 40, text: "kappa agreement" },
    { id: "c3", start: 40, end: 60, text: "pooling bias" },
  ];
  const index = bm25Index(chunks);
  it("scores as derived by hand", () => {
    // N = 3, |D| = 3, 2, 2, avgdl = 7/3; query terms pooling (df 2), depth (df 1).
    // idf(pooling) = ln(1 + 1.5/2.5) = ln 1.6 = 0.470004; idf(depth) = ln(1 + 2.5/1.5) = 0.980829.
    // c1: K = 0.9·(0.6 + 0.4·3/(7/3)) = 1.002857; 0.470004·2·1.9/(2 + K) + 0.980829·1.9/(1 + K) = 0.594772 + 0.930459 = 1.525231.
    // c3: K = 0.9·(0.6 + 0.4·2/(7/3)) = 0.848571; 0.470004·1.9/(1 + K) = 0.483080. c2: 0.
    const s = bm25Scores(index, "What is pooling depth?");
    expect(s[0]).toBeCloseTo(1.525231, 5);
    expect(s[1]).toBe(0);
    expect(s[2]).toBeCloseTo(0.48308, 5);
  });
  it("ranks the chunk holding the answer start among the video's chunks", () => {
    expect(bm25Rank(index, "What is pooling depth?", 5)).toEqual({ rank: 1, of: 3, chunk: "c1" });
    expect(bm25Rank(index, "What is pooling depth?", 45)).toEqual({ rank: 2, of: 3, chunk: "c3" });
    expect(bm25Rank(index, "What is pooling depth?", 20)).toEqual({ rank: 3, of: 3, chunk: "c2" }); // start of c2, end of c1: c2 holds it
    expect(bm25Rank(bm25Index([]), "pooling", 3)).toBeNull();
  });
  it("takes the chunk ending at the answer start, else the nearest start", () => {
    expect(answerChunk(chunks, 60)).toBe(2);
    expect(answerChunk(chunks, 500)).toBe(2);
    expect(
      answerChunk(
        [
          { id: "a", start: 10, end: 20, text: "" },
          { id: "b", start: 100, end: 110, text: "" },
        ],
        50,
      ),
    ).toBe(0);
  });
  it("flags at overlap ≥ 0.75, or rank 1 with overlap ≥ 0.5", () => {
    expect(flagged(0.75, 9)).toBe(true);
    expect(flagged(0.5, 1)).toBe(true);
    expect(flagged(0.5, 2)).toBe(false);
    expect(flagged(null, 1)).toBe(false);
  });
});

describe("near-duplicates (Jaccard of content terms ≥ 0.6), as groups", () => {
  it("groups questions linked by a similarity at or above the threshold", () => {
    const qs = [
      { id: 1, text: "What is pooling depth?" }, // {pooling, depth}
      { id: 2, text: "pooling depth: what is it" }, // {pooling, depth}: 1
      { id: 3, text: "How deep should the pool be?" }, // {deep, pool}: 0
      { id: 4, text: "pooling depth for bias" }, // {pooling, depth, bias}: 2/3 with 1 and 2
      { id: 5, text: "pooling bias" }, // {pooling, bias}: 1/3 with 1, 2/3 with 4
      { id: 6, text: "what is it?" }, // no content terms: never a duplicate
      { id: 7, text: "what is it?" },
    ];
    expect(jaccard(new Set(["a", "b"]), new Set(["b", "c"]))).toBeCloseTo(1 / 3, 12);
    // 1–2 (1), 1–4, 2–4, 4–5 (2/3): one group of four, joined at 2/3 at the lowest.
    const r = duplicateClusters(qs);
    expect([r.complete, r.clusters.map((c) => [c.ids, Number(c.similarity.toFixed(4))])]).toEqual([
      true,
      [[[1, 2, 4, 5], 0.6667]],
    ]);
    // At 0.9 only 1 and 2 (the same content terms: grouped without comparing them).
    expect(duplicateClusters(qs, 0.9).clusters).toEqual([{ ids: [1, 2], similarity: 1 }]);
  });
  it("finds exactly the groups of an all-pairs comparison, at several thresholds (prefix filtering misses no link)", () => {
    // 300 questions of 1–6 words from a 12-word vocabulary (seeded), so many pairs sit near each threshold; one word most questions share.
    const random = mulberry32(23);
    const vocab = [
      "alpha",
      "bravo",
      "charlie",
      "delta",
      "echo",
      "foxtrot",
      "golf",
      "hotel",
      "india",
      "juliet",
      "kilo",
      "lima",
    ];
    const qs = Array.from({ length: 300 }, (_, i) => ({
      id: i + 1,
      text: [
        ...Array.from({ length: 1 + Math.floor(random() * 6) }, () => vocab[Math.floor(random() ** 2 * vocab.length)]),
        ...(random() < 0.8 ? ["query"] : []),
      ].join(" "),
    }));
    const sets = qs.map((q) => new Set(contentTerms(q.text)));
    for (const t of [0.3, 0.5, 0.6, 2 / 3, 0.75, 1]) {
      // Connected components of the all-pairs graph, by a plain union-find.
      const parent = qs.map((_, i) => i);
      const find = (x: number): number => (parent[x] === x ? x : (parent[x] = find(parent[x])));
      for (let i = 0; i < qs.length; i++)
        for (let j = i + 1; j < qs.length; j++)
          if (sets[i].size && sets[j].size && jaccard(sets[i], sets[j]) >= t) parent[find(j)] = find(i);
      const groups = new Map<number, number[]>();
      qs.forEach((q, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), q.id]));
      const all = [...groups.values()].filter((g) => g.length > 1).sort((x, y) => y.length - x.length || x[0] - y[0]);
      const found = duplicateClusters(qs, t);
      expect(found.clusters.length).toBeGreaterThan(0);
      expect([found.complete, found.clusters.map((c) => c.ids)]).toEqual([true, all]);
    }
  });
  it("stays bounded: 5,000 identical questions are one group without comparisons; similar distinct ones stop at the budget", () => {
    const same = Array.from({ length: 5000 }, (_, i) => ({
      id: i + 1,
      text: i % 2 ? "What is the capital of France?" : "what is the CAPITAL of france",
    }));
    const t0 = performance.now();
    const r = duplicateClusters(same);
    expect([r.clusters.length, r.clusters[0].ids.length, r.clusters[0].similarity, r.comparisons, r.complete]).toEqual([
      1,
      5000,
      1,
      0,
      true,
    ]);
    // 5,000 distinct texts sharing two of three terms (Jaccard 1/2 < 0.6): every pair a candidate, none a link.
    const distinct = Array.from({ length: 5000 }, (_, i) => ({ id: i + 1, text: `capital of country ${i}` }));
    const capped = duplicateClusters(distinct, 0.6, 100_000);
    expect([capped.clusters.length, capped.complete, capped.comparisons]).toEqual([0, false, 100_000]);
    // Generous: both together take milliseconds on an idle machine.
    expect(performance.now() - t0).toBeLessThan(5_000);
  });
});

describe("query logs: normalisation, deduplication, sampling", () => {
  it("normalises case, white space and punctuation", () => {
    expect(normaliseQuery("  What is   BM25?! ")).toBe("what is bm25");
    expect(normaliseQuery("BM-25\tranking")).toBe("bm 25 ranking");
    expect(normaliseQuery("Ｃａｆé")).toBe("café"); // NFKC folds full-width letters
    expect(normaliseQuery("?!")).toBe("");
  });
  it("sums counts per normalised text, keeps the first text and counts distinct users", () => {
    const d = new LogDeduper();
    d.add("What is BM25?", 1, "u1");
    d.add("what is bm25", 3, "u2");
    d.add("WHAT IS BM25 ", 1, "u1");
    d.add("kappa", 2);
    d.add("...", 1);
    expect(d.lines).toBe(5);
    expect(d.entries()).toEqual([
      { key: "what is bm25", text: "What is BM25?", count: 5, users: 2 },
      { key: "kappa", text: "kappa", count: 2, users: 0 },
    ]);
  });
  it("counts each user once per query however their lines interleave", () => {
    const d = new LogDeduper();
    // bm25: u1, u2, u1, u3, u2 → {u1, u2, u3} = 3; kappa: u2, u2, u1 → {u1, u2} = 2; pooling: u3 → 1.
    for (const [text, user] of [
      ["bm25", "u1"],
      ["kappa", "u2"],
      ["BM25", "u2"],
      ["bm25", "u1"],
      ["kappa", "u2"],
      ["bm25?", "u3"],
      ["pooling", "u3"],
      ["Bm25", "u2"],
      ["kappa", "u1"],
    ] as const)
      d.add(text, 1, user);
    expect(d.entries().map((x) => [x.key, x.count, x.users])).toEqual([
      ["bm25", 5, 3],
      ["kappa", 3, 2],
      ["pooling", 1, 1],
    ]);
  });
  const e = (key: string, count: number): TLogEntry => ({ key, text: key, count, users: 0 });
  it("frequency sampling favours frequent queries (seeded, Efraimidis–Spirakis keys)", () => {
    const entries = [e("heavy", 1000), ...Array.from({ length: 9 }, (_, i) => e(`rare${i}`, 1))];
    let heavy = 0;
    for (let seed = 1; seed <= 200; seed++)
      if (frequencySample(entries, 1, mulberry32(seed))[0].key === "heavy") heavy++;
    // P(heavy first) = 1000/1009 ≈ 0.991: about 198 of 200.
    expect(heavy).toBeGreaterThanOrEqual(190);
    expect(frequencySample(entries, 50, mulberry32(1))).toHaveLength(10);
    expect(frequencySample(entries, 4, mulberry32(7))).toEqual(frequencySample(entries, 4, mulberry32(7)));
  });
  it("stratified sampling splits N equally across frequency decades", () => {
    expect([1, 2, 9, 10, 99, 100].map(stratumOf)).toEqual([0, 1, 1, 2, 2, 3]);
    const entries = [
      ...Array.from({ length: 6 }, (_, i) => e(`one${i}`, 1)),
      e("five-a", 5),
      e("five-b", 5),
      e("fifty", 50),
    ];
    const byStratum = (s: TLogEntry[]) => [2, 1, 0].map((k) => s.filter((x) => stratumOf(x.count) === k).length);
    expect(byStratum(stratifiedSample(entries, 3, mulberry32(3)))).toEqual([1, 1, 1]);
    // N = 5: shares 1 + 1 + 1, the remainder 2 to the most frequent strata with room (the 50s stratum is full): 1, 2, 2.
    expect(byStratum(stratifiedSample(entries, 5, mulberry32(3)))).toEqual([1, 2, 2]);
    expect(stratifiedSample(entries, 100, mulberry32(3))).toHaveLength(9);
  });
});

describe("export questions", () => {
  const q = (over: Partial<TQuestion>): TQuestion => ({
    id: 1,
    qid: "q1",
    text: "what is pooling?",
    status: "accepted",
    author: "ana",
    authorId: null,
    tags: ["concept"],
    places: [
      { videoId: 1, video: "v1", start: 31, end: 40 },
      { videoId: 2, video: "v2", start: 5, end: null },
    ],
    createdAt: "",
    updatedAt: "",
    ...over,
  });
  it("writes TREC topics, JSONL, CSV and TSV", () => {
    expect(questionsText([q({}), q({ qid: "q2", text: "who\tintroduced\nkappa?" })], "trec")).toBe(
      "<top>\n<num> Number: q1\n<title> what is pooling?\n</top>\n\n<top>\n<num> Number: q2\n<title> who introduced kappa?\n</top>\n\n",
    );
    expect(JSON.parse(questionsText([q({})], "jsonl"))).toEqual({
      id: "q1",
      text: "what is pooling?",
      status: "accepted",
      author: "ana",
      tags: ["concept"],
      places: [
        { video: "v1", start: 31, end: 40 },
        { video: "v2", start: 5, end: null },
      ],
    });
    expect(questionsText([q({})], "tsv")).toBe(
      "id\ttext\tstatus\tauthor\ttags\tplaces\nq1\twhat is pooling?\taccepted\tana\tconcept\tv1@31-40;v2@5\n",
    );
    expect(questionsText([q({ text: "=cmd" })], "csv")).toBe(
      'id,text,status,author,tags,places\nq1,"\'=cmd",accepted,ana,concept,v1@31-40;v2@5\n',
    );
  });
  it("neutralises spreadsheet formulas in TSV as in CSV", () => {
    // OWASP's six formula starts (=, +, -, @, TAB, CR) get a leading ' in every text cell; a tab or line break inside a cell is a space (TSV has no quoting).
    const evil = q({
      text: '=HYPERLINK("http://evil.example","click")',
      author: "+1-2",
      tags: ["=1+1", "@SUM(1)"],
      places: [{ videoId: 1, video: "-v", start: 3, end: null }],
    });
    expect(questionsText([evil, q({ qid: "@q2", text: "\t=1+1 and\nmore" })], "tsv")).toBe(
      "id\ttext\tstatus\tauthor\ttags\tplaces\n" +
        "q1\t'=HYPERLINK(\"http://evil.example\",\"click\")\taccepted\t'+1-2\t'=1+1,@SUM(1)\t'-v@3\n" +
        "'@q2\t'=1+1 and more\taccepted\tana\tconcept\tv1@31-40;v2@5\n",
    );
  });
});

describe("history as readable changes", () => {
  const name = (id: number) => `v${id}`;
  it("reads both stored shapes (write screen and import) and lists the changed fields as text", () => {
    const imported = readSnapshot(
      {
        text: "what?",
        author: "ana",
        status: "accepted",
        places: [{ videoId: 2, startSeconds: 31, endSeconds: null }],
        tags: ["b", "a"],
      },
      name,
    );
    const edited = readSnapshot(
      { text: "what?", status: "rejected", tags: ["a"], places: [{ videoId: 2, start: 31, end: 75.4 }] },
      name,
    )!;
    expect(imported).toEqual({
      text: "what?",
      author: "ana",
      status: "accepted",
      tags: ["b", "a"],
      places: [{ video: "v2", start: 31, end: null }],
    });
    // The write screen's record has no author: the author is not compared.
    expect(historyChanges(imported, edited)).toEqual([
      { field: "status", before: "accepted", after: "rejected" },
      { field: "tags", before: "a, b", after: "a" },
      { field: "places", before: "v2 0:31", after: "v2 0:31–1:15" },
    ]);
    expect(historyChanges(null, imported!)).toEqual([
      { field: "text", before: null, after: "what?" },
      { field: "status", before: null, after: "accepted" },
      { field: "author", before: null, after: "ana" },
      { field: "tags", before: null, after: "a, b" },
      { field: "places", before: null, after: "v2 0:31" },
    ]);
    expect(readSnapshot(null, name)).toBeNull();
  });
});

describe("answer places typed on screen", () => {
  it("reads m:ss, h:mm:ss and seconds, and names a place whose end is before its start", () => {
    expect(["1:05", "0:09", "1:02:03", "65.5", " 7 ", "1:5", "1:60", "x", "-3", "1:60:00"].map(parseClock)).toEqual([
      65,
      9,
      3723,
      65.5,
      7,
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(endBeforeStart({ start: 9, end: 6 }, 1)).toBe("Answer place 1: its end (0:06) is before its start (0:09).");
    expect([endBeforeStart({ start: 6, end: 6 }, 1), endBeforeStart({ start: 6, end: null }, 2)]).toEqual([null, null]);
  });
});
