/**
 * The parameters of trec_eval's measures as its -m option spells them (meas_init.c): after the
 * first '.', a comma-separated list of
 * - cutoffs: positive integer ranks (`P.5,10`), printed one column each as `P_5`;
 * - fractions: numbers such as recall points (`iprec_at_recall..10,.20`), one column each, printed
 *   with two decimals (`iprec_at_recall_0.10`);
 * - numbers: a list read as it is (`utility.2,-1,0,0`, `11pt_avg..25,.5`), one column printed with
 *   the parameter text (`utility_2,-1,0,0`);
 * - pairs: `name=value` (`ndcg.1=3,2=9`, `rbp.p=0.95`), one column printed with the text.
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
    if (!/^\d+$/.test(p) || Number(p) < 1) throw new MeasureSpecError(`measure "${name}": cutoffs must be positive integers, got "${p}" in "${name}.${raw}"`);
    out.push(Number(p));
  }
  return out;
}

/** A number as C's atof reads the usual spellings (`.5`, `-1`, `2e3`); anything else is an error. */
function number(name: string, raw: string, p: string): number {
  const v = p.trim() === "" ? NaN : Number(p);
  if (!Number.isFinite(v) || /^0[xXbBoO]/.test(p.replace(/^[+-]/, ""))) throw new MeasureSpecError(`measure "${name}": expected numbers separated by commas, got "${p}" in "${name}.${raw}"`);
  return v;
}

export function parseNumbers(name: string, raw: string): number[] {
  return raw.split(",").map((p) => number(name, raw, p));
}

export function parsePairs(name: string, raw: string): GainPair[] {
  return raw.split(",").map((p) => {
    const eq = p.indexOf("=");
    if (eq <= 0) throw new MeasureSpecError(`measure "${name}": expected name=value pairs separated by commas (e.g. ${name}.1=3,2=9), got "${p}" in "${name}.${raw}"`);
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
