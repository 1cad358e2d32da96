"use client";

import { useLayoutEffect, useRef } from "react";

/** True while the user is typing text: no shortcut may fire then (notes, rationale, any text input). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement)
    return !["checkbox", "radio", "button", "submit", "range"].includes(target.type);
  return false;
}

/**
 * True inside a region marked `data-native-keys` (a notice with its own buttons, the sign-in form):
 * there Enter, Space and the other keys do what the browser does (press the focused button), not
 * grade or submit.
 */
export function inNativeKeysRegion(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest("[data-native-keys]") !== null;
}

/** What a page's keys do: Escape (after leaving a text field), and any other key (true: handled). */
export type TPageKeys = {
  escape: () => void;
  press: (e: KeyboardEvent) => boolean;
};

/**
 * One window keydown listener for a keyboard-first page, added once and reading the latest `keys`
 * (refreshed after every render). Escape leaves a text field, then `escape`; no other key fires
 * while typing, with Ctrl, Meta or Alt held, or while composing; a key `press` handled has its
 * default prevented. `nativeRegions`: inside `data-native-keys` every key is the browser's.
 */
export function usePageKeys(keys: TPageKeys, { enabled = true, nativeRegions = false } = {}) {
  const ref = useRef(keys);
  // Layout effects run in the commit that shows the page's state, before the browser handles the
  // next input: a key pressed as soon as an item (or the end of the queue) appears reaches the
  // handlers of what is shown, never none or the previous state's.
  useLayoutEffect(() => {
    ref.current = keys;
  });
  useLayoutEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (nativeRegions && inNativeKeysRegion(e.target)) return;
      if (e.key === "Escape") {
        if (e.target instanceof HTMLElement && isTyping(e.target)) e.target.blur();
        ref.current.escape();
        return;
      }
      if (isTyping(e.target) || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
      if (ref.current.press(e)) e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [enabled, nativeRegions]);
}
