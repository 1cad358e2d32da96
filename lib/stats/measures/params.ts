/**
 * The parameters of trec_eval's measures as its -m option spells them (trec_eval 10.0's
 * meas_init.c, ported): after the first '.', a comma-separated list of
 * - cutoffs (get_long_cutoffs): ranks read as C's atol reads them, so a fraction is truncated
 *   (`ndcg_cut.10,20,23.4` gives ndcg_cut_10, _20 and _23), sorted; each must be at least 1 and
 *   none may repeat (`P.5,5` is an error, as there); printed one column each as `P_5`;
 * - fractions (get_double_cutoffs): numbers such as recall points (`iprec_at_recall..10,.20`),
 *   sorted, none repeated, one column each, printed with printf("%3.2f") (`iprec_at_recall_0.10`);
 * - numbers (get_double_params): a list read as it is (`utility.2,-1,0,0`, `11pt_avg..25,.5`), one
 *   column printed with the parameter text (`utility_2,-1,0,0`);
 * - pairs (get_param_pairs): `name=value` (`ndcg.1=3,2=9`, `rbp.p=0.95`), one column printed with
 *   the text.
 * Where trec_eval's atol/atof would silently read a malformed number (`P.5x` as 5, `P.1e3` as 1,
 * `utility.2,x,0,0` with x as 0, an empty item as 0), this refuses it with the measure and the text.
 */
import type { GainPair } from "./gains.ts";

export type ParamKind = "none" | "cutoffs" | "fractions" | "numbers" | "pairs";

export class MeasureSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MeasureSpecError";
  }
}

export function parseCutoffs(name: string, raw: string): number[] {
  const out: number[] = [];
  for (const p of raw.split(",")) {
    // atol: the integer part of a decimal numeral (23.4 → 23)
    if (!/^\+?\d+(\.\d*)?$/.test(p) || Math.trunc(Number(p)) < 1)
      throw new MeasureSpecError(
        `measure "${name}": cutoffs must be ranks of at least 1 (a fraction is truncated, as trec_eval does), got "${p}" in "${name}.${raw}"`,
      );
    out.push(Math.trunc(Number(p)));
  }
  return sortedDistinct(name, raw, out);
}

/** Sorted ascending; a value given twice is an error, as in trec_eval ("duplicate cutoffs detected"). */
function sortedDistinct(name: string, raw: string, xs: number[]): number[] {
  const sorted = [...xs].sort((a, b) => a - b);
  for (let i = 1; i < sorted.length; i++)
    if (sorted[i] === sorted[i - 1])
      throw new MeasureSpecError(`measure "${name}": the cutoff ${sorted[i]} is given twice in "${name}.${raw}"`);
  return sorted;
}

/** Fractions (recall points, multiples of R): sorted, none repeated. */
export function parseFractions(name: string, raw: string): number[] {
  return sortedDistinct(name, raw, parseNumbers(name, raw));
}

/** A number as C's atof reads the usual spellings (`.5`, `-1`, `2e3`); anything else is an error. */
function number(name: string, raw: string, p: string): number {
  const v = p.trim() === "" ? NaN : Number(p);
  if (!Number.isFinite(v) || /^0[xXbBoO]/.test(p.replace(/^[+-]/, "")))
    throw new MeasureSpecError(
      `measure "${name}": expected numbers separated by commas, got "${p}" in "${name}.${raw}"`,
    );
  return v;
}

export function parseNumbers(name: string, raw: string): number[] {
  return raw.split(",").map((p) => number(name, raw, p));
}

export function parsePairs(name: string, raw: string): GainPair[] {
  return raw.split(",").map((p) => {
    const eq = p.indexOf("=");
    if (eq <= 0)
      throw new MeasureSpecError(
        `measure "${name}": expected name=value pairs separated by commas (e.g. ${name}.1=3,2=9), got "${p}" in "${name}.${raw}"`,
      );
    return { name: p.slice(0, eq), value: number(name, raw, p.slice(eq + 1)) };
  });
}

/**
 * printf("%.2f")-style: fixed decimals with exact binary ties rounded half to even, as glibc
 * does (Number#toFixed rounds them up).
 */
export function printfFixed(x: number, decimals: number): string {
  const s = x.toFixed(decimals);
  const extra = 30;
  const long = x.toFixed(Math.min(100, decimals + extra));
  if (long.slice(long.length - extra) !== `5${"0".repeat(extra - 1)}`) return s;
  let truncated = long.slice(0, long.length - extra);
  if (truncated.endsWith(".")) truncated = truncated.slice(0, -1);
  return Number(truncated[truncated.length - 1]) % 2 === 0 ? truncated : s;
}
