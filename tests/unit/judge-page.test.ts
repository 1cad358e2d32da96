import { describe, expect, it } from "vitest";
import { stratifiedSample } from "../../lib/judge/trial.ts";
import { observedRate } from "../../lib/judge/service.ts";
import { AppError } from "../../lib/errors.ts";
import { publicBaseUrl } from "../../lib/judge/endpoint.ts";
import { STOPPED_BY_USER } from "../../lib/judge/runner.ts";
import { action, field, say, type Said } from "../../lib/terms.ts";
import { annotatorsStart, takeLabel } from "../../lib/adjudication/start.ts";
import { mulberry32 } from "../../lib/stats/random.ts";

describe("Try: a random sample stratified by human grade", () => {
  // 40 pairs: grades 0 (20 pairs), 1 (10), 3 (2), and 8 unlabelled.
  const items = Array.from({ length: 40 }, (_, i) => ({ id: i, grade: i < 20 ? 0 : i < 30 ? 1 : i < 32 ? 3 : null }));
  it("takes one of each grade in turn, then the unlabelled", () => {
    const five = stratifiedSample(items, (x) => x.grade, 5, mulberry32(1));
    expect(five).toHaveLength(5);
    expect(new Set(five.map((x) => x.id)).size).toBe(5);
    // Three grades present: rounds of one each give 0, 1, 3, then two more from the grades left (0, 1, 3 again).
    const grades = five.map((x) => x.grade).sort();
    expect(grades.filter((g) => g === 3).length).toBeGreaterThanOrEqual(1);
    expect(grades.filter((g) => g === 0).length).toBeGreaterThanOrEqual(1);
    expect(grades.filter((g) => g === 1).length).toBeGreaterThanOrEqual(1);
    expect(grades.includes(null)).toBe(false);
  });
  it("is random: different seeds give different samples, never simply the first pairs", () => {
    const a = stratifiedSample(items, (x) => x.grade, 5, mulberry32(1)).map((x) => x.id);
    const b = stratifiedSample(items, (x) => x.grade, 5, mulberry32(2)).map((x) => x.id);
    expect(a).not.toEqual(b);
    expect(a.sort((x, y) => x - y)).not.toEqual([0, 1, 2, 3, 4]);
  });
  it("falls back to unlabelled pairs, and to a plain random sample when nothing is labelled", () => {
    const few = stratifiedSample(items.slice(30), (x) => x.grade, 5, mulberry32(3));
    expect(
      few
        .map((x) => x.grade)
        .filter((g) => g !== null)
        .sort(),
    ).toEqual([3, 3]);
    expect(stratifiedSample(items.slice(32), (x) => x.grade, 5, mulberry32(4))).toHaveLength(5);
    expect(stratifiedSample(items.slice(0, 3), (x) => x.grade, 5, mulberry32(5))).toHaveLength(3);
  });
});

describe("time left: the observed rate", () => {
  const now = 1_000_000;
  it("waits for the first answers (null: estimating…)", () => {
    expect(observedRate(2, new Date(now - 5000), now)).toBeNull();
    expect(observedRate(10, null, now)).toBeNull();
  });
  it("divides by the time since the start when that is shorter than the 10 s window", () => {
    // 8 answers 2 s after the start: 4/s (not 0.8/s over 10 s, which made a 20 s run read ~3 min).
    expect(observedRate(8, new Date(now - 2000), now)).toBe(4);
    expect(observedRate(30, new Date(now - 60_000), now)).toBe(3);
  });
});

describe("judge messages in the page's terms", () => {
  // The domain's messages as facts (lib/terms.ts), said in the page's words by the API (lib/http/route.ts).
  const inPageTerms = (said: Said) => new AppError("bad_input", said).sayTo("page");
  const thrown = (fn: () => unknown): Said => {
    try {
      fn();
    } catch (e) {
      if (e instanceof AppError) return e.said;
    }
    throw new Error("expected an AppError");
  };
  it("names the form's fields, not the CLI's options", () => {
    expect(inPageTerms(thrown(() => publicBaseUrl("x")))).toBe(
      'the “Base URL” field: expected an http(s) URL such as http://localhost:11434/v1, got "x"',
    );
    expect(inPageTerms(say`${field("only")} pool: no pooled pair is in this subset; nothing to judge`)).toBe(
      "the “Pairs” field pool: no pooled pair is in this subset; nothing to judge",
    );
    expect(inPageTerms(say`the pool is empty: import runs and build it first (${action("buildPool")})`)).toBe(
      "the pool is empty: import runs and build it first (Pool on this page)",
    );
    expect(inPageTerms(say`set ${field("apiKeyEnv", "NAME")} or ${field("noApiKey")}`)).toBe(
      "set the “API key variable” field or the “no key” choice",
    );
    expect(inPageTerms(STOPPED_BY_USER)).toBe("stopped by the user");
    expect(inPageTerms(say`${field("subset")}: "pool" is not a subset of answers`)).toBe(
      'the “Answers” field: "pool" is not a subset of answers',
    );
  });
});

describe("the adjudicator's final start", () => {
  it("is the annotators' mean within the tolerance, else none; grade-0 labels give no start", () => {
    expect(
      annotatorsStart(
        [
          { grade: 1, startSeconds: 48 },
          { grade: 3, startSeconds: 66 },
        ],
        15,
      ),
    ).toBeNull();
    expect(
      annotatorsStart(
        [
          { grade: 2, startSeconds: 30 },
          { grade: 3, startSeconds: 36 },
        ],
        15,
      ),
    ).toBe(33);
    expect(
      annotatorsStart(
        [
          { grade: 0, startSeconds: 5 },
          { grade: 2, startSeconds: 50 },
        ],
        15,
      ),
    ).toBe(50);
    expect(
      annotatorsStart(
        [
          { grade: 0, startSeconds: null },
          { grade: 0, startSeconds: null },
        ],
        15,
      ),
    ).toBeNull();
    // Exactly the tolerance apart is within (the rule's EPSILON): 10.1 and 25.1 under 15 s.
    expect(
      annotatorsStart(
        [
          { grade: 1, startSeconds: 10.1 },
          { grade: 1, startSeconds: 25.1 },
        ],
        15,
      ),
    ).toBe(17.6);
    // Taking a label takes its answer end too (none without one, and none for grade 0).
    expect(takeLabel({ grade: 0, startSeconds: 12 })).toEqual({ grade: 0, start: null, end: null });
    expect(takeLabel({ grade: 2, startSeconds: 12 })).toEqual({ grade: 2, start: 12, end: null });
    expect(takeLabel({ grade: 0, startSeconds: 12, endSeconds: 20 })).toEqual({ grade: 0, start: null, end: null });
    expect(takeLabel({ grade: 3, startSeconds: 12, endSeconds: 20 })).toEqual({ grade: 3, start: 12, end: 20 });
  });
});
