import { describe, expect, it } from "vitest";
import { renderAnswerTemplate, validateAnswerTemplate, type TAnswerView } from "../../lib/judge/answers-template.ts";
import { ZRunSettings } from "../../lib/judge/create.ts";
import { scanPlaceholders, TEMPLATE_MAX_CHARS } from "../../lib/judge/placeholders.ts";
import { renderTemplate, usedPlaceholders, validateTemplate, type TPairView } from "../../lib/judge/template.ts";

/**
 * Linear-time templates: the placeholder regex `/\{\{\s*([^{}]*?)\s*\}\}/` backtracked cubically on `{{`
 * followed by a long run of spaces (3,000 spaces: 14.5 s of preview, the server blocked). The hand
 * scanner (lib/judge/placeholders.ts) finds the same placeholders in linear time.
 */
const view: TPairView = {
  question: "Q?",
  chunk: "C.",
  before: "",
  after: "",
  video_title: "T",
  start: "0:01",
  end: "0:02",
};
const answerView: TAnswerView = { question: "Q?", context: "[1] ctx", claims: "1. c", answer: "A", n_claims: "1" };
const elapsed = (f: () => unknown) => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};

describe("template placeholders in linear time", () => {
  const attack = `{{question}} {{chunk}}\n{{${" ".repeat(3000)}x`;

  it("the tester's 3,000-space template validates, renders and lists its placeholders in under 100 ms", () => {
    const ms = elapsed(() => {
      validateTemplate(attack);
      expect(renderTemplate(attack, view)).toBe(`Q? C.\n{{${" ".repeat(3000)}x`);
      expect([...usedPlaceholders(attack)].sort()).toEqual(["chunk", "question"]);
    });
    expect(ms).toBeLessThan(100);
  });

  it("the same for answer templates", () => {
    const t = `{{question}} {{context}} {{claims}}\n{{${" ".repeat(3000)}x`;
    const ms = elapsed(() => {
      validateAnswerTemplate(t);
      expect(renderAnswerTemplate(t, answerView)).toBe(`Q? [1] ctx 1. c\n{{${" ".repeat(3000)}x`);
    });
    expect(ms).toBeLessThan(100);
  });

  it("1 MB of spaces (and of `{{` runs, unclosed names, lone braces) parses in well under a second", () => {
    const inputs = [
      `{{${" ".repeat(TEMPLATE_MAX_CHARS)}x`,
      "{{".repeat(TEMPLATE_MAX_CHARS / 2),
      `{{ a${" ".repeat(TEMPLATE_MAX_CHARS)}}`,
      `{{ a }${" }".repeat(TEMPLATE_MAX_CHARS / 2)}`,
      "{{question}}".repeat(TEMPLATE_MAX_CHARS / 12),
    ];
    for (const t of inputs) expect(elapsed(() => scanPlaceholders(t))).toBeLessThan(500);
  });

  it("finds what the old regex found, with its names, on every short template of braces, spaces and letters", () => {
    const old = /\{\{\s*([^{}]*?)\s*\}\}/g;
    const alphabet = ["{", "}", " ", "a", "\n"];
    let checked = 0;
    const visit = (prefix: string) => {
      const expected = [...prefix.matchAll(old)].map((m) => ({
        name: m[1],
        start: m.index,
        end: m.index + m[0].length,
      }));
      expect(
        scanPlaceholders(prefix).map(({ name, start, end }) => ({ name, start, end })),
        JSON.stringify(prefix),
      ).toEqual(expected);
      checked++;
      if (prefix.length < 8) for (const c of alphabet) visit(prefix + c);
    };
    visit("");
    expect(checked).toBeGreaterThan(400_000);
  });

  it("names the line of an unknown placeholder, also after a placeholder spanning lines", () => {
    expect(() => validateTemplate("{{question}}\n{{ \nchunk }}\n\n{{chunks}}", "my.txt")).toThrow(
      /^my\.txt:5: unknown placeholder \{\{chunks\}\}/,
    );
  });
});

describe("template size", () => {
  const base = { judge: "j", model: "m", baseUrl: "http://127.0.0.1:1" };
  it("a run or a try takes a template of 1 MB and refuses one character more, saying so", () => {
    expect(ZRunSettings.safeParse({ ...base, template: "x".repeat(TEMPLATE_MAX_CHARS) }).success).toBe(true);
    const r = ZRunSettings.safeParse({ ...base, template: "x".repeat(TEMPLATE_MAX_CHARS + 1) });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["template", "the template is too long: a run or a try takes at most 1,000,000 characters (1 MB)"],
    ]);
  });
});
