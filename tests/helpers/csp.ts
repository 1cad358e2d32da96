import type { BrowserContext, Page } from "playwright-core";

/**
 * Content-Security-Policy violations seen by every page of a browser context:
 * a `securitypolicyviolation` listener installed before any script of the page runs, read back
 * with `cspViolations(page)`. An empty list means the page passed its policy.
 */
export async function watchCsp(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      w.__csp.push(`${e.effectiveDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`),
    );
  });
}

export function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => [...((window as unknown as { __csp?: string[] }).__csp ?? [])]);
}

/**
 * Tests written for two keys per judgement (grade, then Enter) turn auto-advance off, as an
 * annotator can; new annotators have it on (tests/e2e/annotate-keys.test.ts).
 */
export async function twoKeyGrading(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    if (window.localStorage.getItem("assessor.autoAdvance") === null)
      window.localStorage.setItem("assessor.autoAdvance", "0");
  });
}
