import type { ReactNode } from "react";

/** The look of a time group's buttons. */
export const TIME_BUTTON = "rounded border border-slate-300 bg-white px-2 py-1 text-xs hover:bg-slate-50";

/**
 * One time of a label (the start, the answer's end) as a named group: `name` and the time as an
 * output (`testId`, `data-seconds`: "" when there is none), the group's buttons, then the notice
 * line (said politely: why a key did nothing) when `notice` is given, even as null.
 */
export function TimeGroup({
  label,
  name,
  testId,
  seconds,
  shown,
  gap = "gap-1",
  notice,
  children,
}: {
  label: string;
  name: string;
  testId: string;
  seconds: number | "";
  shown: ReactNode;
  gap?: "gap-1" | "gap-2";
  notice?: string | null;
  children: ReactNode;
}) {
  return (
    <div role="group" aria-label={label} className={`flex flex-wrap items-center ${gap} text-sm`}>
      <span>
        {name}{" "}
        <output
          aria-label={`${label} time`}
          data-testid={testId}
          data-seconds={seconds}
          className="font-mono font-semibold"
        >
          {shown}
        </output>
      </span>
      {children}
      {notice !== undefined ? (
        <p
          role="status"
          aria-live="polite"
          data-testid={`${testId}-notice`}
          className="basis-full text-xs text-amber-800"
        >
          {notice ?? ""}
        </p>
      ) : null}
    </div>
  );
}
