/** What the Generation panel's parts share: label letters and names, series colours, percentages. */
export const COLORS = ["#6366f1", "#14b8a6", "#f59e0b", "#ef4444", "#8b5cf6", "#0ea5e9"];
export const LABELS = ["s", "p", "n", "x"] as const;
export const LABEL_NAMES = { s: "supported", p: "partly", n: "not supported", x: "true, not in context" } as const;
export const pct = (v: number | null | undefined) => (v === null || v === undefined ? "–" : `${Math.round(v * 100)}%`);
export const CELL_TEXT = {
  retrieval_failed: "retrieval failed",
  generator_failed: "generator failed",
  good_without_evidence: "good without evidence",
  fine: "fine",
} as const;
