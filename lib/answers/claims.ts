/**
 * An answer's default claims: its sentences, found by the platform's sentence
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
  "mr",
  "mrs",
  "ms",
  "mx",
  "dr",
  "prof",
  "st",
  "mt",
  "gen",
  "col",
  "capt",
  "cpt",
  "lt",
  "sgt",
  "maj",
  "adm",
  "rev",
  "fr",
  "hon",
  "sen",
  "rep",
  "gov",
  "pres",
  "supt",
  "messrs",
  "e.g",
  "i.e",
  "cf",
  "viz",
  "vs",
  "approx",
  "incl",
  "esp",
  "resp",
  "ca",
]);
/** Abbreviations that continue when a number follows (Fig. 3, No. 5, p. 12). */
const BEFORE_NUMBER = new Set([
  "no",
  "nos",
  "nr",
  "fig",
  "figs",
  "eq",
  "eqs",
  "vol",
  "vols",
  "ch",
  "chap",
  "sec",
  "sect",
  "p",
  "pp",
  "art",
  "ref",
  "refs",
  "op",
  "para",
  "tab",
  "ex",
  "n",
  "v",
  "ver",
  "rev",
  "pt",
  "ed",
]);
/** Abbreviations that may end a sentence; they continue only before lower case. */
const BEFORE_LOWER = new Set([
  "etc",
  "inc",
  "ltd",
  "corp",
  "co",
  "al",
  "jr",
  "sr",
  "bros",
  "dept",
  "est",
  "govt",
  "min",
  "mins",
  "hr",
  "hrs",
  "sec",
  "secs",
  "sq",
  "ft",
  "oz",
  "lb",
  "lbs",
  "km",
  "mi",
  "yr",
  "yrs",
  "mo",
  "mos",
  "wk",
  "wks",
  "jan",
  "feb",
  "mar",
  "apr",
  "jun",
  "jul",
  "aug",
  "sep",
  "sept",
  "oct",
  "nov",
  "dec",
]);

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const LIST_MARKER = /^(?:\d{1,3}|[A-Za-z]|[ivxIVX]{1,4})[.)]$/;

/** Characters of the piece before a break that the join rules read: its last two words and more. */
const TAIL = 64;

/**
 * Whether the piece ending in `before` and the one starting `after` are one sentence. `before` is
 * the piece's last TAIL characters or fewer, without its trailing white space (`lineBreak`: that
 * white space holds a line break); `whole`: `before` is the entire piece.
 */
function continues(before: string, whole: boolean, lineBreak: boolean, after: string): boolean {
  if (!LETTER_OR_DIGIT.test(after)) return true;
  // A line break is a sentence end, whatever precedes it.
  if (lineBreak) return false;
  const b = before;
  if (whole && b.length <= 5 && LIST_MARKER.test(b)) return true;
  let i = 0;
  while (SPACE.test(after[i])) i++;
  const first = after[i];
  const lower = /\p{Ll}/u.test(first);
  if (b.endsWith("...") || b.endsWith("…")) return lower;
  if (!b.endsWith(".")) return false;
  // The last word before the break, without opening punctuation: "(e.g." -> "e.g.".
  const cut = lastSpace(b);
  const token = b.slice(cut + 1).replace(/^[("'“‘[]+/, "");
  const base = token.slice(0, -1).toLowerCase();
  if (ALWAYS_CONTINUE.has(base)) return true;
  if (BEFORE_NUMBER.has(base) && /\p{N}/u.test(first)) return true;
  // An initial before a capitalised word, itself after an initial, a capitalised word or nothing.
  if (/^\p{Lu}$/u.test(token.slice(0, -1)) && /\p{Lu}/u.test(first)) {
    let end = cut;
    while (end >= 0 && SPACE.test(b[end])) end--;
    if (end < 0) return whole;
    const previous = b.slice(lastSpace(b.slice(0, end + 1)) + 1, end + 1);
    if (/^\p{Lu}/u.test(previous)) return true;
  }
  if (lower && (BEFORE_LOWER.has(base) || /\p{L}\.\p{L}/u.test(token))) return true;
  return false;
}

/** The index of the last white-space character of `s`, or -1. */
function lastSpace(s: string): number {
  for (let k = s.length - 1; k >= 0; k--) if (SPACE.test(s[k])) return k;
  return -1;
}

const SPACE = /\s/;
/** Characters given to the segmenter at a time. */
const WINDOW = 1024;

/**
 * The segmenter's sentences of `text`, read a window at a time: V8's segment iterator costs time in
 * proportion to the whole string at each step (64 KB of "Mr. " took 1.3 s, 200 KB of short
 * sentences over a minute), so it is given WINDOW characters, the window's sentences but its last
 * two are kept (the window's end may have cut the last, and ICU's look-ahead past a sentence end
 * may have decided the one before), and the next window starts where the second last began; a
 * window holding fewer than three sentences is doubled until it does (or the text ends). The
 * sentences are those of the whole text (a unit test compares them on random texts).
 */
export function* sentenceSegments(text: string): Generator<{ index: number; segment: string }> {
  let pos = 0;
  let width = WINDOW;
  while (pos < text.length) {
    const end = Math.min(text.length, pos + width);
    const segments = [...segmenter.segment(text.slice(pos, end))];
    if (end === text.length) {
      for (const s of segments) yield { index: pos + s.index, segment: s.segment };
      return;
    }
    if (segments.length < 3) {
      width *= 2;
      continue;
    }
    for (const s of segments.slice(0, -2)) yield { index: pos + s.index, segment: s.segment };
    pos += segments[segments.length - 2].index;
    width = WINDOW;
  }
}

/** The answer's sentences with their offsets into `text` ([startChar, endChar)), trimmed, none empty. */
export function splitClaims(text: string): TClaimSpan[] {
  // Per piece: where its last non-space character ends, and whether a line break follows it; kept up
  // to date as segments are added, so a join reads only the new segment and a bounded tail.
  const pieces: { start: number; end: number; content: number; lineBreak: boolean }[] = [];
  const add = (p: (typeof pieces)[number], from: number, to: number) => {
    for (let k = from; k < to; k++) {
      const c = text[k];
      if (!SPACE.test(c)) {
        p.content = k + 1;
        p.lineBreak = false;
      } else if (c === "\n") p.lineBreak = true;
    }
    p.end = to;
  };
  for (const s of sentenceSegments(text)) {
    const end = s.index + s.segment.length;
    const last = pieces[pieces.length - 1];
    if (last) {
      const from = Math.max(last.start, last.content - TAIL);
      if (continues(text.slice(from, last.content), from === last.start, last.lineBreak, s.segment)) {
        add(last, s.index, end);
        continue;
      }
    }
    const piece = { start: s.index, end: s.index, content: s.index, lineBreak: false };
    add(piece, s.index, end);
    pieces.push(piece);
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
