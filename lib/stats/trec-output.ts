/**
 * trec_eval's text output of an evaluation (meas_print_single.c, meas_print_final.c): one line
 * `measure<TAB>qid<TAB>value`, the name left-aligned in 22 characters, values with printf("%6.4f")
 * (counts as integers), relstring quoted, `all` for the summary; with `perQuery`, each query's
 * lines first (queries of the qrels missing from the run too under -c, as trec_eval 10.0 prints
 * them), in byte order of qid.
 */
import type { EvalResult } from "./evaluate.ts";
import { printfFixed } from "./measures/params.ts";

/**
 * printf("%W.Nf") as trec_eval prints: fixed decimals, padded to width W, exact ties rounded half
 * to even (glibc) where Number#toFixed would round them up; NaN (0/0) as glibc prints the x86
 * default NaN, "-nan".
 */
export function formatFixed(x: number, decimals: number, width = 6): string {
  if (Number.isNaN(x)) return "-nan".padStart(width);
  return printfFixed(x, decimals).padStart(width);
}

/** `summary: false` leaves out the `all` lines, runid included (trec_eval -n). */
export function trecEvalLines(
  r: EvalResult,
  opts: { runid: string; perQuery: boolean; precision: number; summary?: boolean },
): string[] {
  const out: string[] = [];
  const fmt = (v: number, integer: boolean) => (integer ? String(Math.trunc(v)) : formatFixed(v, opts.precision));
  const line = (name: string, qid: string, v: string) => `${name.padEnd(22)}\t${qid}\t${v}`;
  if (opts.perQuery) {
    for (let i = 0; i < r.queries.length; i++) {
      for (let c = 0; c < r.columns.length; c++) {
        const col = r.columns[c];
        if (!col.perQuery) continue;
        const t = r.texts[c];
        if (t) {
          out.push(line(col.name, r.queries[i], `'${t[i]}'`));
          continue;
        }
        const v = r.values[c][i];
        if (v !== null) out.push(line(col.name, r.queries[i], fmt(v, col.integer)));
      }
    }
  }
  for (let c = 0; c < r.columns.length && opts.summary !== false; c++) {
    const col = r.columns[c];
    if (col.special === "runid") out.push(line("runid", "all", opts.runid));
    else if (col.special === "num_q") out.push(line("num_q", "all", String(r.numQ)));
    else {
      const v = r.summary[c];
      if (v !== null) out.push(line(col.name, "all", fmt(v, col.integer)));
    }
  }
  return out;
}
