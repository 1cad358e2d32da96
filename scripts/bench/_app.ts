/**
 * What the benchmark modules that serve the app share (not a module of its own: index.ts skips
 * files starting with "_").
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..", "..");

/** The production build to serve: NEXT_DIST_DIR, else `fallback`, else .next — the first with a BUILD_ID. */
export function productionBuild(fallback: string): string {
  const candidates = [process.env.NEXT_DIST_DIR, fallback, ".next"].filter((d): d is string => Boolean(d));
  const found = candidates.find((d) => existsSync(join(root, d, "BUILD_ID")));
  if (!found)
    throw new Error(
      `no production build (looked in ${candidates.join(", ")}): run NEXT_DIST_DIR=${fallback} npx next build`,
    );
  return found;
}

/** Runs `fn` with NEXT_DIST_DIR set to `dist` (what tests/helpers/server.ts serves), restoring it after. */
export async function withNextDist<T>(dist: string, fn: () => Promise<T>): Promise<T> {
  const previous = process.env.NEXT_DIST_DIR;
  process.env.NEXT_DIST_DIR = dist;
  try {
    return await fn();
  } finally {
    if (previous === undefined) delete process.env.NEXT_DIST_DIR;
    else process.env.NEXT_DIST_DIR = previous;
  }
}
