"use client";

import { useState } from "react";
import Link from "next/link";
import { VideoPlayer, usePlayer } from "@/components/player/VideoPlayer";
import { formatClock } from "@/lib/annotate/format";
import { useEditQuestion, useQuestionHistory, useReview, useWritingSettings, type TReviewData } from "@/lib/query/questions";
import { Button, ErrorBox, Section, inputClass } from "@/components/lead/ui";
import type { TReviewQuestion, TOverlapGroup } from "@/lib/questions/review";

const pct = (x: number | null) => (x === null ? "—" : `${Math.round(x * 100)}%`);

/** The lead's review of questions (issue 23 items 2 and 3). */
export function ReviewPage({ projectId }: { projectId: number }) {
  const review = useReview(projectId);
  const [playing, setPlaying] = useState<{ videoId: number; start: number; key: number } | null>(null);
  const { mediaRef } = usePlayer(playing?.start ?? 0);
  if (review.isLoading) return <p className="text-sm text-slate-500">Loading…</p>;
  if (review.error || !review.data) return <ErrorBox error={review.error} />;
  const data = review.data;
  const byId = new Map(data.questions.map((q) => [q.id, q]));
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
      {playing ? (
        <div className="max-w-xl">
          <VideoPlayer src={data.videos.find((v) => v.id === playing.videoId)?.src ?? null} allowed={data.videos.find((v) => v.id === playing.videoId)?.allowed ?? true} cueSeconds={playing.start} cueKey={`review-${playing.key}`} mediaRef={mediaRef} title="answer place" />
        </div>
      ) : null}
      <Section title="Lexical-overlap bias" id="overlap" description={<OverlapNote />}>
        <div className="grid gap-4 md:grid-cols-2">
          <GroupTable title="By author" testid="by-author" rows={data.byAuthor} />
          <GroupTable title="By tag" testid="by-tag" rows={data.byTag} />
        </div>
      </Section>
      <Section title={`Near-duplicates (${data.duplicates.length})`} id="duplicates" description="Pairs whose content words (stop words removed, plurals stemmed) have a Jaccard similarity of 0.6 or more.">
        <table className="w-full text-sm" data-testid="duplicates">
          <tbody>
            {data.duplicates.slice(0, 200).map((d) => (
              <tr key={`${d.a}-${d.b}`} className="border-t">
                <td className="w-16 pr-2 font-mono">{d.similarity.toFixed(2)}</td>
                <td className="w-1/2 pr-2">
                  {byId.get(d.a)?.qid}: {byId.get(d.a)?.text}
                </td>
                <td className="w-1/2">
                  {byId.get(d.b)?.qid}: {byId.get(d.b)?.text}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
      <Section title={`Questions (${data.questions.length})`} id="questions" description="Only accepted questions are pooled, assigned and evaluated.">
        <table className="w-full text-sm" data-testid="review-questions">
          <thead>
            <tr className="text-left text-slate-500">
              <th>id</th>
              <th>question</th>
              <th>author</th>
              <th>tags</th>
              <th>answer places</th>
              <th>overlap</th>
              <th>BM25 rank</th>
              <th>status</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {data.questions.map((q) => (
              <QuestionRow key={q.id} projectId={projectId} q={q} data={data} onPlay={(videoId, start) => setPlaying({ videoId, start, key: Date.now() })} />
            ))}
          </tbody>
        </table>
      </Section>
    </div>
  );
}

function OverlapNote() {
  return (
    <span data-testid="overlap-note">
      Share of a question&apos;s content words found in the transcript within ±30 s of its answer, and the BM25 rank (k1 0.9, b 0.4) of the answer&apos;s chunk among its video&apos;s chunks. Questions written while reading the passage share its words and
      favour keyword search: DPR (Karpukhin et al. 2020) measured BM25 ahead of dense retrieval on SQuAD (68.8% vs 63.2% top-20), whose questions were written looking at the passage, and behind it on Natural Questions (59.1% vs 78.4%), real users&apos;
      queries. Flagged: overlap ≥ 75%, or rank 1 with overlap ≥ 50%.
    </span>
  );
}

function GroupTable({ title, rows, testid }: { title: string; rows: TOverlapGroup[]; testid: string }) {
  return (
    <table className="text-sm" data-testid={testid}>
      <caption className="text-left font-semibold">{title}</caption>
      <thead>
        <tr className="text-left text-slate-500">
          <th className="pr-2" />
          <th className="pr-2">questions</th>
          <th className="pr-2">draft / accepted / rejected</th>
          <th className="pr-2">mean overlap</th>
          <th className="pr-2" title="overlap in [0, 25%), [25, 50%), [50, 75%), [75, 100%]">distribution</th>
          <th>flagged</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} className="border-t">
            <td className="pr-2">{r.key}</td>
            <td className="pr-2">{r.questions}</td>
            <td className="pr-2">
              {r.draft} / {r.accepted} / {r.rejected}
            </td>
            <td className="pr-2">{pct(r.meanOverlap)}</td>
            <td className="pr-2 font-mono">{r.bins.join(" · ")}</td>
            <td>{r.flagged}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function QuestionRow({ projectId, q, data, onPlay }: { projectId: number; q: TReviewQuestion; data: TReviewData; onPlay: (videoId: number, start: number) => void }) {
  const edit = useEditQuestion(projectId);
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(q.text);
  const [tags, setTags] = useState(q.tags.join(", "));
  const [showHistory, setShowHistory] = useState(false);
  const dupes = q.duplicateOf.map((id) => data.questions.find((x) => x.id === id)?.qid).filter(Boolean);
  return (
    <>
      <tr className={`border-t align-top ${q.flagged ? "bg-amber-50" : ""}`} data-testid={`review-${q.qid}`} data-status={q.status}>
        <td className="pr-2 font-mono">{q.qid}</td>
        <td className="pr-2">
          {editing ? (
            <input className={inputClass} value={text} onChange={(e) => setText(e.target.value)} aria-label="question text" />
          ) : (
            q.text
          )}
          {dupes.length ? <div className="text-xs text-amber-700">near-duplicate of {dupes.join(", ")}</div> : null}
        </td>
        <td className="pr-2">{q.author ?? "—"}</td>
        <td className="pr-2">{editing ? <input className={inputClass} value={tags} onChange={(e) => setTags(e.target.value)} aria-label="tags" /> : q.tags.join(", ")}</td>
        <td className="pr-2">
          {q.places.map((p, i) =>
            p.videoId === null ? (
              <span key={i}>{formatClock(p.start)} </span>
            ) : (
              <button key={i} type="button" className="mr-1 text-indigo-700 underline" onClick={() => onPlay(p.videoId!, p.start)}>
                {p.video} {formatClock(p.start)}
                {p.end !== null ? `–${formatClock(p.end)}` : ""}
              </button>
            ),
          )}
        </td>
        <td className="pr-2">
          {pct(q.overlap)}
          {q.flagged ? <span className="ml-1 text-xs text-amber-700">flagged</span> : null}
        </td>
        <td className="pr-2">{q.bm25Rank === null ? "—" : `${q.bm25Rank} of ${q.bm25Of}`}</td>
        <td className="pr-2">{q.status}</td>
        <td className="whitespace-nowrap">
          {q.status !== "accepted" ? (
            <Button variant="secondary" onClick={() => edit.mutate({ id: q.id, patch: { status: "accepted" } })}>
              Accept
            </Button>
          ) : null}
          {q.status !== "rejected" ? (
            <Button variant="secondary" onClick={() => edit.mutate({ id: q.id, patch: { status: "rejected" } })}>
              Reject
            </Button>
          ) : null}
          {editing ? (
            <Button
              onClick={() =>
                edit.mutate(
                  { id: q.id, patch: { text, tags: tags.split(",").map((t) => t.trim()).filter(Boolean) } },
                  { onSuccess: () => setEditing(false) },
                )
              }
            >
              Save
            </Button>
          ) : (
            <Button variant="secondary" onClick={() => setEditing(true)}>
              Edit
            </Button>
          )}
          <Button variant="secondary" onClick={() => setShowHistory((s) => !s)}>
            History
          </Button>
          <ErrorBox error={edit.error} />
        </td>
      </tr>
      {showHistory ? (
        <tr>
          <td colSpan={9}>
            <History projectId={projectId} queryId={q.id} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

function History({ projectId, queryId }: { projectId: number; queryId: number }) {
  const h = useQuestionHistory(projectId, queryId);
  if (h.isLoading) return <p className="text-xs">Loading…</p>;
  if (h.error) return <ErrorBox error={h.error} />;
  return (
    <ol className="text-xs">
      {(h.data ?? []).map((e, i) => (
        <li key={i} className="font-mono">
          {e.at} {e.actor ?? "import"}: {e.before === null ? "created" : JSON.stringify(e.before)} → {JSON.stringify(e.after)}
        </li>
      ))}
    </ol>
  );
}

function WritingSettings({ projectId, settings }: { projectId: number; settings: TReviewData["settings"] }) {
  const update = useWritingSettings(projectId);
  return (
    <Section title="Writing" id="writing">
      <label className="mr-6 text-sm">
        <input type="checkbox" checked={settings.annotatorsMayAuthor} onChange={(e) => update.mutate({ annotatorsMayAuthor: e.target.checked })} /> Annotators may write questions (as drafts)
      </label>
      <label className="text-sm">
        <input type="checkbox" checked={settings.transcriptWhileWriting} onChange={(e) => update.mutate({ transcriptWhileWriting: e.target.checked })} /> Show the transcript while writing
      </label>
      <ErrorBox error={update.error} />
    </Section>
  );
}
