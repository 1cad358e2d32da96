/**
 * The statistics core in one import (pure TypeScript: no database, React or Next).
 *
 * Retrieval: build qrels and runs with `judgementsFrom` / `runFrom`, pick measures with
 * `parseMeasures(["ndcg_cut.10", "recip_rank", …]).columns`, then `evaluate(...)`.
 * Agreement: `agreementReport(alignLabels(reference, other), { bootstrap, seed })`.
 * Uncertainty: `bootstrapMeanCI`, `pairedRandomizationTest`, `pairedBootstrapTest`,
 * `queriesForHalfWidth`, `queriesToDetect`. Judge + human: `ppiMean`, `ppiPairedDifference`, `ppiTable`.
 */
export { compareEvaluated, evaluatedOrder } from "./order.ts";
export {
  evaluate,
  evaluateRanked,
  judgementsFrom,
  runFrom,
  rankQuery,
  summarise,
  type EvalResult,
  type Judgements,
  type RunByQuery,
} from "./evaluate.ts";
export {
  parseMeasures,
  DEFAULT_MEASURES,
  MEASURE_NAMES,
  MeasureSpecError,
  type MeasureColumn,
  type EvalContext,
} from "./measures/index.ts";
export type { RankedQuery, EvalOptions } from "./measures/types.ts";
export type { ChunkTime, ReferenceStart } from "./measures/start-error.ts";
export { alignLabels, type Label, type LabelPair, type Aligned } from "./agreement/align.ts";
export { agreementReport, type AgreementReport } from "./agreement/report.ts";
export { cohenKappa, type Weighting, type KappaResult } from "./agreement/kappa.ts";
export { krippendorffAlpha, type AlphaMetric } from "./agreement/krippendorff.ts";
export { confusionOf, perGrade, rawAgreement, withinOne, leniency } from "./agreement/confusion.ts";
export { binaryAgreement } from "./agreement/binary.ts";
export { bootstrapMeanCI, type Interval } from "./bootstrap.ts";
export { pairedBootstrapTest, pairedRandomizationTest, type PairedResult } from "./paired.ts";
export { queriesForHalfWidth, queriesToDetect, sampleSd } from "./sample-size.ts";
export { ppiMean, ppiPairedDifference, narrowerBy, type TPpiResult, type TPpiSample } from "./ppi.ts";
export { ppiTable, type TPpiTable } from "./ppi-table.ts";
export { median } from "./median.ts";
export { mulberry32, randomSeed, seededRng, shuffle, type RandomFn, type Rng } from "./random.ts";
export * from "./time/index.ts";
