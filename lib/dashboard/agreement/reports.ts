/**
 * The agreement panels' caches by content: blocks and reports keyed by what a slice's pairs are
 * (lib/dashboard/agreement/slices.ts), and each report's bootstrap state, so that after a label
 * change only the slices whose pairs changed are computed again.
 */
import type { Aligned } from "../../stats/agreement/align.ts";
import { agreementReport, type AgreementMemo, type AgreementReport } from "../../stats/agreement/report.ts";
import type { TDashboardData } from "../model.ts";
import { RESAMPLING } from "../options.ts";
import { dashboardCaches } from "../data.ts";
import type { TAgreementBlock } from "./types.ts";
import { cacheOf, type TCacheHolder } from "../load/cache.ts";

/**
 * Blocks by content: a slice whose queries' alignments are all unchanged (same serials) shows the
 * same block, found here without cutting its pairs again.
 */
const blocks = (data: TCacheHolder) =>
  cacheOf(data).carried("agreement/reports.blocks", () => new Map<string, TAgreementBlock>());
const MAX_BLOCKS = 2000;

export function cachedBlock(data: TCacheHolder, key: string, make: () => TAgreementBlock): TAgreementBlock {
  const k = `${key}`;
  let b = blocks(data).get(k);
  if (b) {
    blocks(data).delete(k);
  } else b = make();
  blocks(data).set(k, b);
  while (blocks(data).size > MAX_BLOCKS) blocks(data).delete(blocks(data).keys().next().value as string);
  return b;
}

/**
 * Reports by content (a slice's pairs, named by `cut`'s key): after a label change only the slices
 * whose pairs changed are computed again; the others come from here.
 */
const reports = (data: TCacheHolder) =>
  cacheOf(data).carried("agreement/reports.reports", () => new Map<string, AgreementReport>());
const MAX_REPORTS = 1000;

/** Forget every report kept by content (tests comparing with a computation from scratch). */
export function clearReportCache(): void {
  // The agreement panels' stores of every project's lineage (reports, blocks, bootstrap state, interned alignments, slice parts).
  for (const cache of dashboardCaches()) cache.forget("agreement/");
}

/** Each report's bootstrap state by what it shows (project, panel, slice), updated after label changes (lib/stats/agreement/report.ts). */
const bootstrapMemo = (data: TCacheHolder) =>
  cacheOf(data).carried("agreement/reports.bootstrapMemo", (): AgreementMemo => new Map());
const MAX_BOOTSTRAP_MEMO = 200;

export function report(
  aligned: Aligned & { key: string },
  resamples: number,
  data: TDashboardData,
  lineage: string,
): AgreementReport {
  const key = `${resamples} ${RESAMPLING.seed} ${RESAMPLING.level}\u0000${aligned.key}`;
  const hit = reports(data).get(key);
  if (hit) {
    reports(data).delete(key);
    reports(data).set(key, hit);
    return hit;
  }
  const memoKey = `${resamples}\u0000${lineage}`;
  const r = agreementReport(aligned, {
    bootstrap: resamples,
    seed: RESAMPLING.seed,
    level: RESAMPLING.level,
    memo: bootstrapMemo(data),
    memoKey,
  });
  const state = bootstrapMemo(data).get(memoKey);
  if (state) {
    bootstrapMemo(data).delete(memoKey);
    bootstrapMemo(data).set(memoKey, state);
  }
  while (bootstrapMemo(data).size > MAX_BOOTSTRAP_MEMO)
    bootstrapMemo(data).delete(bootstrapMemo(data).keys().next().value as string);
  reports(data).set(key, r);
  while (reports(data).size > MAX_REPORTS) reports(data).delete(reports(data).keys().next().value as string);
  return r;
}
