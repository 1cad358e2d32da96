import type { ReactNode } from "react";
import type { TOutboxFailure } from "@/lib/offline/outbox";

/**
 * What the server refused from the outbox (not retried): an alert counting them (`noun`: what was
 * sent, a grade, a label), then one `row` each, with its own way to open or dismiss it. Nothing
 * when all were saved. `nativeKeys`: the page's keys stay out of it (`data-native-keys`).
 */
export function NotSavedAlert({
  failed,
  label,
  noun,
  testId,
  nativeKeys = false,
  row,
}: {
  failed: readonly TOutboxFailure[];
  label: string;
  noun: string;
  testId: string;
  nativeKeys?: boolean;
  row: (f: TOutboxFailure) => ReactNode;
}) {
  if (failed.length === 0) return null;
  return (
    <section
      role="alert"
      aria-label={label}
      data-native-keys={nativeKeys ? "" : undefined}
      className="space-y-1 rounded border border-red-300 bg-red-50 p-2 text-sm text-red-800"
      data-testid={testId}
    >
      <p className="font-semibold">
        {failed.length}
        {` ${noun}`}
        {failed.length === 1 ? " was" : "s were"} not saved (the others were sent):
      </p>
      <ul className="space-y-1">{failed.map((f) => row(f))}</ul>
    </section>
  );
}
