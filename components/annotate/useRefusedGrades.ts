"use client";

import type { QueryClient } from "@tanstack/react-query";
import { useEffect, type Dispatch, type RefObject, type SetStateAction } from "react";
import { refetchItem, setDone } from "@/lib/query/annotate";
import type { TOutboxResult } from "@/lib/offline/outbox";
import type { TForm } from "./annotateHelpers";

type TForms = Record<string, TForm>;

/**
 * A refused grade: the local form is dropped and the item read again, so it shows what the server
 * holds (its own earlier grade, or none: then it counts as not done again). Sets `onResultRef`, the
 * outbox's handler of each result (components/annotate/AnnotatePage.tsx).
 */
export function useRefusedGrades({
  onResultRef,
  qc,
  projectId,
  shownProjectId,
  setForms,
  setSaved,
}: {
  onResultRef: RefObject<(r: TOutboxResult) => void>;
  qc: QueryClient;
  projectId: number | null;
  shownProjectId: number | null;
  setForms: Dispatch<SetStateAction<TForms>>;
  setSaved: Dispatch<SetStateAction<TForms>>;
}) {
  useEffect(() => {
    onResultRef.current = (r) => {
      if (r.ok) return;
      const id = r.entry.itemId;
      const without = (all: TForms) => {
        const rest = { ...all };
        delete rest[id];
        return rest;
      };
      setForms(without);
      setSaved(without);
      void refetchItem(qc, id)
        .then((fresh) => {
          if (!fresh.own && shownProjectId !== null) setDone(qc, projectId ?? 0, shownProjectId, id, false);
        })
        .catch(() => undefined);
    };
  }, [onResultRef, qc, projectId, shownProjectId, setForms, setSaved]);
}
