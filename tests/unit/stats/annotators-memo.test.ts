import { describe, expect, it, vi } from "vitest";
import type { LabelPair } from "../../../lib/stats/agreement/align.ts";
import { seededRng } from "../../../lib/stats/random.ts";
import type { TAnnotatedItem, TQualityMemo } from "../../../lib/stats/annotators.ts";

/** 120 pairs over 12 questions, grades agreeing 70% of the time. */
function pairs(seed: number): LabelPair[] {
  const rng = seededRng(seed);
  return Array.from({ length: 120 }, (_, i) => {
    const reference = rng.int(4);
    return { qid: `q${i % 12}`, docid: `d${i}`, reference, other: rng.next() < 0.7 ? reference : rng.int(4) };
  });
}

describe("the annotator cells' memo", () => {
  it("gives what a fresh computation gives, before and after one grade changes", async () => {
    const opts = { resamples: 300 };
    const before = pairs(5);
    const after = before.map((p, i) => (i === 17 ? { ...p, other: (p.other + 2) % 4 } : p));
    const warm = await import("../../../lib/stats/annotators.ts");
    const a1 = warm.agreementCell(before, opts);
    const l1 = warm.leniencyWithInterval(before, opts);
    // Asked again: the same object, not recomputed.
    expect(
      warm.agreementCell(
        before.map((p) => ({ ...p })),
        opts,
      ),
    ).toBe(a1);
    const a2 = warm.agreementCell(after, opts);
    const l2 = warm.leniencyWithInterval(after, opts);
    expect(a2).not.toEqual(a1);
    expect(l2).not.toEqual(l1);
    // Other options are other entries.
    expect(warm.agreementCell(after, { resamples: 301 })).not.toEqual(a2);
    // A module loaded afresh (empty memo) computes the same figures.
    vi.resetModules();
    const fresh = await import("../../../lib/stats/annotators.ts");
    expect(fresh).not.toBe(warm);
    expect(fresh.agreementCell(after, opts)).toEqual(a2);
    expect(fresh.leniencyWithInterval(after, opts)).toEqual(l2);
    expect(fresh.agreementCell(before, opts)).toEqual(a1);
  });
});

/**
 * 300 items over 15 questions, each graded by two of 8 annotators (names in an order their
 * indices do not share), with adjudications, starts and times; grades agreeing about 70% of the time.
 */
function annotatedItems(seed: number): TAnnotatedItem[] {
  const rng = seededRng(seed);
  const names = ["hh", "bb", "gg", "aa", "ff", "cc", "ee", "dd"];
  return Array.from({ length: 300 }, (_, i) => {
    const truth = rng.int(4);
    const a = rng.int(8);
    const b = (a + 1 + rng.int(7)) % 8;
    const grades = [a, b].map(() => (rng.next() < 0.7 ? truth : rng.int(4)));
    const judgements = [a, b].map((x, k) => ({
      annotator: names[x],
      grade: grades[k],
      startSeconds: grades[k] > 0 ? 10 + k : null,
      timeSpentMs: 1000 + rng.int(9000),
    }));
    const adjudication = grades[0] !== grades[1] && rng.next() < 0.8 ? { grade: truth, startSeconds: null } : null;
    const final = adjudication ?? (grades[0] === grades[1] ? { grade: grades[0], startSeconds: null } : null);
    return { qid: `q${i % 15}`, docid: `d${i}`, judgements, adjudication, final };
  });
}

describe("the per-annotator memo of annotatorQuality", () => {
  it("recomputes only the annotators of a changed item, and every row is a fresh computation's, to the bit", async () => {
    const opts = { resamples: 200, fastMs: 5000 };
    const items = annotatedItems(7);
    const judge = items.map((it, i) => ({ qid: it.qid, docid: it.docid, grade: i % 4 }));
    const warm = await import("../../../lib/stats/annotators.ts");
    for (const withJudge of [false, true]) {
      const o = withJudge ? { ...opts, judge } : opts;
      const memo: TQualityMemo = new Map();
      const first = warm.annotatorQuality(items, o, memo);
      expect(first).toHaveLength(8);
      // The same items again: every row is the one kept.
      const again = warm.annotatorQuality([...items], o, memo);
      again.forEach((row, i) => expect(row).toBe(first[i]));
      // One grade changes on an item of two annotators after the first in name order: only their rows
      // are computed again, the others (whose cells with them are taken from the other side) kept.
      const at = items.findIndex((it) => it.judgements.every((j) => j.annotator > "bb"));
      const changed = items.map((it, i) =>
        i === at
          ? { ...it, judgements: it.judgements.map((j, k) => (k === 0 ? { ...j, grade: (j.grade + 1) % 4 } : j)) }
          : it,
      );
      const touched = new Set(items[at].judgements.map((j) => j.annotator));
      const after = warm.annotatorQuality(changed, o, memo);
      after.forEach((row, i) => {
        if (touched.has(row.annotator)) expect(row).not.toBe(first[i]);
        else expect(row).toBe(first[i]);
      });
      // Other options: computed again.
      expect(warm.annotatorQuality(changed, { ...o, fastMs: 1 }, memo)[0]).not.toBe(after[0]);
      // A module loaded afresh (no memo, no cells kept) computes the same figures, to the bit.
      vi.resetModules();
      const fresh = await import("../../../lib/stats/annotators.ts");
      expect(JSON.stringify(fresh.annotatorQuality(changed, o))).toBe(JSON.stringify(after));
      expect(JSON.stringify(fresh.annotatorQuality(items, o))).toBe(JSON.stringify(first));
    }
  });
});
