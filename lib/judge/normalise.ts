/**
 * Text as a reader sees it, for the judge's prompt delimiters (template.ts neutraliseTags) and its
 * injection flag (injection.ts): compatibility forms folded (NFKC: fullwidth `＜／ｐａｓｓａｇｅ＞`,
 * `＃＃`, `ＳＹＳＴＥＭ` become ASCII), invisible format characters removed (zero-width space,
 * joiners, word joiner, soft hyphen, bidi marks, variation selectors: `i\u200bgnore`,
 * `system\u200b:`), and common confusables folded to Latin (Cyrillic and Greek look-alikes:
 * Cyrillic `і` in `іgnore`, `о` in `Ignоre`). Without this fold, all of these passed both the
 * delimiters and the detector.
 *
 * The text sent to the model is not rewritten (a transcript in Russian stays Russian): the
 * delimiters are found on the folded view and neutralised at their place in the original
 * (`foldWithMap` maps each folded character back to the original's offset).
 */

/** Format characters (Unicode Cf) and invisible fillers, variation selectors and combining grapheme joiner. */
const INVISIBLE = /\p{Cf}|\u034F|\u115F|\u1160|\u17B4|\u17B5|\u3164|\uFFA0|[\u180B-\u180F]|[\uFE00-\uFE0F]/gu;

/** Cyrillic and Greek letters that look like Latin ones (after Unicode's confusables.txt, the common cases). */
const CONFUSABLES: Readonly<Record<string, string>> = {
  // Cyrillic
  а: "a",
  в: "b",
  е: "e",
  к: "k",
  м: "m",
  н: "h",
  о: "o",
  р: "p",
  с: "c",
  т: "t",
  у: "y",
  х: "x",
  і: "i",
  ј: "j",
  ѕ: "s",
  ԁ: "d",
  һ: "h",
  ԛ: "q",
  ԝ: "w",
  ӏ: "l",
  ү: "y",
  ѵ: "v",
  ɡ: "g",
  А: "A",
  В: "B",
  Е: "E",
  К: "K",
  М: "M",
  Н: "H",
  О: "O",
  Р: "P",
  С: "C",
  Т: "T",
  У: "Y",
  Х: "X",
  І: "I",
  Ј: "J",
  Ѕ: "S",
  Ү: "Y",
  Ԛ: "Q",
  Ԝ: "W",
  Ӏ: "I",
  // Greek
  α: "a",
  ο: "o",
  ν: "v",
  ρ: "p",
  ι: "i",
  κ: "k",
  υ: "u",
  χ: "x",
  ε: "e",
  τ: "t",
  Α: "A",
  Β: "B",
  Ε: "E",
  Ζ: "Z",
  Η: "H",
  Ι: "I",
  Κ: "K",
  Μ: "M",
  Ν: "N",
  Ο: "O",
  Ρ: "P",
  Τ: "T",
  Υ: "Y",
  Χ: "X",
  // Latin look-alikes NFKC keeps
  ı: "i",
  ɑ: "a",
  ȷ: "j",
};
const INVISIBLE_ONE = new RegExp(INVISIBLE.source, "u");
/** Greek and Cyrillic blocks, and the Latin look-alikes listed: the letters CONFUSABLES may fold (others are kept). */
const CONFUSABLE_RE = /[\u0370-\u03FF\u0400-\u052F\u0131\u0237\u0251\u0261]/gu;

/** NFKC with invisible characters removed: the text's letters as they read, in their own script. */
export function readable(text: string): string {
  return text.replace(INVISIBLE, "").normalize("NFKC").replace(INVISIBLE, "");
}

/** Cyrillic and Greek look-alikes as the Latin letters they imitate. */
export function foldConfusables(text: string): string {
  return text.replace(CONFUSABLE_RE, (c) => CONFUSABLES[c] ?? c);
}

/**
 * The folded view of a text (readable + confusables folded, one code point at a time) and, for
 * each of its UTF-16 units, where it came from: the offset and length of the original code point.
 * ASCII is its own folded view (read as it is: no copy, no map); other text is folded a code point
 * at a time, ASCII runs kept as they are.
 */
export function foldWithMap(text: string): { folded: string; at: (i: number) => { offset: number; width: number } } {
  // eslint-disable-next-line no-control-regex -- ASCII, control characters included
  if (/^[\u0000-\u007f]*$/.test(text)) return { folded: text, at: (i) => ({ offset: i, width: 1 }) };
  const parts: string[] = [];
  // Segments: folded offset where each starts, the original offset, and (for a folded code point) its original width; 0 = an ASCII run.
  const starts: number[] = [];
  const offsets: number[] = [];
  const widths: number[] = [];
  let length = 0;
  let i = 0;
  while (i < text.length) {
    if (text.charCodeAt(i) < 0x80) {
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) < 0x80) j++;
      starts.push(length);
      offsets.push(i);
      widths.push(0);
      parts.push(text.slice(i, j));
      length += j - i;
      i = j;
      continue;
    }
    const cp = String.fromCodePoint(text.codePointAt(i) ?? 0);
    let piece = folds.get(cp);
    if (piece === undefined) {
      if (folds.size >= 50_000) folds.clear();
      folds.set(cp, (piece = INVISIBLE_ONE.test(cp) ? "" : foldConfusables(cp.normalize("NFKC"))));
    }
    if (piece) {
      starts.push(length);
      offsets.push(i);
      widths.push(cp.length);
      parts.push(piece);
      length += piece.length;
    }
    i += cp.length;
  }
  const at = (j: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= j) lo = mid;
      else hi = mid - 1;
    }
    return widths[lo] === 0
      ? { offset: offsets[lo] + (j - starts[lo]), width: 1 }
      : { offset: offsets[lo], width: widths[lo] };
  };
  return { folded: parts.join(""), at };
}

/** Each non-ASCII code point's folded form, computed once (NFKC one code point at a time is slow). */
const folds = new Map<string, string>();
