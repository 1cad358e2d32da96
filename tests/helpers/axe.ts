import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { AxeResults, ImpactValue, Result } from "axe-core";
import type { Page } from "playwright-core";

/**
 * axe-core in the page under test. The script is evaluated through the
 * DevTools protocol, so the page's Content-Security-Policy does not block it and the page's own
 * behaviour is untouched. `scan` reports violations only (axe's own rules, WCAG 2.x A/AA and best
 * practices, as shipped in axe-core's default rule set).
 */
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export type TAxeViolation = Pick<Result, "id" | "impact" | "help"> & { targets: string[] };
export const IMPACTS = ["critical", "serious", "moderate", "minor"] as const satisfies readonly ImpactValue[];

export async function axeScan(page: Page): Promise<TAxeViolation[]> {
  await page.evaluate(axeSource);
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } })
      .axe;
    const r = await axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => `${n.target.join(" ")} ${n.html.slice(0, 160)}`),
    }));
  });
  return results;
}

/** Counts of violating nodes per impact. */
export function impactCounts(violations: TAxeViolation[]): Record<(typeof IMPACTS)[number], number> {
  const counts = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const v of violations) if (v.impact) counts[v.impact] += v.targets.length;
  return counts;
}

/** One line per violation and node, for a failing assertion's message. */
export function describeViolations(violations: TAxeViolation[]): string {
  return violations
    .map((v) => `${v.impact ?? "?"} ${v.id} (${v.help}):\n${v.targets.map((t) => `    ${t}`).join("\n")}`)
    .join("\n");
}
