"use client";

import type { TOutboxFailure } from "@/lib/offline/outbox";
import { NotSavedAlert } from "@/components/grading/NotSaved";

type TPlace = { question: number; item: number; text: string };

/**
 * Grades the server refused (lib/offline/outbox.ts: a 4xx other than 401/408/429, or a server error
 * on that grade five times): they are not retried, so each is shown with its item (position and
 * question text), the grade and the server's reason, until the annotator dismisses it (Tab to its
 * Dismiss button, Enter: the region keeps the browser's keys, `data-native-keys`). The page then
 * shows the item as the server holds it.
 */
export function FailedGrades({
  failed,
  placeOf,
  onOpen,
  onDismiss,
}: {
  failed: readonly TOutboxFailure[];
  placeOf: (itemId: string) => TPlace | null;
  onOpen: (itemId: string) => void;
  onDismiss: (key: string) => void;
}) {
  return (
    <NotSavedAlert
      failed={failed}
      label="Grades not saved"
      noun="grade"
      testId="failed-grades"
      nativeKeys
      row={(f) => {
        const place = placeOf(f.entry.itemId);
        const grade = (f.entry.body as { grade?: unknown } | null)?.grade;
        return (
          <li
            key={f.entry.key}
            className="flex flex-wrap items-center gap-2"
            data-testid="failed-grade"
            data-item-id={f.entry.itemId}
          >
            <span>
              {place ? `Question ${place.question}, item ${place.item}` : "An item no longer in your queue"}
              {place?.text ? ` (“${place.text}”)` : ""}
              {typeof grade === "number" ? ` (grade ${grade})` : ""}: {f.message} (HTTP {f.status})
            </span>
            {place ? (
              <button type="button" className="underline" onClick={() => onOpen(f.entry.itemId)}>
                Open item
              </button>
            ) : null}
            <button
              type="button"
              className="underline"
              aria-label={place ? `Dismiss: question ${place.question}, item ${place.item}` : "Dismiss"}
              onClick={() => onDismiss(f.entry.key)}
            >
              Dismiss
            </button>
          </li>
        );
      }}
    />
  );
}
