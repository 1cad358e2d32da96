import type { BrowserContext, Page } from "playwright-core";

/** What each page of a watched context reported, kept in the test process. */
const seen = new WeakMap<Page, string[]>();

/**
 * Content-Security-Policy violations seen by every page of a browser context:
 * a `securitypolicyviolation` listener installed before any script of the page runs reports each
 * one to the test process through a binding, so a navigation (a redirect, a reload) can neither
 * lose them nor make reading them fail. Read them with `cspViolations(page)`; an empty list means
 * every document the page showed passed its policy.
 */
export async function watchCsp(context: BrowserContext): Promise<void> {
  await context.exposeBinding("__assessorCsp", ({ page }, message: string) => {
    const list = seen.get(page) ?? [];
    list.push(message);
    seen.set(page, list);
  });
  await context.addInitScript(() => {
    const report = (window as unknown as { __assessorCsp: (m: string) => void }).__assessorCsp;
    document.addEventListener("securitypolicyviolation", (e) =>
      report(
        `${location.pathname}: ${e.effectiveDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`,
      ),
    );
  });
}

/** The violations reported so far; a round trip to the page first lets its pending reports arrive. */
export async function cspViolations(page: Page): Promise<string[]> {
  await page.evaluate(() => 0).catch(() => undefined);
  return [...(seen.get(page) ?? [])];
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
