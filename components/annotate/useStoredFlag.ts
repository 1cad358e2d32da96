"use client";

import { useCallback, useSyncExternalStore } from "react";

const listeners = new Set<() => void>();

/** A boolean setting kept in localStorage; `fallback` until it is first set (and on the server). */
export function useStoredFlag(key: string, fallback = false): [boolean, (v: boolean) => void] {
  const value = useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      window.addEventListener("storage", cb);
      return () => {
        listeners.delete(cb);
        window.removeEventListener("storage", cb);
      };
    },
    () => {
      const v = window.localStorage.getItem(key);
      return v === null ? fallback : v === "1";
    },
    () => fallback,
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
