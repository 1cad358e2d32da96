import { Section } from "./ui";

/** Plain links: the browser downloads what the route handler sends as an attachment. */
export function ExportsPanel({ projectId }: { projectId: number }) {
  const base = `/api/lead/projects/${projectId}/exports`;
  const links = [
    { href: `${base}/qrels`, label: "Download qrels", hint: "TREC qrels of the reference labels" },
    {
      href: `${base}/labels?format=jsonl`,
      label: "Download labels (JSONL)",
      hint: "grade, corrected start, status, annotators, flags, notes, revision; the version in the first line",
    },
    {
      href: `${base}/labels?format=csv`,
      label: "Download labels (CSV)",
      hint: "the same as a spreadsheet (header row first)",
    },
    ...(["jsonl", "csv"] as const).flatMap((f) => [
      {
        href: `${base}/answers?kind=claims&format=${f}`,
        label: `Download claim labels (${f.toUpperCase()})`,
        hint: "generated answers: one row per claim with its label s/p/n/x, status, annotators, revision",
      },
      {
        href: `${base}/answers?kind=answers&format=${f}`,
        label: `Download answer labels (${f.toUpperCase()})`,
        hint: "generated answers: one row per answer with relevance and faithfulness",
      },
    ]),
  ];
  // The sidecar of each download: its label-set version and file sha256 (qrels and CSV hold no version line).
  const manifest = (href: string) => `${href}${href.includes("?") ? "&" : "?"}manifest=1`;
  return (
    <Section
      title="Exports"
      id="exports"
      description="Each file name carries its label-set version (the first 12 digits of its sha256); the version file beside it holds the full version and the file's own sha256."
    >
      <ul className="space-y-2">
        {links.map((l) => (
          <li key={l.href}>
            <a href={l.href} download className="font-medium text-indigo-700 underline">
              {l.label}
            </a>{" "}
            <a
              href={manifest(l.href)}
              download
              className="text-sm text-indigo-700 underline"
              aria-label={l.label.replace("Download ", "Version file: ")}
            >
              version
            </a>{" "}
            <span className="text-sm text-slate-500">{l.hint}</span>
          </li>
        ))}
      </ul>
    </Section>
  );
}
