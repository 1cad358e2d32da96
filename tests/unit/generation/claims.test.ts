import { describe, expect, it } from "vitest";
import { sentenceSegments, splitClaims } from "../../../lib/answers/claims.ts";

/** The default claim split (lib/answers/claims.ts) on hand-made answers; each expected split written by hand. */
const texts = (t: string) => splitClaims(t).map((c) => c.text);

describe("splitClaims: sentences", () => {
  it("splits plain sentences and keeps offsets into the original text", () => {
    const t = "  The talk is about RAG.  It has two parts!\tDoes it work? ";
    const claims = splitClaims(t);
    expect(claims).toEqual([
      { text: "The talk is about RAG.", startChar: 2, endChar: 24 },
      { text: "It has two parts!", startChar: 26, endChar: 43 },
      { text: "Does it work?", startChar: 44, endChar: 57 },
    ]);
    for (const c of claims) expect(t.slice(c.startChar, c.endChar)).toBe(c.text);
  });

  it("drops empty and white-space pieces; an empty or blank answer has no claims", () => {
    expect(splitClaims("")).toEqual([]);
    expect(splitClaims(" \n\t ")).toEqual([]);
    expect(texts("One.\n\n\nTwo.")).toEqual(["One.", "Two."]);
  });

  it("ends a sentence at a line break", () => {
    expect(texts("First line without a stop\nSecond line.")).toEqual(["First line without a stop", "Second line."]);
  });
});

describe("splitClaims: abbreviations", () => {
  it("keeps titles with the name that follows", () => {
    expect(texts("Dr. Smith said so. He left.")).toEqual(["Dr. Smith said so.", "He left."]);
    expect(texts("Mr. and Mrs. Smith arrived. Ok.")).toEqual(["Mr. and Mrs. Smith arrived.", "Ok."]);
    expect(texts("Prof. Jones and Sen. Brown spoke. Then they left.")).toEqual([
      "Prof. Jones and Sen. Brown spoke.",
      "Then they left.",
    ]);
  });

  it("keeps e.g., i.e., cf. and vs. inside the sentence, before lower or upper case", () => {
    expect(texts("Use a tool, e.g. Python. It works.")).toEqual(["Use a tool, e.g. Python.", "It works."]);
    expect(texts("This is e.g. a test. And i.e. another.")).toEqual(["This is e.g. a test.", "And i.e. another."]);
    expect(texts("One library (e.g. NumPy) is used. Fine.")).toEqual(["One library (e.g. NumPy) is used.", "Fine."]);
    expect(texts("Team A vs. the rest. Done.")).toEqual(["Team A vs. the rest.", "Done."]);
  });

  it("joins U.S., etc., a.m. and et al. to a following lower-case word, and ends the sentence before a capital", () => {
    expect(texts("The U.S. economy grew. It was fast.")).toEqual(["The U.S. economy grew.", "It was fast."]);
    expect(texts("He was born in the U.S. He moved.")).toEqual(["He was born in the U.S.", "He moved."]);
    expect(texts("Apples, pears, etc. are fruit. The end.")).toEqual(["Apples, pears, etc. are fruit.", "The end."]);
    expect(texts("It sells apples, pears, etc. The shop opens early.")).toEqual([
      "It sells apples, pears, etc.",
      "The shop opens early.",
    ]);
    expect(texts("Smith et al. showed this. Ok.")).toEqual(["Smith et al. showed this.", "Ok."]);
    expect(texts("It opens at 9 a.m. sharp. Bring a pass.")).toEqual(["It opens at 9 a.m. sharp.", "Bring a pass."]);
  });

  it("keeps abbreviations that take a number with it", () => {
    expect(texts("See Fig. 3 for details. Ok.")).toEqual(["See Fig. 3 for details.", "Ok."]);
    expect(texts("See p. 5. Ok.")).toEqual(["See p. 5.", "Ok."]);
    expect(texts("Item No. 12 is late. Fine.")).toEqual(["Item No. 12 is late.", "Fine."]);
  });

  it("keeps initials with the name, but not a capital letter after a lower-case word", () => {
    expect(texts("J. R. R. Tolkien wrote it. Ok.")).toEqual(["J. R. R. Tolkien wrote it.", "Ok."]);
    expect(texts("John F. Kennedy spoke. Then he left.")).toEqual(["John F. Kennedy spoke.", "Then he left."]);
    expect(texts("He chose option B. Then he left.")).toEqual(["He chose option B.", "Then he left."]);
    // The cost of the rule: a capital letter after a capitalised word is read as an initial, so
    // "Plan B." does not end the claim (a coarse claim is a smaller harm than a name cut in two).
    expect(texts("We took Plan B. Then it rained.")).toEqual(["We took Plan B. Then it rained."]);
  });

  it("keeps a list marker with its item", () => {
    expect(texts("1. First item. 2. Second item.")).toEqual(["1. First item.", "2. Second item."]);
    expect(texts("Steps:\n1. Cut.\n2. Paste.")).toEqual(["Steps:", "1. Cut.", "2. Paste."]);
  });
});

describe("splitClaims: numbers, timestamps, versions, ellipses", () => {
  it("does not split decimal numbers or amounts", () => {
    expect(texts("It was 3.5 percent. Then 0.25 more.")).toEqual(["It was 3.5 percent.", "Then 0.25 more."]);
    expect(texts("It costs $3.50. Cheap.")).toEqual(["It costs $3.50.", "Cheap."]);
  });

  it("does not split timestamps, and ends a sentence after one", () => {
    expect(texts("At 1:05 he speaks. Meet at 2:30. Then go.")).toEqual([
      "At 1:05 he speaks.",
      "Meet at 2:30.",
      "Then go.",
    ]);
    expect(texts("At 01:02:03 it starts. End.")).toEqual(["At 01:02:03 it starts.", "End."]);
    expect(texts("The demo is at 12:45.The next one is later.")).toEqual([
      "The demo is at 12:45.",
      "The next one is later.",
    ]);
    expect(texts("Skip to 2:30. the part on costs.")).toEqual(["Skip to 2:30. the part on costs."]);
  });

  it("does not split version numbers", () => {
    expect(texts("Version 1.2.3 is out. Install v2.0 now.")).toEqual(["Version 1.2.3 is out.", "Install v2.0 now."]);
    expect(texts("Python 3.12.1 was used. It ran.")).toEqual(["Python 3.12.1 was used.", "It ran."]);
  });

  it("continues after an ellipsis before lower case and breaks before a capital", () => {
    expect(texts("Wait... what? Yes! Okay.")).toEqual(["Wait... what?", "Yes!", "Okay."]);
    expect(texts("He paused… then spoke. End.")).toEqual(["He paused… then spoke.", "End."]);
    expect(texts("He hesitated... Then he spoke.")).toEqual(["He hesitated...", "Then he spoke."]);
  });

  it("attaches a piece without letters or digits to the sentence before", () => {
    const t = "He said it. — ";
    expect(splitClaims(t)).toEqual([{ text: "He said it. —", startChar: 0, endChar: 13 }]);
    expect(texts('He said "Hi." Then left.')).toEqual(['He said "Hi."', "Then left."]);
  });
});

describe("splitClaims: linear time", () => {
  const whole = new Intl.Segmenter("en", { granularity: "sentence" });
  const FRAGMENTS = [
    "Mr. Smith",
    " went.",
    " Dr.",
    " J. R. R. Tolkien",
    " wrote",
    " e.g. this",
    " (e.g. that)",
    " Fig. 3",
    " shows",
    " it.",
    "\n",
    "\n\n",
    " U.S. forces",
    " etc. and",
    " Etc.",
    " 1.",
    " a)",
    " —",
    ' "Hi."',
    " It ran",
    " 3.5 s",
    " at 1:05.",
    " Wait...",
    " what?",
    " Yes!",
    " …",
    " then",
    " Then",
    " no. 5",
    " vs. B",
    " Inc. is",
    " A.",
    " b.",
    "  ",
    "\t",
    " Über.",
    " élan.",
    " Ö. Test",
  ];

  it("reads the text a window at a time and finds the sentences the segmenter finds in the whole text", () => {
    // A fixed linear congruential sequence: random texts of up to ~14,000 characters, many windows each.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let n = 0; n < 60; n++) {
      let t = "";
      const pieces = 20 + Math.floor(next() * 1500);
      for (let i = 0; i < pieces; i++) t += FRAGMENTS[Math.floor(next() * FRAGMENTS.length)];
      expect([...sentenceSegments(t)].map((s) => s.index)).toEqual([...whole.segment(t)].map((s) => s.index));
    }
  });

  const best = (text: string) => {
    let ms = Infinity;
    for (let r = 0; r < 3; r++) {
      const t0 = performance.now();
      splitClaims(text);
      ms = Math.min(ms, performance.now() - t0);
    }
    return ms;
  };

  it("splits 64 KB of 'Mr. ' in under 100 ms and 1 MB in time proportional to it", () => {
    const small = "Mr. ".repeat(16 * 1024);
    expect(splitClaims(small)).toEqual([{ text: small.trimEnd(), startChar: 0, endChar: small.length - 1 }]);
    const t64 = best(small);
    expect(t64).toBeLessThan(100);
    // 16 times the text: at most 4 times the cost per character (quadratic would be 16 times).
    const t1m = best("Mr. ".repeat(256 * 1024));
    expect(t1m / 16).toBeLessThan(4 * Math.max(t64, 5));
  });
});
