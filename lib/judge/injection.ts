/**
 * Does a chunk's text read like instructions addressed to a language model (a prompt injection)?
 * The judge's prompt puts the chunk inside delimiters and says its text is data (template.ts), but
 * a model may still obey it; a flagged pair is graded as usual and marked (JudgeTask.injection,
 * JudgeLabel.injection) so the lead can check it, on the run's summary and on the dashboard.
 *
 * The rule (a heuristic; it cannot catch every paraphrase, translation or
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

import { foldConfusables, readable } from "./normalise.ts";

/** A word boundary that knows letters beyond ASCII (JavaScript's \b does not: Cyrillic, accents). */
const B = "(?<![\\p{L}\\p{N}_])";
const E = "(?![\\p{L}\\p{N}_])";
const WORD = "[\\p{L}\\p{M}'’-]+";
const words = (list: string) => new RegExp(`${B}(?:${list})${E}`, "u");

/**
 * "Ignore the previous instructions" in other languages: an imperative override verb, then within
 * four words an instruction noun, with a qualifier (all, previous, above, system, your…) among
 * those words or the three after. English has its own, finer rules (STRONG below).
 */
const OVERRIDES: { verb: string; noun: string; qualifier: string }[] = [
  // Spanish
  {
    verb: "ignora|ignore|ignoren|ignorad|olvida|olvide|olviden|olvidad|descarta|descarte|omite|omita|desobedece|haz\\s+caso\\s+omiso\\s+(?:de|a)|no\\s+sigas|no\\s+siga|no\\s+sigan|no\\s+obedezcas",
    noun: "instrucciones|instrucción|indicaciones|reglas|normas|órdenes|directrices|consignas",
    qualifier: "todas|todos|anteriores|anterior|previas|previos|arriba|sistema|tus|sus|originales|iniciales",
  },
  // French
  {
    verb: "ignore|ignorez|ignorer|oublie|oubliez|néglige|négligez|ne\\s+tiens\\s+pas\\s+compte\\s+(?:des|de)|ne\\s+tenez\\s+pas\\s+compte\\s+(?:des|de)|ne\\s+suis\\s+pas|ne\\s+suivez\\s+pas|fais\\s+abstraction\\s+(?:des|de)",
    noun: "instructions?|consignes?|règles|directives|indications|ordres",
    qualifier: "toutes|tous|précédentes|précédents|antérieures|ci-dessus|dessus|système|tes|vos|initiales|originales",
  },
  // German
  {
    verb: "ignoriere|ignorieren|ignoriert|vergiss|vergesst|vergessen\\s+sie|missachte|missachten|übergehe|übergehen",
    noun: "anweisungen|anweisung|instruktionen|regeln|vorgaben|befehle|systemanweisungen|systemprompt|richtlinien",
    qualifier:
      "alle|vorherigen|vorherige|bisherigen|obigen|oben|vorigen|system|systemanweisungen|systemprompt|deine|ihre|ursprünglichen",
  },
  // Portuguese
  {
    verb: "ignore|ignora|ignorem|esqueça|esqueca|esqueçam|esquece|desconsidere|desconsidera|despreze|não\\s+siga|nao\\s+siga|não\\s+sigas",
    noun: "instruções|instrucoes|instrução|orientações|regras|normas|diretrizes|comandos|ordens",
    qualifier: "todas|todos|anteriores|acima|prévias|sistema|suas|tuas|originais|iniciais",
  },
  // Italian
  {
    verb: "ignora|ignori|ignorate|dimentica|dimentichi|dimenticate|trascura|tralascia|non\\s+seguire|non\\s+segua|non\\s+seguite",
    noun: "istruzioni|istruzione|regole|indicazioni|direttive|ordini|consegne",
    qualifier: "tutte|tutti|precedenti|sopra|sistema|tue|sue|originali|iniziali",
  },
  // Russian
  {
    verb: "игнорируй|игнорируйте|проигнорируй|проигнорируйте|забудь|забудьте|отбрось|отбросьте|не\\s+следуй|не\\s+следуйте|не\\s+выполняй|не\\s+выполняйте",
    noun: "инструкции|инструкций|инструкциям|инструкциями|указания|указаний|правила|правил|команды",
    qualifier: "все|всё|предыдущие|предыдущим|предыдущих|выше|системные|системных|свои|твои|прежние|исходные",
  },
];

const OVERRIDE_RES = OVERRIDES.map((o) => ({
  phrase: new RegExp(`${B}(?:${o.verb})((?:\\s+${WORD}){0,4}?)\\s+(?:${o.noun})${E}((?:\\s+${WORD}){0,3})`, "gu"),
  qualifier: words(o.qualifier),
}));

function overrideIn(text: string): boolean {
  for (const { phrase, qualifier } of OVERRIDE_RES)
    for (const m of text.matchAll(phrase)) if (qualifier.test(`${m[1]} ${m[2]}`)) return true;
  return false;
}

/**
 * A signal: English rules are case-insensitive regular expressions over the text's views; the
 * other languages' (`intl`) are written in lower case and read the lower-cased views without the
 * `i` flag (Unicode case folding makes a regular expression costly to compile: the first chunks
 * of a run would wait for it while the endpoint's answers time out).
 */
type TSignal = { name: string; intl?: boolean; test: (text: string) => boolean };
const re = (name: string, r: RegExp): TSignal => ({ name, test: (t) => r.test(t) });
const intl = (name: string, r: RegExp): TSignal => ({ name, intl: true, test: (t) => r.test(t) });

const STRONG: TSignal[] = [
  re(
    "override",
    /\b(?:ignore|disregard|forget|override)\s+(?:(?:all|any|every|of|the|your|my|these|those)\s+)*(?:previous|prior|above|earlier|preceding|system|original|former|all)\s+(?:\w+\s+)?(?:instructions?|prompts?|rules|directions|guidelines|commands?|context)\b/i,
  ),
  re(
    "override",
    /\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:your|the)\s+(?:instructions?|prompts?|rules|guidelines)\b(?!\s+(?:on|of|for|in|at|from|to|about|and)\b)/i,
  ),
  re(
    "override",
    /\b(?:do\s+not|don't|never)\s+(?:follow|obey)\s+(?:the\s+|your\s+|any\s+)?(?:(?:previous|prior|above|earlier|original|system)\s+)?(?:instructions?|rules|guidelines|prompts?)\s+(?:above|before|given\s+(?:above|before))\b|\b(?:do\s+not|don't)\s+(?:follow|obey)\s+(?:the\s+|your\s+)?(?:previous|prior|above|earlier|original|system)\s+(?:instructions?|rules|guidelines|prompts?)\b/i,
  ),
  re(
    "override",
    /\bforget\s+(?:everything|all)\s+(?:you\s+(?:were|have\s+been)\s+told|above|before|that\s+came\s+before)\b|\bsystem\s+override\b/i,
  ),
  { name: "override", intl: true, test: overrideIn },
  intl(
    "override",
    /(?:忽略|无视|忽视|不要理会|不要遵循|不要遵守|不要按照|忘记|忘掉|跳过)[^。！？\n]{0,12}?(?:指令|指示|说明|规则|提示|命令)/u,
  ),
  intl(
    "override",
    new RegExp(
      `${B}(?:oublie|oubliez)\\s+tout\\s+ce\\s+qu|${B}olvida\\s+todo\\s+lo\\s+(?:anterior|que)|${B}vergiss\\s+alles|${B}esqueça\\s+tudo|${B}dimentica\\s+tutto|${B}забудь(?:те)?\\s+(?:всё|все)${E}|${B}befolge\\s+(?:${WORD}\\s+){0,3}?(?:anweisungen|regeln)\\s+nicht${E}`,
      "u",
    ),
  ),
  re("new instructions", /\bnew\s+(?:system\s+)?instructions?\s*:/i),
  intl(
    "new instructions",
    new RegExp(
      `${B}(?:nuevas\\s+instrucciones|nouvelles\\s+(?:instructions|consignes)|neue\\s+anweisungen|novas\\s+instruções|nuove\\s+istruzioni|новые\\s+инструкции)\\s*:|新的?(?:指令|指示)\\s*:`,
      "u",
    ),
  ),
  re("role marker", /(?:^|[\n\r]|[.!?]\s+|["'“([]\s*)(?:system|assistant)\s*:/i),
  intl(
    "role marker",
    /(?:^|[\n\r]|[.!?。！？]\s*|["'“([]\s*)(?:sistema|système|systeme|система|ассистент|assistente|asistente|系统|系統|助手)\s*:/iu,
  ),
  re(
    "chat token",
    /<\|(?:im_start|im_end|system|user|assistant|start|channel|message)\|>|\[\/?INST\]|<<\/?SYS>>|###\s*(?:instruction|system|response)\b/i,
  ),
  re("answer format", /##\s*final\s+score|["']\s*(?:score|final_score|grade|relevance)\s*["']\s*:/i),
];

const WEAK: TSignal[] = [
  re(
    "addresses a model",
    /\byou\s+are\s+(?:now\s+)?(?:an?\s+|the\s+)?(?:(?:helpful|honest|harmless|impartial|strict|expert|new)\s+)?(?:AI|artificial\s+intelligence|large\s+language\s+model|language\s+model|LLM|chatbot|(?:AI\s+)?assistant|grader|judge|evaluator|(?:relevance\s+)?assessor)\b(?!\s+(?:researchers?|engineers?|developers?|compan(?:y|ies)|startups?|experts?|enthusiasts?|students?|scientists?|teams?|products?|models?|systems?|ethics|safety|policy|investors?|founders?|users?|coach|professor|teacher|manager)\b)/i,
  ),
  re(
    "addresses a model",
    /\bas\s+an?\s+(?:AI|language\s+model|LLM|assistant)\b(?!\s+(?:researchers?|engineers?|developers?|compan(?:y|ies)|startups?|experts?)\b)/i,
  ),
  re(
    "addresses a model",
    /\b(?:dear|hey|attention|note\s+to\s+(?:the\s+)?)\s*(?:AI|model|LLM|assistant|judge|grader|assessor|evaluator|chatbot|language\s+model)\b/i,
  ),
  re("addresses a model", /(?:^|[.!?]\s+)(?:AI|model|LLM|judge|grader|assessor|evaluator)\s*[,:]/i),
  intl(
    "addresses a model",
    new RegExp(
      `${B}(?:querido|estimado|cher|chère|liebes|liebe|caro|cara|дорогая|дорогой)\\s+(?:modelo|modèle|modell|modello|ia|ki|asistente|assistant|assistente|модель|ассистент)${E}|${B}(?:como|en\\s+tant\\s+qu['’]|als|in\\s+qualità\\s+di|come|как)\\s*(?:un\\s+|una\\s+|um\\s+|uma\\s+)?(?:asistente\\s+de\\s+ia|assistente\\s+de\\s+ia|assistant\\s+ia|assistente\\s+ia|ki-assistent|ki|ia|sprachmodell|языковая\\s+модель|ии|ассистент)${E}|作为(?:一个)?(?:ai|人工智能)(?:助手)?|亲爱的(?:模型|ai)`,
      "u",
    ),
  ),
  re("output directive", /\b(?:respond|reply|answer)\s+(?:only\s+)?with\b/i),
  re(
    "output directive",
    /\b(?:output|return|print|write)\s+(?:only\s+)?(?:the|a|an)?\s*(?:final\s+)?(?:score|grade|rating|number|json|label)\b/i,
  ),
  re(
    "output directive",
    /\b(?:give|assign|rate|grade|score|mark)\s+(?:this|the)\s+(?:passage|chunk|text|document|excerpt|transcript|answer|segment)\b/i,
  ),
  re("output directive", /\b(?:give|assign|award)\s+it\s+(?:an?\s+)?(?:3|three)\b/i),
  re("output directive", /\b(?:score|grade|rating|relevance)\s+(?:of|=|:)\s*(?:3|three)\b/i),
  intl(
    "output directive",
    new RegExp(
      `${B}(?:responde|respondan|réponds|répondez|antworte|antworten\\s+sie|responda|rispondi|risponda|отвечай|отвечайте|ответь)\\s+(?:solo\\s+|solamente\\s+|únicamente\\s+|uniquement\\s+|nur\\s+|apenas\\s+|только\\s+)?(?:con|par|avec|mit|com)?\\s*(?:3|tres|trois|drei|três|tre|три)?${E}|${B}(?:asigna|califica|puntúa|attribue|donne|bewerte|gib|dê|atribua|assegna|dai|поставь|поставьте|выведите|выведи)${E}[^.!?\\n]{0,60}?${B}(?:3|máxima|maximale|höchste|höchstnote|máxima|massimo|максимальную|оценку)${E}|只回答|回答3|打3分|评分3|给出最高分`,
      "u",
    ),
  ),
  re(
    "relevance claim",
    /\b(?:this|the)\s+(?:passage|chunk|text|document|excerpt|segment)\s+is\s+(?:highly\s+|perfectly\s+|extremely\s+|very\s+|the\s+most\s+|completely\s+|fully\s+)?relevant\b/i,
  ),
  re("relevance claim", /\b(?:highest|maximum|max|top|perfect)\s+(?:possible\s+)?(?:score|grade|relevance|rating)\b/i),
  intl(
    "relevance claim",
    new RegExp(
      `${B}(?:puntuación|nota|note|punteggio|voto|pontuação|punktzahl|оценк[уа])\\s+(?:de\\s+|di\\s+)?(?:3|máxima|maximale|massimo|máxima|максимальн\\w*)${E}|${B}(?:la\\s+)?(?:nota|note|voto)\\s+(?:más|plus|più|mais)\\s+(?:alta|élevée|alto)${E}|${B}(?:muy|parfaitement|très|äußerst|sehr|totalmente|molto|perfettamente|очень|полностью)\\s+(?:relevante|pertinent|relevant|pertinente|релевантен|отвечает)${E}|非常相关|完美回答|höchste\\s+punktzahl|höchstnote|meilleure\\s+note`,
      "u",
    ),
  ),
];

/** The views a text is read in: as written, readable (NFKC, invisible characters removed), and with look-alikes folded to Latin; `lower`: the last two in lower case. */
function views(text: string): { cased: string[]; lower: string[] } {
  const plain = readable(text);
  const folded = foldConfusables(plain);
  return {
    cased: [...new Set([text, plain, folded])],
    lower: [...new Set([plain.toLowerCase(), folded.toLowerCase()])],
  };
}

/** The signals found in a text, each named once (for explanations and tests), in any of its views. */
export function injectionSignals(text: string): { strong: string[]; weak: string[] } {
  const { cased, lower } = views(text);
  const found = (list: TSignal[]) => [
    ...new Set(list.filter((s) => (s.intl ? lower : cased).some((v) => s.test(v))).map((s) => s.name)),
  ];
  return { strong: found(STRONG), weak: found(WEAK) };
}

/** True when the text reads like instructions to a model: one strong signal, or two kinds of weak ones. */
export function looksLikeInjection(text: string): boolean {
  const s = injectionSignals(text);
  return s.strong.length > 0 || s.weak.length >= 2;
}

let warmed = false;
/**
 * Runs the detector a few times on sample text, once per process: V8 compiles each regular
 * expression at its first use and again, to machine code, at its second, some 100 ms in all for
 * these rules. A worker calls this before its first request, so that cost is not paid while
 * answers are in flight (a response read late is a timeout, then an early retry).
 */
export function warmInjectionDetector(): void {
  if (warmed) return;
  warmed = true;
  for (let i = 0; i < 3; i++)
    for (const sample of [
      "Chunk: words spoken in a talk at 10 seconds.",
      "Палата: слова, сказанные в лекции; 说的话。 Ｗｏｒｄｓ é",
    ])
      looksLikeInjection(`${sample} ${i}`);
}
