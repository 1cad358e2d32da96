/**
 * Round axis ticks for the dashboard's charts: a step of 1, 2, 2.5 or 5 × 10^k giving at most
 * `maxTicks` ticks over [min, max], and the domain widened to whole steps, so that an axis over
 * [−0.2, 1] reads −0.2, 0, 0.2 … 1 rather than recharts' −0.2, 0.1, 0.4, 0.7, 1.
 */
export function niceScale(min: number, max: number, maxTicks = 7): { domain: [number, number]; ticks: number[] } {
  if (!Number.isFinite(min) || !Number.isFinite(max) || max <= min) {
    const v = Number.isFinite(min) ? min : 0;
    return { domain: [v, v + 1], ticks: [v, v + 1] };
  }
  const raw = (max - min) / Math.max(1, maxTicks - 1);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw - 1e-12) ?? 10 * magnitude;
  // Rounded to the step's decimals so that 3 × 0.1 prints as 0.3, not 0.30000000000000004.
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + 1);
  const round = (x: number) => Number(x.toFixed(decimals));
  const lo = round(Math.floor(min / step + 1e-9) * step);
  const hi = round(Math.ceil(max / step - 1e-9) * step);
  const ticks: number[] = [];
  for (let i = 0; lo + i * step <= hi + step * 1e-9; i++) ticks.push(round(lo + i * step));
  return { domain: [lo, hi], ticks };
}
