"use client";

import { useEffect, useMemo } from "react";
import { isTyping } from "@/components/grading/usePageKeys";

/** [section id, key, label]: the sections in the order of work, each with a key. */
type TStep = [id: string, key: string, label: string];

function steps(gradingClosed: boolean): TStep[] {
  return [
    ["settings", "1", "Settings"],
    ["guidelines", "2", "Guidelines"],
    ["imports", "3", "Imports"],
    ["pool", "4", "Pool"],
    ["assign", "5", "Assign"],
    ["progress", "p", "Progress"],
    ["flags", "f", "Flags and notes"],
    // Says what the section offers now (it said "Close grading" while grading was closed).
    ["grading", "c", gradingClosed ? "Reopen grading" : "Close grading"],
    ["judge", "6", "Judge"],
    ["exports", "7", "Exports"],
  ];
}

/** Moves focus to a section's heading (components/lead/ui.tsx `Section`: id `<id>-title`, focusable), so the next Tab is inside the section. */
function focusSection(id: string) {
  const heading = document.getElementById(`${id}-title`);
  if (!heading) return;
  heading.focus({ preventScroll: true });
  heading.scrollIntoView({ block: "start" });
}

/**
 * The project page's in-page navigation, in the order of work. Each link, and its key pressed
 * anywhere on the page outside a field (1–7, p, f, c), goes to the section's heading with focus,
 * so its controls are the next Tab stops (reaching "Close grading…" took 94 Tabs).
 */
export function ProjectNav({ gradingClosed }: { gradingClosed: boolean }) {
  const list = useMemo(() => steps(gradingClosed), [gradingClosed]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e.target) || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
      const step = list.find(([, key]) => key === e.key.toLowerCase());
      if (!step) return;
      e.preventDefault();
      focusSection(step[0]);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [list]);
  return (
    <nav
      aria-label="Sections of this project"
      className="sticky top-0 z-10 -mx-1 overflow-x-auto border-b border-slate-200 bg-white/95 px-1 py-2"
    >
      <ol className="flex gap-3 text-sm whitespace-nowrap">
        {list.map(([id, key, label]) => (
          <li key={id}>
            <a
              href={`#${id}-title`}
              aria-keyshortcuts={key}
              className="text-indigo-700 underline"
              onClick={(e) => {
                e.preventDefault();
                focusSection(id);
              }}
            >
              <kbd className="mr-0.5 font-mono text-xs text-slate-500">{key}</kbd> {label}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
