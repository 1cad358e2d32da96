/**
 * Answer places as typed or marked on screen, pure: times typed as m:ss,
 * h:mm:ss or seconds, and the one rule every screen checks before saving (the server checks it
 * again: lib/questions/schemas.ts): an end is at or after its start.
 */
import { formatClock } from "../annotate/format.ts";

/** "1:05", "1:02:03" or "65.5" as seconds; null for anything else. */
export function parseClock(text: string): number | null {
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t);
  const m = /^(?:(\d+):)?(\d{1,2}):(\d{2}(?:\.\d+)?)$/.exec(t);
  if (!m) return null;
  const [h, min, s] = [Number(m[1] ?? 0), Number(m[2]), Number(m[3])];
  if (s >= 60 || (m[1] !== undefined && min >= 60)) return null;
  return h * 3600 + min * 60 + s;
}

/** The message for a place whose end is before its start (1-based `n`), else null. */
export function endBeforeStart(p: { start: number; end: number | null }, n: number): string | null {
  return p.end !== null && p.end < p.start
    ? `Answer place ${n}: its end (${formatClock(p.end)}) is before its start (${formatClock(p.start)}).`
    : null;
}
