/**
 * Reading a grade out of a model's answer. The grade comes from the FINAL ANSWER only:
 *
 * 1. Reasoning is not the answer. A separate reasoning field of the message (`reasoning_content`
 *    from vLLM, llama.cpp, LiteLLM and DeepSeek; `reasoning` from Ollama and OpenRouter) is never
 *    read for the grade (endpoint.ts stores it in front of the answer as a `<think>` block, so the
 *    stored text is complete and `judge reparse` reads it the same way). In the text, reasoning
 *    blocks `<think>…</think>`, `<thinking>…</thinking>` and `<reasoning>…</reasoning>` are removed,
 *    also one left open because the token limit cut it (everything after the opening tag), and
 *    everything before a lone closing tag (DeepSeek-R1 and Qwen3 chat templates put the opening
 *    `<think>` in the prompt, so the answer starts inside the block). gpt-oss's harmony format
 *    served raw keeps only the `final` channel's message; analysis without a final is no answer.
 * 2. In what is left, the LAST JSON object carrying a score (`score`, `final_score`, `grade`,
 *    `relevance`, UMBRELA's `O`; also one level down) wins, then the last `##final score: N`
 *    line, then the last `final score: N` / `score: N` / `grade: N`, then an answer that is just
 *    the digit. Scores written as words (zero, one, two, three) are read in those places.
 * 3. A score outside 0–3, or not a whole number, is a failure (never clipped or rounded).
 * 4. `finish_reason: "length"` (cut at the token limit) is a failure ("truncated", raw text kept)
 *    unless a complete final answer is there: a complete JSON object with a score, or a
 *    `##final score: N` line. The loose forms (a bare `score: 2`, a lone digit) are not trusted in
 *    a cut answer: the next tokens might have changed them.
 * 5. A refusal (the message's `refusal` field, or a text that says it cannot help and has no
 *    score) and an empty answer are failures, never a grade.
 *
 * Failures carry a `reason` and an `error` for the task's record; the caller keeps the raw text.
 */
import { medianGrade } from "../stats/jury.ts";
export type TFailureReason = "empty" | "refusal" | "truncated" | "no_score" | "out_of_range";
export type TParsed = { grade: number } | { grade: null; reason: TFailureReason; error: string };

/** What one answer of a chat-completions server gives the parser (endpoint.ts `readCompletion`). */
export type TModelAnswer = { content: string | null; finishReason?: string | null; refusal?: string | null };

/** Prefixes of the failures stored in JudgeTask.error that `judge reparse` needs to know again (the raw text alone cannot tell). */
export const TRUNCATED_ERROR = "truncated:";
export const REFUSAL_FIELD_ERROR = "the model refused (refusal field):";

const KEYS = ["score", "final_score", "finalScore", "grade", "relevance", "relevance_score", "O"];
const WORDS: Record<string, number> = { zero: 0, one: 1, two: 2, three: 3 };
const NUMBER = String.raw`-?\d+(?:\.\d+)?|zero|one|two|three|four|five`;

function numberOf(v: unknown): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v !== "string") return undefined;
  const s = v.trim().toLowerCase();
  if (/^-?\d+(\.\d+)?$/.test(s)) return Number(s);
  if (s in WORDS) return WORDS[s];
  if (s === "four" || s === "five") return s === "four" ? 4 : 5;
  return undefined;
}

function gradeOf(v: unknown): TParsed | undefined {
  const n = numberOf(v);
  if (n === undefined) return undefined;
  if (!Number.isInteger(n) || n < 0 || n > 3)
    return { grade: null, reason: "out_of_range", error: `score ${n} is not a whole number from 0 to 3` };
  return { grade: n };
}

/** The score of a parsed JSON value: its own score key, else one of its values' (one level down). */
function scoreIn(obj: unknown, depth = 0): TParsed | undefined {
  if (typeof obj !== "object" || obj === null || Array.isArray(obj)) return undefined;
  const rec = obj as Record<string, unknown>;
  for (const k of KEYS)
    if (k in rec)
      return (
        gradeOf(rec[k]) ?? {
          grade: null,
          reason: "no_score",
          error: `"${k}" is ${JSON.stringify(rec[k])}, not a number from 0 to 3`,
        }
      );
  if (depth === 0)
    for (const v of Object.values(rec)) {
      const g = scoreIn(v, 1);
      if (g) return g;
    }
  return undefined;
}

/** Every balanced `{…}` in the text that parses as JSON, outermost only, in order. */
export function jsonObjects(text: string): unknown[] {
  const found: unknown[] = [];
  let i = text.indexOf("{");
  while (i >= 0) {
    let depth = 0;
    let inString = false;
    let end = -1;
    for (let j = i; j < text.length; j++) {
      const c = text[j];
      if (inString) {
        if (c === "\\") j++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === "{") depth++;
      else if (c === "}" && --depth === 0) {
        end = j;
        break;
      }
    }
    if (end < 0) {
      i = text.indexOf("{", i + 1);
      continue;
    }
    try {
      found.push(JSON.parse(text.slice(i, end + 1)));
      i = text.indexOf("{", end + 1);
    } catch {
      i = text.indexOf("{", i + 1);
    }
  }
  return found;
}

const REASONING_TAGS = ["think", "thinking", "reasoning"];

/**
 * The final answer of a text: reasoning blocks removed (closed, left open by the token limit, or
 * opened in the prompt), harmony channels reduced to the final one; empty when there is none.
 */
export function finalAnswer(text: string): string {
  let t = text;
  // gpt-oss (harmony) served without a reasoning parser: keep the last final-channel message.
  if (/<\|channel\|>/.test(t)) {
    const finals = [
      ...t.matchAll(
        /<\|channel\|>\s*final\s*(?:<\|constrain\|>\s*\w+\s*)?<\|message\|>([\s\S]*?)(?:<\|(?:return|end|call)\|>|$)/g,
      ),
    ];
    t = finals.length ? finals[finals.length - 1][1] : "";
  }
  for (const tag of REASONING_TAGS) {
    t = t.replace(new RegExp(`<${tag}\\b[^>]*>[\\s\\S]*?</${tag}\\s*>`, "gi"), " ");
    // A closing tag without its opening: the block began in the prompt (chat template).
    const close = new RegExp(`</${tag}\\s*>`, "gi");
    let lastClose = -1;
    for (const m of t.matchAll(close)) lastClose = (m.index ?? 0) + m[0].length;
    if (lastClose >= 0) t = t.slice(lastClose);
    // An opening tag never closed: cut by the token limit; nothing after it is an answer.
    const open = new RegExp(`<${tag}\\b[^>]*>`, "i").exec(t);
    if (open) t = t.slice(0, open.index);
  }
  return t.trim();
}

const FINAL_MARK = new RegExp(String.raw`##\s*final\s+score\s*[:=]?\s*\**\s*(${NUMBER})\b`, "gi");
const LOOSE = [
  new RegExp(String.raw`final\s+(?:score|grade|relevance)\s*(?:is)?\s*[:=]?\s*\**\s*(${NUMBER})\b`, "gi"),
  new RegExp(String.raw`"?\b(?:score|grade|relevance)\b"?\s*[:=]\s*\**\s*"?(${NUMBER})\b`, "gi"),
];

const REFUSAL =
  /\b(?:I\s*(?:'m|am)\s+(?:sorry|unable|not able)|I\s+(?:can(?:no|')t|cannot|won't|will not)\s+(?:help|assist|provide|comply|do\s+that|rate|evaluate|judge|grade|answer)|as an ai(?: language model)?,? I)\b/i;

function lastMatch(text: string, re: RegExp): string | undefined {
  const all = [...text.matchAll(re)];
  return all.length ? all[all.length - 1][1] : undefined;
}

/** The grade of an answer's final text (no finish reason considered); `strict`: only complete final answers (JSON, ##final score). */
function gradeIn(text: string, strict: boolean): TParsed | undefined {
  const objects = jsonObjects(text);
  for (let i = objects.length - 1; i >= 0; i--) {
    const g = scoreIn(objects[i]);
    if (g) return g;
  }
  const mark = lastMatch(text, FINAL_MARK);
  if (mark !== undefined)
    return (
      gradeOf(mark) ?? {
        grade: null,
        reason: "no_score",
        error: `"##final score: ${mark}" is not a number from 0 to 3`,
      }
    );
  if (strict) return undefined;
  for (const re of LOOSE) {
    const m = lastMatch(text, re);
    if (m !== undefined) return gradeOf(m);
  }
  const bare = /^\**\s*"?(-?\d+(?:\.\d+)?|zero|one|two|three)"?\s*\**\.?$/i.exec(text);
  if (bare) return gradeOf(bare[1]);
  return undefined;
}

const clip = (s: string, n = 120) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** Why an answer gave no value, as both readers (this file's grade, answers-parse.ts's verdict) say it. */
export type TAnswerFailure = { reason: TFailureReason; error: string };

/**
 * An answer's final text (`finalAnswer`) and whether it was cut at the token limit (finish reason
 * "length"); or, without a final text, the failure: the refusal field, a cut before any final
 * answer, reasoning only, nothing at all.
 */
export function finalTextOf(a: TModelAnswer): { text: string; truncated: boolean } | TAnswerFailure {
  const content = a.content ?? "";
  const truncated = a.finishReason === "length";
  const text = finalAnswer(content);
  if (text) return { text, truncated };
  if (a.refusal && a.refusal.trim())
    return { reason: "refusal", error: `${REFUSAL_FIELD_ERROR} ${clip(a.refusal.trim())}` };
  if (truncated)
    return {
      reason: "truncated",
      error: `${TRUNCATED_ERROR} the answer was cut at the token limit (finish_reason "length") before any final answer; raise the completion tokens (max tokens)`,
    };
  return { reason: "empty", error: content.trim() ? "no final answer: the answer is reasoning only" : "empty answer" };
}

/**
 * The failure of a final text in which no value was found: cut at the token limit before
 * `complete` (what a whole answer holds), a refusal (`refusal` matches the text), else `none`.
 */
export function noValueIn(
  text: string,
  truncated: boolean,
  say: { complete: string; refusal: RegExp; none: string },
): TAnswerFailure {
  if (truncated)
    return {
      reason: "truncated",
      error: `${TRUNCATED_ERROR} the answer was cut at the token limit (finish_reason "length") before ${say.complete}; raise the completion tokens (max tokens)`,
    };
  if (say.refusal.test(text)) return { reason: "refusal", error: `the model refused: ${clip(text)}` };
  return { reason: "no_score", error: say.none };
}

/** The grade of one answer as the server sent it (see the file comment for the rules). */
export function parseAnswer(a: TModelAnswer): TParsed {
  const f = finalTextOf(a);
  if ("reason" in f) return { grade: null, ...f };
  return (
    gradeIn(f.text, f.truncated) ?? {
      grade: null,
      ...noValueIn(f.text, f.truncated, {
        complete: "a complete final answer",
        refusal: REFUSAL,
        none: 'no score found in the answer (expected JSON with "score", or a line "##final score: N")',
      }),
    }
  );
}

/** The grade of a plain answer text (finish reason "stop", no refusal field). */
export function parseGrade(raw: string): TParsed {
  return parseAnswer({ content: raw });
}

/** The error stored for a failed parse (JudgeTask.error); `storedAnswer` reads its prefix back. */
export function storedError(p: { reason: TFailureReason; error: string }): string {
  return p.reason === "truncated" || p.reason === "refusal" ? p.error : `unparseable answer: ${p.error}`;
}

/**
 * What the parser saw for a task as stored (JudgeTask.raw and .error), for `judge reparse`: the
 * finish reason and the refusal field are not kept apart, so they are recovered from the stored
 * error the parser wrote (TRUNCATED_ERROR, REFUSAL_FIELD_ERROR).
 */
export function storedAnswer(raw: string, error: string | null): TModelAnswer {
  const e = error ?? "";
  if (e.startsWith(REFUSAL_FIELD_ERROR)) return { content: null, refusal: raw };
  return { content: raw, finishReason: e.startsWith(TRUNCATED_ERROR) ? "length" : "stop" };
}

/**
 * The run's label from its samples: their median, rounded down when it falls between two grades
 * (`medianGrade`, the same rule as a jury's median); null without a sample.
 */
export const samplesGrade = (grades: readonly number[]): number | null =>
  grades.length === 0 ? null : medianGrade(grades);
