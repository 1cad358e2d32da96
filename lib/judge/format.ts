/** How the judge's cost and time left read, the same in the CLI's progress line and the lead's page. */

/** US dollars: four decimals below $1 (a few thousand small requests cost fractions of a cent), else two. */
export const money = (usd: number) => `$${usd.toFixed(usd < 1 ? 4 : 2)}`;

/** A time left in seconds: s below 90 s, min below 90 min, else h; "?" when it cannot be estimated. */
export function timeLeft(seconds: number): string {
  if (!Number.isFinite(seconds)) return "?";
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}
