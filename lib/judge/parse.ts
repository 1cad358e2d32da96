/**
 * Reading a grade out of a model's answer. Structured output (a JSON object with `score`) is
 * asked for where the endpoint supports it; plain-text answers are read tolerantly: a JSON object
 * anywhere in the text (also in a code fence), UMBRELA's `##final score: N`, a `score: N` /
 * `grade: N` line, or an answer that is just the digit. Anything else is not a grade: the caller
 * records it as failed with its raw text. A number outside 0–3 is a failure too, never clipped.
 */
export type TParsed = { grade: number } | { grade: null; error: string };

const KEYS = ["score", "final_score", "finalScore", "grade", "relevance", "O"];

function gradeOf(v: unknown): TParsed | undefined {
  const n = typeof v === "number" ? v : typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : undefined;
  if (n === undefined) return undefined;
  if (!Number.isInteger(n) || n < 0 || n > 3) return { grade: null, error: `score ${n} is not a whole number from 0 to 3` };
  return { grade: n };
}

function fromJson(text: string): TParsed | undefined {
  const candidates: string[] = [text.trim()];
  for (const m of text.matchAll(/```(?:json)?\s*([\s\S]*?)```/g)) candidates.push(m[1].trim());
  const first = text.indexOf("{");
  const last = text.lastIndexOf("}");
  if (first >= 0 && last > first) candidates.push(text.slice(first, last + 1));
  for (const c of candidates) {
    if (!c.startsWith("{")) continue;
    let obj: unknown;
    try {
      obj = JSON.parse(c);
    } catch {
      continue;
    }
    if (typeof obj !== "object" || obj === null) continue;
    for (const k of KEYS) {
      if (k in obj) {
        const g = gradeOf((obj as Record<string, unknown>)[k]);
        if (g) return g;
      }
    }
  }
  return undefined;
}

const LINE_PATTERNS = [/##\s*final\s+score\s*[:=]\s*(-?\d+(?:\.\d+)?)/i, /final\s+(?:score|grade)\s*(?:is)?\s*[:=]?\s*(-?\d+(?:\.\d+)?)/i, /\b(?:score|grade)\s*[:=]\s*(-?\d+(?:\.\d+)?)/i];

export function parseGrade(raw: string): TParsed {
  const text = raw.trim();
  if (!text) return { grade: null, error: "empty answer" };
  const json = fromJson(text);
  if (json) return json;
  for (const re of LINE_PATTERNS) {
    const matches = [...text.matchAll(new RegExp(re.source, "gi"))];
    if (matches.length) return gradeOf(matches[matches.length - 1][1]) ?? { grade: null, error: "no score" };
  }
  const bare = /^\**\s*(-?\d+)\s*\**\.?$/.exec(text);
  if (bare) return gradeOf(bare[1]) ?? { grade: null, error: "no score" };
  return { grade: null, error: "no score found in the answer (expected JSON with \"score\", or a line \"##final score: N\")" };
}

/** The run's label from its samples: the median, rounded down when it falls between two grades. */
export function medianGrade(grades: readonly number[]): number | null {
  if (grades.length === 0) return null;
  const g = [...grades].sort((a, b) => a - b);
  const mid = g.length >> 1;
  return g.length % 2 === 1 ? g[mid] : Math.floor((g[mid - 1] + g[mid]) / 2);
}
