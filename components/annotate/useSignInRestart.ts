"use client";

import type { QueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { annotateKeys } from "@/lib/query/annotate";

/**
 * The annotate page after an ended session or at the end card (components/annotate/AnnotatePage.tsx):
 * `restart` reads the queue from the server again, from where the annotator left off (the grades
 * just sent included); `afterSignIn` does that once the same person has signed in again.
 */
export function useSignInRestart({
  userId,
  projectId,
  qc,
  flushNow,
  setCurrentId,
  setAtEnd,
}: {
  userId: string;
  projectId: number | null;
  qc: QueryClient;
  flushNow: () => Promise<unknown>;
  setCurrentId: (id: string | null) => void;
  setAtEnd: (atEnd: boolean) => void;
}) {
  const restart = useCallback(async () => {
    await flushNow();
    setCurrentId(null);
    setAtEnd(false);
    await qc.resetQueries({ queryKey: annotateKeys.queue(projectId ?? 0) });
    await qc.refetchQueries({ queryKey: annotateKeys.all, type: "active" });
  }, [flushNow, qc, projectId, setCurrentId, setAtEnd]);
  const afterSignIn = useCallback(async () => {
    // Another person signed in here: their page, not this one (the outbox belongs to this user).
    const session = (await (await fetch("/api/auth/session", { credentials: "same-origin" })).json()) as {
      user?: { id?: string };
    } | null;
    if (session?.user?.id !== userId) {
      window.location.reload();
      return;
    }
    await restart();
  }, [userId, restart]);
  return { restart, afterSignIn };
}
