/** Seconds (decimal, as stored) to m:ss for the screen; hours as h:mm:ss. Negative clamps to 0. */
export function formatClock(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

export const GRADES = [
  { grade: 0, short: "irrelevant", meaning: "irrelevant" },
  { grade: 1, short: "related", meaning: "related but does not answer" },
  { grade: 2, short: "useful", meaning: "useful but incomplete" },
  { grade: 3, short: "exact", meaning: "contains the exact evidence" },
] as const;

export const FLAGS = [
  { id: "transcript_error", label: "Transcript error", key: "t" },
  { id: "unsure", label: "Unsure", key: "f" },
] as const;
