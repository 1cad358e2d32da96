/**
 * An answer's default claims (issue 24 item 2): its sentences, found by the platform's sentence
 * segmenter (ICU's, through `Intl.Segmenter`) and corrected where it breaks too eagerly:
 *
 * - after a title or a Latin abbreviation that never ends a sentence before what follows
 *   (Dr. Smith, Mr. and Mrs. Jones, e.g. Python, i.e. the…, vs. Team B);
 * - after an abbreviation that takes a number (Fig. 3, No. 5, p. 12);
 * - after an initial (J. R. R. Tolkien, John F. Kennedy);
 * - after an abbreviation with inner periods or a usual final one (U.S., a.m., etc., Inc., et al.)
 *   or an ellipsis, when the next piece begins in lower case;
 * - after a lone list marker ("1." "a)"), which belongs to the item it numbers;
 * - before a piece with no letter or digit (a stray quote or dash), which joins the sentence before.
 *
 * ICU already keeps decimal numbers (3.5), timestamps (1:05, 01:02:03), version numbers (1.2.3)
 * and an ellipsis followed by lower case inside their sentence, and ends a sentence at a line break;
 * the tests pin that behaviour. Pieces are trimmed and empty ones dropped; offsets index the
 * original text as [startChar, endChar).
 */
/** Claims per answer a label may carry (an answer of a few paragraphs has a few dozen): imports and splits stop here. */
export const MAX_CLAIMS = 500;
/** The longest answer text an import takes (characters): a few pages, far beyond a generated answer. */
export const MAX_ANSWER_CHARS = 50_000;

export type TClaimSpan = { text: string; startChar: number; endChar: number };

const segmenter = new Intl.Segmenter("en", { granularity: "sentence" });

/** Abbreviations that do not end a sentence whatever follows (lower case, without the final period). */
const ALWAYS_CONTINUE = new Set([
  "mr", "mrs", "ms", "mx", "dr", "prof", "st", "mt", "gen", "col", "capt", "cpt", "lt", "sgt", "maj", "adm", "rev", "fr", "hon", "sen", "rep", "gov", "pres", "supt", "messrs",
  "e.g", "i.e", "cf", "viz", "vs", "approx", "incl", "esp", "resp", "ca",
]);
/** Abbreviations that continue when a number follows (Fig. 3, No. 5, p. 12). */
const BEFORE_NUMBER = new Set(["no", "nos", "nr", "fig", "figs", "eq", "eqs", "vol", "vols", "ch", "chap", "sec", "sect", "p", "pp", "art", "ref", "refs", "op", "para", "tab", "ex", "n", "v", "ver", "rev", "pt", "ed"]);
/** Abbreviations that may end a sentence; they continue only before lower case. */
const BEFORE_LOWER = new Set(["etc", "inc", "ltd", "corp", "co", "al", "jr", "sr", "bros", "dept", "est", "govt", "min", "mins", "hr", "hrs", "sec", "secs", "sq", "ft", "oz", "lb", "lbs", "km", "mi", "yr", "yrs", "mo", "mos", "wk", "wks", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"]);

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const LIST_MARKER = /^(?:\d{1,3}|[A-Za-z]|[ivxIVX]{1,4})[.)]$/;

/** Whether the piece ending `before` and the one starting `after` are one sentence. */
function continues(before: string, after: string): boolean {
  const a = after.trimStart();
  if (a === "" || !LETTER_OR_DIGIT.test(a)) return true;
  // A line break is a sentence end, whatever precedes it.
  if (/\n\s*$/.test(before)) return false;
  const b = before.trimEnd();
  if (LIST_MARKER.test(b)) return true;
  const first = a[0];
  const lower = /\p{Ll}/u.test(first);
  const digit = /\p{N}/u.test(first);
  const upper = /\p{Lu}/u.test(first);
  if (/(\.\.\.|…)$/.test(b)) return lower;
  // The last word before the break, without opening punctuation: "(e.g." -> "e.g.".
  const token = (/(\S+)$/.exec(b)?.[1] ?? "").replace(/^[("'“‘[]+/, "");
  if (!token.endsWith(".")) return false;
  const base = token.slice(0, -1).toLowerCase();
  if (ALWAYS_CONTINUE.has(base)) return true;
  if (digit && BEFORE_NUMBER.has(base)) return true;
  // An initial before a capitalised word, itself after an initial, a capitalised word or nothing.
  if (upper && /^\p{Lu}$/u.test(token.slice(0, -1))) {
    const words = b.split(/\s+/);
    const previous = words.length > 1 ? words[words.length - 2] : "";
    if (previous === "" || /^\p{Lu}/u.test(previous)) return true;
  }
  if (lower && (BEFORE_LOWER.has(base) || /\p{L}\.\p{L}/u.test(token))) return true;
  return false;
}

/** The answer's sentences with their offsets into `text` ([startChar, endChar)), trimmed, none empty. */
export function splitClaims(text: string): TClaimSpan[] {
  const pieces: { start: number; end: number }[] = [];
  for (const s of segmenter.segment(text)) {
    const end = s.index + s.segment.length;
    const last = pieces[pieces.length - 1];
    if (last && continues(text.slice(last.start, last.end), s.segment)) last.end = end;
    else pieces.push({ start: s.index, end });
  }
  const out: TClaimSpan[] = [];
  for (const p of pieces) {
    let start = p.start;
    let end = p.end;
    while (start < end && /\s/.test(text[start])) start++;
    while (end > start && /\s/.test(text[end - 1])) end--;
    if (end > start) out.push({ text: text.slice(start, end), startChar: start, endChar: end });
  }
  return out;
}
