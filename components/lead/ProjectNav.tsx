/**
 * The project page's in-page navigation, in the order of work (issue 22 item 6). Each link goes to
 * a section's heading (components/lead/ui.tsx `Section` gives it the id `<id>-title`).
 */
const STEPS: [string, string][] = [
  ["settings", "1 Settings"],
  ["guidelines", "2 Guidelines"],
  ["imports", "3 Imports"],
  ["pool", "4 Pool"],
  ["assign", "5 Assign"],
  ["progress", "Progress"],
  ["flags", "Flags and notes"],
  ["grading", "Close grading"],
  ["judge", "6 Judge"],
  ["exports", "7 Exports"],
];

export function ProjectNav() {
  return (
    <nav aria-label="Sections of this project" className="sticky top-0 z-10 -mx-1 overflow-x-auto border-b border-slate-200 bg-white/95 px-1 py-2">
      <ol className="flex gap-3 text-sm whitespace-nowrap">
        {STEPS.map(([id, label]) => (
          <li key={id}>
            <a href={`#${id}-title`} className="text-indigo-700 underline">
              {label}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
