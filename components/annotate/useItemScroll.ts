"use client";

import { useEffect, useRef } from "react";

/**
 * Each new item starts with its top (the project and the question) on screen, at any zoom. The
 * returned ref goes on the item's <article>; `shownItem` is the id of the item shown.
 */
export function useItemScroll(shownItem: string | null) {
  const articleRef = useRef<HTMLElement>(null);
  useEffect(() => {
    const el = articleRef.current;
    if (!shownItem || !el) return;
    const question = el.querySelector("[data-testid=question]") ?? el;
    const top = el.getBoundingClientRect().top;
    if (top < 0 || question.getBoundingClientRect().bottom > window.innerHeight) el.scrollIntoView({ block: "start" });
  }, [shownItem]);
  return articleRef;
}
