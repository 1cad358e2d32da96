import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { looksLikeInjection } from "../../lib/judge/injection.ts";

/**
 * The injection flag's figures on a corpus of paraphrases in eight languages
 * (tests/fixtures/injection/corpus.json): recall on injections, false-positive rate on benign
 * transcript sentences that mention scores, systems, instructions, ignoring or assistants. The
 * corpus has two parts: one the multilingual rules were written with (in-sample) and one written
 * after them and never used to change them (held-out, the honest estimate). The floors are the
 * measured figures rounded to leave a little room; README.md (LLM judge) states the figures.
 * Before the fix the detector found 13 of 79 and 3 of 30.
 */
type TItem = { lang: string; text: string };
const corpus = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "fixtures", "injection", "corpus.json"), "utf8"),
) as { injections: TItem[]; benign: TItem[]; heldout_injections: TItem[]; heldout_benign: TItem[] };

function figures(injections: TItem[], benign: TItem[]) {
  const missed = injections.filter((x) => !looksLikeInjection(x.text));
  const flagged = benign.filter((x) => looksLikeInjection(x.text));
  return {
    recall: 1 - missed.length / injections.length,
    fpr: flagged.length / benign.length,
    missed,
    flagged,
    n: injections.length,
    m: benign.length,
  };
}
const langs = (items: TItem[]) => new Set(items.map((x) => x.lang));
const report = (name: string, f: ReturnType<typeof figures>) =>
  `${name}: recall ${(f.recall * 100).toFixed(1)}% (${f.n - f.missed.length}/${f.n}), false positives ${(f.fpr * 100).toFixed(1)}% (${f.flagged.length}/${f.m})\n${f.missed.map((x) => `  missed [${x.lang}] ${x.text}`).join("\n")}\n${f.flagged.map((x) => `  flagged [${x.lang}] ${x.text}`).join("\n")}`;

describe("the injection flag on a multilingual corpus", () => {
  it("the corpus: ≥ 60 injections in ≥ 5 languages, ≥ 60 benign sentences, and a held-out part", () => {
    expect(corpus.injections.length).toBeGreaterThanOrEqual(60);
    expect(corpus.benign.length).toBeGreaterThanOrEqual(60);
    expect(langs(corpus.injections).size).toBeGreaterThanOrEqual(5);
    expect(langs(corpus.benign).size).toBeGreaterThanOrEqual(5);
    expect(corpus.heldout_injections.length).toBeGreaterThanOrEqual(30);
    expect(corpus.heldout_benign.length).toBeGreaterThanOrEqual(30);
  });

  it("in-sample: recall ≥ 90%, false positives ≤ 2%", () => {
    const f = figures(corpus.injections, corpus.benign);
    console.log(report("in-sample", f));
    expect(f.recall).toBeGreaterThanOrEqual(0.9);
    expect(f.fpr).toBeLessThanOrEqual(0.02);
  });

  it("held-out: recall ≥ 70%, false positives ≤ 5%", () => {
    const f = figures(corpus.heldout_injections, corpus.heldout_benign);
    console.log(report("held-out", f));
    expect(f.recall).toBeGreaterThanOrEqual(0.7);
    expect(f.fpr).toBeLessThanOrEqual(0.05);
  });
});
