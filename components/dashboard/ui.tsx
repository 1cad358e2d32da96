import type { ReactNode } from "react";

/**
 * A dashboard panel. `dashboard-card` (app/globals.css) lets the browser skip the style, layout and
 * paint of a card while it is off screen (content-visibility: auto): the default view's panels
 * hold about 7,000 elements, most of them below the fold.
 */
export function Card({
  title,
  id,
  children,
  description,
  className = "",
}: {
  title: string;
  id: string;
  children: ReactNode;
  description?: ReactNode;
  className?: string;
}) {
  return (
    <section
      aria-labelledby={`${id}-title`}
      className={`dashboard-card min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm ${className}`}
      data-panel={id}
    >
      <h2 id={`${id}-title`} className="text-base font-semibold">
        {title}
      </h2>
      {description ? <p className="mt-0.5 text-xs text-slate-600">{description}</p> : null}
      <div className="mt-3">{children}</div>
    </section>
  );
}

/** Loading, error and "nothing yet" states that say what to do next. */
export function PanelState({
  isPending,
  error,
  empty,
}: {
  isPending?: boolean;
  error?: unknown;
  empty?: string | null;
}) {
  if (isPending)
    return (
      <p className="text-sm text-slate-500" role="status">
        Loading…
      </p>
    );
  if (error)
    return (
      <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-2 text-sm text-red-800">
        {error instanceof Error ? error.message : String(error)}
      </p>
    );
  if (empty)
    return (
      <p className="rounded-md border border-amber-200 bg-amber-50 p-2 text-sm text-amber-900" data-empty>
        {empty}
      </p>
    );
  return null;
}

export function Ci({ ci }: { ci: { low: number; high: number } | null | undefined }) {
  if (!ci) return null;
  return (
    <span className="ml-1 text-xs text-slate-500">
      [{ci.low.toFixed(2)}, {ci.high.toFixed(2)}]
    </span>
  );
}
