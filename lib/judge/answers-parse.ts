/**
 * Reading an answer run's verdict out of a model's answer, strictly, with the chunk parser's rules
 * for what the final answer is (parse.ts `finalAnswer`: reasoning blocks and fields are never
 * read; a cut, refused or empty answer is a failure): the LAST JSON object of the final answer
 * with a `claims` or `relevance` key is the verdict. It must hold `claims`, an array of exactly one
 * label per claim, each one of "s", "p", "n", "x" (case and surrounding spaces ignored), and
 * `relevance`, a whole number 0–3. Anything else is a failure whose error says where
 * (`claims[2]: …`). Nothing is clipped, guessed or filled in.
 *
 * Several samples make one label (`aggregateAnswerSamples`): per claim the most frequent label,
 * a tie going to the less supportive of n < p < s (x, which is not on that scale, wins only
 * alone); relevance the median, rounded down (parse.ts `samplesGrade`, as chunk runs).
 */
import { finalTextOf, jsonObjects, noValueIn, samplesGrade, type TModelAnswer } from "./parse.ts";
import type { TKindParsed } from "./kinds.ts";
import { CLAIM_LABELS, type TClaimLabel } from "../answers/labels.ts";

export type TAnswerVerdict = { claims: TClaimLabel[]; relevance: number };

const clip = (s: string, n = 120) => (s.length > n ? `${s.slice(0, n)}…` : s);
const REFUSAL =
  /\b(?:I\s*(?:'m|am)\s+(?:sorry|unable|not able)|I\s+(?:can(?:no|')t|cannot|won't|will not)\s+(?:help|assist|provide|comply|do\s+that|rate|evaluate|judge|grade|answer|check)|as an ai(?: language model)?,? I)\b/i;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The verdict of one JSON object, or the located reason it is none. */
function verdictOf(obj: Record<string, unknown>, nClaims: number): TKindParsed<TAnswerVerdict> {
  const bad = (error: string): TKindParsed<TAnswerVerdict> => ({ value: null, reason: "no_score", error });
  const claims = obj.claims;
  if (!("claims" in obj))
    return bad(`"claims" is missing: expected an array of ${nClaims} label(s), each "s", "p", "n" or "x"`);
  if (!Array.isArray(claims))
    return bad(
      `"claims" is ${clip(JSON.stringify(claims))}: expected an array of ${nClaims} label(s), each "s", "p", "n" or "x"`,
    );
  if (claims.length !== nClaims)
    return bad(
      `"claims" has ${claims.length} label(s) for ${nClaims} claim(s): expected one label per claim, in order`,
    );
  const labels: TClaimLabel[] = [];
  for (let i = 0; i < claims.length; i++) {
    const v = claims[i];
    const s = typeof v === "string" ? v.trim().toLowerCase() : null;
    if (s === null || !(CLAIM_LABELS as readonly string[]).includes(s))
      return bad(`claims[${i}] (claim ${i + 1}) is ${clip(JSON.stringify(v))}: expected "s", "p", "n" or "x"`);
    labels.push(s as TClaimLabel);
  }
  if (!("relevance" in obj)) return bad(`"relevance" is missing: expected a whole number from 0 to 3`);
  const r = obj.relevance;
  const n = typeof r === "number" ? r : typeof r === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(r) ? Number(r) : NaN;
  if (Number.isNaN(n)) return bad(`"relevance" is ${clip(JSON.stringify(r))}: expected a whole number from 0 to 3`);
  if (!Number.isInteger(n) || n < 0 || n > 3)
    return { value: null, reason: "out_of_range", error: `"relevance" ${n} is not a whole number from 0 to 3` };
  return { value: { claims: labels, relevance: n } };
}

/** The verdict of one answer as the server sent it, for an answer of `nClaims` claims (see the file comment). */
export function parseAnswerVerdict(a: TModelAnswer, nClaims: number): TKindParsed<TAnswerVerdict> {
  const f = finalTextOf(a);
  if ("reason" in f) return { value: null, ...f };
  const objects = jsonObjects(f.text).filter(isRecord);
  const candidate = [...objects].reverse().find((o) => "claims" in o || "relevance" in o);
  if (candidate) return verdictOf(candidate, nClaims);
  return {
    value: null,
    ...noValueIn(f.text, f.truncated, {
      complete: "a complete JSON answer",
      refusal: REFUSAL,
      none: 'no verdict found in the answer (expected a JSON object {"claims": [...], "relevance": N})',
    }),
  };
}

/** Least supportive first: the tie-break order of n, p, s. */
const SUPPORT_ORDER: readonly TClaimLabel[] = ["n", "p", "s"];

/** One claim's label from its samples' labels (see the file comment); null when there are none. */
export function majorityClaimLabel(labels: readonly TClaimLabel[]): TClaimLabel | null {
  if (!labels.length) return null;
  const counts = new Map<TClaimLabel, number>();
  for (const l of labels) counts.set(l, (counts.get(l) ?? 0) + 1);
  const top = Math.max(...counts.values());
  const tied = CLAIM_LABELS.filter((l) => counts.get(l) === top);
  if (tied.length === 1) return tied[0];
  return SUPPORT_ORDER.find((l) => tied.includes(l)) ?? null;
}

/** The run's label of an answer from its parsed samples (all of one claim count); null with none. */
export function aggregateAnswerSamples(samples: readonly TAnswerVerdict[]): TAnswerVerdict | null {
  if (!samples.length) return null;
  const n = samples[0].claims.length;
  const claims: TClaimLabel[] = [];
  for (let i = 0; i < n; i++) {
    const l = majorityClaimLabel(samples.map((s) => s.claims[i]).filter((x): x is TClaimLabel => x !== undefined));
    if (l === null) return null;
    claims.push(l);
  }
  const relevance = samplesGrade(samples.map((s) => s.relevance));
  return relevance === null ? null : { claims, relevance };
}

/** The JSON schema asked for when the run is structured. */
export function answerResponseFormat(): Record<string, unknown> {
  return {
    type: "json_schema",
    json_schema: {
      name: "answer_judgement",
      strict: true,
      schema: {
        type: "object",
        properties: {
          claims: { type: "array", items: { type: "string", enum: [...CLAIM_LABELS] } },
          relevance: { type: "integer", enum: [0, 1, 2, 3] },
        },
        required: ["claims", "relevance"],
        additionalProperties: false,
      },
    },
  };
}
