"use client";

import { useCallback, useSyncExternalStore } from "react";

const listeners = new Set<() => void>();

/** A boolean setting kept in localStorage (false on the server and until hydrated). */
export function useStoredFlag(key: string): [boolean, (v: boolean) => void] {
  const value = useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      window.addEventListener("storage", cb);
      return () => {
        listeners.delete(cb);
        window.removeEventListener("storage", cb);
      };
    },
    () => window.localStorage.getItem(key) === "1",
    () => false,
  );
  const set = useCallback(
    (v: boolean) => {
      window.localStorage.setItem(key, v ? "1" : "0");
      for (const l of listeners) l();
    },
    [key],
  );
  return [value, set];
}
