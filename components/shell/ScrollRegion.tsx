import type { ReactNode } from "react";

/**
 * A box that scrolls sideways when its content (a wide table or chart) is wider than the screen,
 * instead of widening the page. It is focusable and named, so a keyboard user can scroll it with
 * the arrow keys (axe: scrollable-region-focusable). Positioned (`relative`), so that what is
 * absolutely positioned inside (a table's sr-only caption) scrolls with it instead of widening the
 * page from where it would be unscrolled.
 */
export function ScrollRegion({
  label,
  className = "",
  children,
  testId,
}: {
  label: string;
  className?: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      data-testid={testId}
      className={`relative max-w-full overflow-x-auto focus:outline-2 focus:outline-indigo-500 ${className}`}
    >
      {children}
    </div>
  );
}
