/** Where a judge's confidence per pair comes from (lib/dashboard/trust.ts TTrustCalibration), for the card and the report. */
export type TConfidenceSource = { source: "samples" | "jury" | "imported"; per: number };

/** What a confidence is, in the card's and the report's sentence ("Confidence per pair: …"). */
export function confidenceWords(c: TConfidenceSource): string {
  if (c.source === "samples") return `the share of its ${c.per} samples at the grade or above`;
  if (c.source === "jury") return `the share of the jury's ${c.per} members at the grade or above`;
  return "the probability of the grade or above that the imported file gave (p_ge1, p_ge2)";
}
