"use client";

import { useState } from "react";
import Link from "next/link";
import { useReview, useWritingSettings, type TReviewData } from "@/lib/query/questions";
import { Button, ErrorBox, Section } from "@/components/lead/ui";
import type { TOverlapGroup, TPage } from "@/lib/questions/review";
import { QuestionCard } from "./QuestionCard";

const pct = (x: number | null) => (x === null ? "—" : `${Math.round(x * 100)}%`);

/**
 * The lead's review of questions, a page at a time.
 * Questions and near-duplicate groups are cards, and the wide tables scroll inside their own
 * focusable box, so the page fits a 390 px screen.
 */
export function ReviewPage({ projectId }: { projectId: number }) {
  const [offset, setOffset] = useState(0);
  const [clusterOffset, setClusterOffset] = useState(0);
  const review = useReview(projectId, offset, clusterOffset);
  if (review.isLoading) return <p className="text-sm text-slate-500">Loading…</p>;
  if (review.error || !review.data) return <ErrorBox error={review.error} />;
  const data = review.data;
  const dup = data.duplicates;
  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link className="text-indigo-700 underline" href={`/lead/projects/${projectId}`}>
          Back to the project
        </Link>{" "}
        ·{" "}
        <Link className="text-indigo-700 underline" href="/write">
          Write questions
        </Link>
      </p>
      <WritingSettings projectId={projectId} settings={data.settings} />
      <Section title="Lexical-overlap bias" id="overlap" description={<OverlapNote />}>
        <div className="grid gap-4 md:grid-cols-2">
          <GroupTable title="By author" testid="by-author" rows={data.byAuthor} total={data.groups.authors} />
          <GroupTable title="By tag" testid="by-tag" rows={data.byTag} total={data.groups.tags} />
        </div>
      </Section>
      <Section
        title={`Near-duplicates (${dup.total} ${dup.total === 1 ? "group" : "groups"}, ${dup.questions} questions)`}
        id="duplicates"
        description="Groups of questions whose content words (stop words removed, plurals stemmed) have a Jaccard similarity of 0.6 or more with another question of the group; questions with the same content words form one group at once."
      >
        {dup.complete ? null : (
          <p className="mb-2 text-sm text-amber-800" data-testid="duplicates-incomplete">
            So many similar questions that the similarity step stopped at its limit: groups of identical questions are
            complete, groups of near ones may be missing some.
          </p>
        )}
        <ul className="space-y-2 text-sm" data-testid="duplicates">
          {dup.clusters.map((c) => (
            <li key={c.index} className="rounded border border-slate-200 p-2" data-testid={`cluster-${c.index}`}>
              <p className="font-medium">
                {c.size} questions ·{" "}
                {c.similarity === 1 ? "same content words" : `similarity ≥ ${c.similarity.toFixed(2)}`}
              </p>
              <ul className="mt-1 space-y-0.5">
                {c.questions.map((q) => (
                  <li key={q.id} className="break-words">
                    <span className="font-mono">{q.qid}</span>: {q.text}
                  </li>
                ))}
              </ul>
              {c.size > c.questions.length ? (
                <p className="text-slate-500">and {(c.size - c.questions.length).toLocaleString("en-US")} more</p>
              ) : null}
            </li>
          ))}
        </ul>
        <Pager page={dup} noun="groups" onPage={setClusterOffset} testid="duplicates-pager" />
      </Section>
      <Section
        title={`Questions (${data.page.total})`}
        id="questions"
        description="Only accepted questions are pooled, assigned and evaluated."
      >
        <ul className="space-y-3" data-testid="review-questions">
          {data.questions.map((q) => (
            <QuestionCard key={q.id} projectId={projectId} q={q} videos={data.videos} />
          ))}
        </ul>
        <Pager page={data.page} noun="questions" onPage={setOffset} testid="questions-pager" />
      </Section>
    </div>
  );
}

function Pager({
  page,
  noun,
  onPage,
  testid,
}: {
  page: TPage;
  noun: string;
  onPage: (offset: number) => void;
  testid: string;
}) {
  if (page.total <= page.limit) return null;
  const last = Math.min(page.total, page.offset + page.limit);
  return (
    <nav className="mt-3 flex flex-wrap items-center gap-2 text-sm" aria-label={`${noun} pages`} data-testid={testid}>
      <Button
        variant="secondary"
        disabled={page.offset === 0}
        onClick={() => onPage(Math.max(0, page.offset - page.limit))}
      >
        Previous
      </Button>
      <span>
        {noun} {page.offset + 1}–{last} of {page.total.toLocaleString("en-US")}
      </span>
      <Button variant="secondary" disabled={last >= page.total} onClick={() => onPage(page.offset + page.limit)}>
        Next
      </Button>
    </nav>
  );
}

function OverlapNote() {
  return (
    <span data-testid="overlap-note">
      Share of a question&apos;s content words found in the transcript within ±30 s of its answer, and the BM25 rank (k1
      0.9, b 0.4) of the answer&apos;s chunk among its video&apos;s chunks. Questions written while reading the passage
      share its words and favour keyword search: DPR (Karpukhin et al. 2020) measured BM25 ahead of dense retrieval on
      SQuAD (68.8% vs 63.2% top-20), whose questions were written looking at the passage, and behind it on Natural
      Questions (59.1% vs 78.4%), real users&apos; queries. Flagged: overlap ≥ 75%, or rank 1 with overlap ≥ 50%.
    </span>
  );
}

const DISTRIBUTION = "questions by overlap: under 25% · 25–50% · 50–75% · 75% and more";

function GroupTable({
  title,
  rows,
  total,
  testid,
}: {
  title: string;
  rows: TOverlapGroup[];
  total: number;
  testid: string;
}) {
  return (
    <div className="min-w-0">
      {/* A focusable box of its own: the table scrolls inside it on a narrow screen, not the page. */}
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={title}>
        <table className="text-sm" data-testid={testid}>
          <caption className="text-left font-semibold">{title}</caption>
          <thead>
            <tr className="text-left text-slate-500">
              <th className="pr-2" />
              <th className="pr-2">questions</th>
              <th className="pr-2">draft / accepted / rejected</th>
              <th className="pr-2">mean overlap</th>
              <th className="pr-2" title={DISTRIBUTION}>
                distribution*
              </th>
              <th>flagged</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} className="border-t">
                <td className="max-w-48 break-words pr-2">{r.key}</td>
                <td className="pr-2">{r.questions}</td>
                <td className="pr-2">
                  {r.draft} / {r.accepted} / {r.rejected}
                </td>
                <td className="pr-2">{pct(r.meanOverlap)}</td>
                <td className="whitespace-nowrap pr-2 font-mono">{r.bins.join(" · ")}</td>
                <td>{r.flagged}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="mt-1 text-xs text-slate-600" data-testid={`${testid}-legend`}>
        * distribution: {DISTRIBUTION}.
        {total > rows.length ? ` The ${rows.length} largest of ${total.toLocaleString("en-US")} shown.` : ""}
      </p>
    </div>
  );
}

function WritingSettings({ projectId, settings }: { projectId: number; settings: TReviewData["settings"] }) {
  const update = useWritingSettings(projectId);
  return (
    <Section title="Writing" id="writing">
      <label className="mr-6 block text-sm sm:inline">
        <input
          type="checkbox"
          checked={settings.annotatorsMayAuthor}
          onChange={(e) => update.mutate({ annotatorsMayAuthor: e.target.checked })}
        />{" "}
        Annotators may write questions (as drafts)
      </label>
      <label className="block text-sm sm:inline">
        <input
          type="checkbox"
          checked={settings.transcriptWhileWriting}
          onChange={(e) => update.mutate({ transcriptWhileWriting: e.target.checked })}
        />{" "}
        Show the transcript while writing
      </label>
      <ErrorBox error={update.error} />
    </Section>
  );
}
