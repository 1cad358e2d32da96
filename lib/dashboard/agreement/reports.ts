/**
 * The agreement panels' caches by content: blocks and reports keyed by what a slice's pairs are
 * (lib/dashboard/agreement/slices.ts), and each report's bootstrap state, so that after a label
 * change only the slices whose pairs changed are computed again.
 */
import type { Aligned } from "../../stats/agreement/align.ts";
import { agreementReport, type AgreementMemo, type AgreementReport } from "../../stats/agreement/report.ts";
import type { TDashboardData } from "../model.ts";
import { RESAMPLING } from "../options.ts";
import { clearInterned } from "./align.ts";
import { clearLastParts } from "./slices.ts";
import type { TAgreementBlock } from "./types.ts";

/**
 * Blocks by content: a slice whose queries' alignments are all unchanged (same serials) shows the
 * same block, found here without cutting its pairs again.
 */
const blocks = new Map<string, TAgreementBlock>();
const MAX_BLOCKS = 2000;

export function cachedBlock(key: string, make: () => TAgreementBlock): TAgreementBlock {
  const k = `${process.env.DATABASE_URL ?? ""}\u0000${key}`;
  let b = blocks.get(k);
  if (b) {
    blocks.delete(k);
  } else b = make();
  blocks.set(k, b);
  while (blocks.size > MAX_BLOCKS) blocks.delete(blocks.keys().next().value as string);
  return b;
}

/**
 * Reports by content (a slice's pairs, named by `cut`'s key): after a label change only the slices
 * whose pairs changed are computed again; the others come from here.
 */
const reports = new Map<string, AgreementReport>();
const MAX_REPORTS = 1000;

/** Forget every report kept by content (tests comparing with a computation from scratch). */
export function clearReportCache(): void {
  reports.clear();
  bootstrapMemo.clear();
  clearInterned();
  blocks.clear();
  clearLastParts();
}

/** Each report's bootstrap state by what it shows (project, panel, slice), updated after label changes (lib/stats/agreement/report.ts). */
const bootstrapMemo: AgreementMemo = new Map();
const MAX_BOOTSTRAP_MEMO = 200;

export function report(
  aligned: Aligned & { key: string },
  resamples: number,
  data: TDashboardData,
  lineage: string,
): AgreementReport {
  const key = `${process.env.DATABASE_URL ?? ""}\u0000${resamples} ${RESAMPLING.seed} ${RESAMPLING.level}\u0000${aligned.key}`;
  const hit = reports.get(key);
  if (hit) {
    reports.delete(key);
    reports.set(key, hit);
    return hit;
  }
  const memoKey = `${process.env.DATABASE_URL ?? ""}\u0000${data.project.id}\u0000${resamples}\u0000${lineage}`;
  const r = agreementReport(aligned, {
    bootstrap: resamples,
    seed: RESAMPLING.seed,
    level: RESAMPLING.level,
    memo: bootstrapMemo,
    memoKey,
  });
  const state = bootstrapMemo.get(memoKey);
  if (state) {
    bootstrapMemo.delete(memoKey);
    bootstrapMemo.set(memoKey, state);
  }
  while (bootstrapMemo.size > MAX_BOOTSTRAP_MEMO) bootstrapMemo.delete(bootstrapMemo.keys().next().value as string);
  reports.set(key, r);
  while (reports.size > MAX_REPORTS) reports.delete(reports.keys().next().value as string);
  return r;
}
