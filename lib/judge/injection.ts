/**
 * Does a chunk's text read like instructions addressed to a language model (a prompt injection)?
 * The judge's prompt puts the chunk inside delimiters and says its text is data (template.ts), but
 * a model may still obey it; a flagged pair is graded as usual and marked (JudgeTask.injection,
 * JudgeLabel.injection) so the lead can check it, on the run's summary and on the dashboard.
 *
 * The rule (a heuristic over English text; it cannot catch every paraphrase, translation or
 * obfuscation, and is meant to make the plain attacks visible, not to prove a chunk clean):
 *
 * - STRONG signals flag on their own:
 *   - override: "ignore / disregard / forget / override" + a qualifier (all, previous, prior, above,
 *     earlier, preceding, your, system, original) + "instructions / prompts / rules / directions /
 *     guidelines" ("IGNORE ALL PREVIOUS INSTRUCTIONS"); "new instructions:";
 *   - role markers: a line (or sentence) that starts with "system:" or "assistant:", or chat-format
 *     tokens (`<|im_start|>`, `<|system|>`, `[INST]`, `<<SYS>>`, `### Instruction`);
 *   - an answer in the judge's own format: `##final score`, a JSON `"score":`.
 * - WEAK signals flag only when two different kinds occur in one chunk (each alone is ordinary
 *   speech: "respond with kindness", "if you are an AI researcher", "a score of 3 to 1"):
 *   - addressing a model: "you are (now) (a helpful / impartial / …) AI / language model / LLM /
 *     chatbot / assistant / grader / judge / evaluator / assessor" (not "an AI researcher"), "as an AI", "dear AI / model /
 *     assistant / judge / grader", "(AI / model / judge / grader / assessor), …";
 *   - output directives: "respond / reply / answer with", "output / return / print (only) the
 *     score / grade / rating / number / JSON", "give / assign / rate this passage / chunk / text …",
 *     "a score / grade / rating of 3";
 *   - relevance claims about the text itself: "this passage / chunk / text / document is (highly /
 *     perfectly / extremely / very / the most) relevant", "highest / maximum / top score / grade /
 *     relevance / rating".
 */

const STRONG: { name: string; re: RegExp }[] = [
  {
    name: "override",
    re: /\b(?:ignore|disregard|forget|override)\s+(?:(?:all|any|every|of|the|your|my|these|those)\s+)*(?:previous|prior|above|earlier|preceding|system|original|former|all)\s+(?:\w+\s+)?(?:instructions?|prompts?|rules|directions|guidelines|commands?|context)\b/i,
  },
  { name: "override", re: /\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:your|the)\s+(?:instructions?|prompts?|rules|guidelines)\b(?!\s+(?:on|of|for|in|at|from|to|about|and)\b)/i },
  { name: "new instructions", re: /\bnew\s+(?:system\s+)?instructions?\s*:/i },
  { name: "role marker", re: /(?:^|[\n\r]|[.!?]\s+|["'“([]\s*)(?:system|assistant)\s*:/i },
  { name: "chat token", re: /<\|(?:im_start|im_end|system|user|assistant|start|channel|message)\|>|\[\/?INST\]|<<\/?SYS>>|###\s*(?:instruction|system|response)\b/i },
  { name: "answer format", re: /##\s*final\s+score|"\s*(?:score|final_score|grade)\s*"\s*:/i },
];

const WEAK: { name: string; re: RegExp }[] = [
  {
    name: "addresses a model",
    re: /\byou\s+are\s+(?:now\s+)?(?:an?\s+|the\s+)?(?:(?:helpful|honest|harmless|impartial|strict|expert|new)\s+)?(?:AI|artificial\s+intelligence|large\s+language\s+model|language\s+model|LLM|chatbot|(?:AI\s+)?assistant|grader|judge|evaluator|(?:relevance\s+)?assessor)\b(?!\s+(?:researchers?|engineers?|developers?|compan(?:y|ies)|startups?|experts?|enthusiasts?|students?|scientists?|teams?|products?|models?|systems?|ethics|safety|policy|investors?|founders?|users?|coach|professor|teacher|manager)\b)/i,
  },
  { name: "addresses a model", re: /\bas\s+an?\s+(?:AI|language\s+model|LLM|assistant)\b(?!\s+(?:researchers?|engineers?|developers?|compan(?:y|ies)|startups?|experts?)\b)/i },
  { name: "addresses a model", re: /\b(?:dear|hey|attention|note\s+to\s+(?:the\s+)?)\s*(?:AI|model|LLM|assistant|judge|grader|assessor|evaluator|chatbot)\b/i },
  { name: "addresses a model", re: /(?:^|[.!?]\s+)(?:AI|model|LLM|judge|grader|assessor|evaluator)\s*[,:]/i },
  { name: "output directive", re: /\b(?:respond|reply|answer)\s+(?:only\s+)?with\b/i },
  { name: "output directive", re: /\b(?:output|return|print|write)\s+(?:only\s+)?(?:the|a|an)?\s*(?:final\s+)?(?:score|grade|rating|number|json|label)\b/i },
  { name: "output directive", re: /\b(?:give|assign|rate|grade|score|mark)\s+(?:this|the)\s+(?:passage|chunk|text|document|excerpt|transcript|answer|segment)\b/i },
  { name: "output directive", re: /\b(?:score|grade|rating|relevance)\s+(?:of|=|:)\s*(?:3|three)\b/i },
  { name: "relevance claim", re: /\b(?:this|the)\s+(?:passage|chunk|text|document|excerpt|segment)\s+is\s+(?:highly\s+|perfectly\s+|extremely\s+|very\s+|the\s+most\s+|completely\s+|fully\s+)?relevant\b/i },
  { name: "relevance claim", re: /\b(?:highest|maximum|max|top|perfect)\s+(?:possible\s+)?(?:score|grade|relevance|rating)\b/i },
];

/** The signals found in a text, each named once (for explanations and tests). */
export function injectionSignals(text: string): { strong: string[]; weak: string[] } {
  const strong = [...new Set(STRONG.filter((s) => s.re.test(text)).map((s) => s.name))];
  const weak = [...new Set(WEAK.filter((s) => s.re.test(text)).map((s) => s.name))];
  return { strong, weak };
}

/** True when the text reads like instructions to a model: one strong signal, or two kinds of weak ones. */
export function looksLikeInjection(text: string): boolean {
  const s = injectionSignals(text);
  return s.strong.length > 0 || s.weak.length >= 2;
}
