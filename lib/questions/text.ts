/**
 * The one analyser of question and transcript text for the lexical measures: overlap,
 * BM25 rank and near-duplicates all see the same terms.
 *
 * - Lower case after Unicode NFKC; tokens are runs of letters and digits (`\p{L}\p{N}`, an
 *   apostrophe inside a word is dropped: "don't" → "dont").
 * - Stop words: Lucene's English stop set (EnglishAnalyzer.ENGLISH_STOP_WORDS_SET, 33 words, what
 *   Pyserini's default analyser removes) plus the question words and auxiliaries a question brings
 *   with it whatever it asks (what, who, whom, whose, which, when, where, why, how, do, does, did,
 *   can, could, would, should, i, you, we, he, she, his, her, its, our, your, my, me, has, have,
 *   had, been, were, from, about, than, so, any, some, all, one).
 * - Stemming: Harman's S-stemmer (Harman 1991, "How effective is suffixing?", JASIS 42(1)): a word
 *   ending in "ies" (not "eies", "aies") → "y"; in "es" (not "aes", "ees", "oes") → "e"; in "s"
 *   (not "us", "ss") → without the "s". Words of 3 letters or fewer are kept as they are.
 */
export const LUCENE_STOP_WORDS = [
  "a",
  "an",
  "and",
  "are",
  "as",
  "at",
  "be",
  "but",
  "by",
  "for",
  "if",
  "in",
  "into",
  "is",
  "it",
  "no",
  "not",
  "of",
  "on",
  "or",
  "such",
  "that",
  "the",
  "their",
  "then",
  "there",
  "these",
  "they",
  "this",
  "to",
  "was",
  "will",
  "with",
] as const;
export const QUESTION_STOP_WORDS = [
  "what",
  "who",
  "whom",
  "whose",
  "which",
  "when",
  "where",
  "why",
  "how",
  "do",
  "does",
  "did",
  "can",
  "could",
  "would",
  "should",
  "i",
  "you",
  "we",
  "he",
  "she",
  "his",
  "her",
  "its",
  "our",
  "your",
  "my",
  "me",
  "has",
  "have",
  "had",
  "been",
  "were",
  "from",
  "about",
  "than",
  "so",
  "any",
  "some",
  "all",
  "one",
] as const;
const STOP = new Set<string>([...LUCENE_STOP_WORDS, ...QUESTION_STOP_WORDS]);

/** Harman's S-stemmer (rules above). */
export function sStem(w: string): string {
  if (w.length <= 3) return w;
  if (w.endsWith("ies") && !w.endsWith("eies") && !w.endsWith("aies")) return `${w.slice(0, -3)}y`;
  if (w.endsWith("es") && !w.endsWith("aes") && !w.endsWith("ees") && !w.endsWith("oes")) return w.slice(0, -1);
  if (w.endsWith("s") && !w.endsWith("us") && !w.endsWith("ss")) return w.slice(0, -1);
  return w;
}

/** Every token, lower case, apostrophes inside words dropped (no stop words removed, no stemming). */
export function tokens(text: string): string[] {
  return (
    text
      .normalize("NFKC")
      .toLowerCase()
      .replace(/(\p{L})['’](\p{L})/gu, "$1$2")
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** Content terms in order (repeats kept): tokens without stop words, S-stemmed. */
export function contentTerms(text: string): string[] {
  const out: string[] = [];
  for (const t of tokens(text)) if (!STOP.has(t)) out.push(sStem(t));
  return out;
}
