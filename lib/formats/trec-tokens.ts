/**
 * The text tokens of TREC files (lib/formats/trec.ts): integers and numbers read from a slice of a
 * line without a substring per field, and the repeated-string reuse of qids and tags.
 */

/** Integer in text[s, e) or NaN; digits with an optional sign, nothing else. */
export function parseIntToken(text: string, s: number, e: number): number {
  let i = s;
  let sign = 1;
  const c0 = text.charCodeAt(i);
  if (c0 === 45 /* - */ || c0 === 43 /* + */) {
    if (c0 === 45) sign = -1;
    i++;
  }
  if (i === e || e - i > 15) return e - i > 15 && /^[+-]?\d+$/.test(text.slice(s, e)) ? Number(text.slice(s, e)) : NaN;
  let v = 0;
  for (; i < e; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  return sign * v;
}

export const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * A finite number in text[s, e) or NaN. Plain decimals with at most 15 significant digits take a
 * fast path: an exact integer divided by an exact power of ten is correctly rounded, so the result
 * is the same double as Number() gives. Anything else (exponents, long mantissas) goes to Number().
 */
export function parseNumberToken(text: string, s: number, e: number): number {
  let i = s;
  let sign = 1;
  const c0 = text.charCodeAt(i);
  if (c0 === 45 || c0 === 43) {
    if (c0 === 45) sign = -1;
    i++;
  }
  let mant = 0;
  let digits = 0;
  let frac = -1;
  for (; i < e; i++) {
    const c = text.charCodeAt(i);
    if (c === 46 /* . */ && frac < 0) {
      frac = 0;
      continue;
    }
    const d = c - 48;
    if (d < 0 || d > 9) return slowNumber(text, s, e);
    mant = mant * 10 + d;
    digits++;
    if (frac >= 0) frac++;
  }
  if (digits === 0) return NaN;
  if (digits > 15 || frac > 22) return slowNumber(text, s, e);
  return frac > 0 ? (sign * mant) / POW10[frac] : sign * mant;
}

export function slowNumber(text: string, s: number, e: number): number {
  const tok = text.slice(s, e);
  if (/^0[xXbBoO]/.test(tok.replace(/^[+-]/, ""))) return NaN; // Number() would accept hex; trec_eval's atof would not
  const v = Number(tok);
  return Number.isFinite(v) ? v : NaN;
}

/** Reuses `prev` when text[s, e) spells the same string: qids and tags repeat on every line. */
export function sliceOrReuse(text: string, s: number, e: number, prev: string): string {
  if (prev.length === e - s && text.startsWith(prev, s)) return prev;
  return text.slice(s, e);
}

export function describe(text: string, s: number, e: number): string {
  const t = text.slice(s, Math.min(e, s + 40));
  return JSON.stringify(e - s > 40 ? `${t}…` : t);
}
