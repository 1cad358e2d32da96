import { Section } from "./ui";

/** Plain links: the browser downloads what the route handler sends as an attachment. */
export function ExportsPanel({ projectId }: { projectId: number }) {
  const base = `/api/lead/projects/${projectId}/exports`;
  const links = [
    { href: `${base}/qrels`, label: "Download qrels", hint: "TREC qrels of the reference labels" },
    { href: `${base}/labels?format=jsonl`, label: "Download labels (JSONL)", hint: "grade, corrected start, status, annotators" },
    { href: `${base}/labels?format=csv`, label: "Download labels (CSV)", hint: "the same as a spreadsheet" },
  ];
  return (
    <Section title="Exports" id="exports" description="Each export carries its label-set version (content sha256 and time).">
      <ul className="space-y-2">
        {links.map((l) => (
          <li key={l.href}>
            <a href={l.href} download className="font-medium text-indigo-700 underline">
              {l.label}
            </a>{" "}
            <span className="text-sm text-slate-500">{l.hint}</span>
          </li>
        ))}
      </ul>
    </Section>
  );
}
