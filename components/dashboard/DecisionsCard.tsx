"use client";

import { useState } from "react";
import { labelsNote } from "@/lib/decisions/labels-note";
import type { TDecisionCardRow } from "@/lib/decisions/routes";
import { useDecisions, useDrawForDecision } from "@/lib/query/decisions";
import { Card, PanelState } from "./ui";

const signed = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(3)}`;

function statusText(d: TDecisionCardRow): string {
  if (d.status === "settled")
    return d.outcome === "equivalent" ? `settled: equivalent within ±${d.margin}` : `settled: ${d.outcome} is better`;
  if (d.status === "labelling") return `waiting for labels: ${d.pending} drawn question(s) not yet completely labelled`;
  if (d.status === "no_basis") return "no basis yet: draw a first batch for people to label";
  if (d.toSettle === null) return "open: labels on these questions alone cannot settle it (more questions are needed)";
  return `open: about ${d.toSettle} more question(s) to settle${labelsNote(d.toSettle, d.labelsPerQuestion)}`;
}

function DecisionRow({
  d,
  canDraw,
  onDraw,
  drawing,
}: {
  d: TDecisionCardRow;
  canDraw: boolean;
  onDraw: (budget: number) => void;
  drawing: boolean;
}) {
  const suggested = Math.max(1, d.toSettle ?? 10);
  const [budget, setBudget] = useState<number | null>(null);
  const amount = budget ?? suggested;
  return (
    <li
      className="space-y-1 rounded border border-slate-200 p-2"
      data-testid="decision"
      data-decision={d.name}
      data-status={d.status}
    >
      <p className="text-sm">
        <strong>{d.name}</strong>: {d.systems.join(" vs ")} on {d.measure}
        {d.margin ? ` (margin ±${d.margin})` : ""}, {Math.round(d.level * 100)}% over every look
      </p>
      <p
        className={`text-sm ${d.status === "settled" ? "text-green-800" : "text-amber-800"}`}
        data-testid="decision-status"
      >
        {statusText(d)}
      </p>
      <ul className="text-xs text-slate-700">
        {d.pairs.map((p) => (
          <li key={`${p.a}-${p.b}`} data-testid="decision-pair">
            {p.a} − {p.b}:{" "}
            {p.estimate === null || p.low === null || p.high === null
              ? "no estimate"
              : `${signed(p.estimate)} [${signed(p.low)}, ${signed(p.high)}]`}
            {d.status === "labelling" || d.status === "no_basis" ? " (provisional)" : ""}
          </li>
        ))}
      </ul>
      <p className="text-xs text-slate-600">
        {d.questions} questions: {d.certain} completely labelled before the decision, {d.drawn} drawn so far (look{" "}
        {d.look}).
      </p>
      {canDraw && d.status !== "settled" && d.status !== "labelling" ? (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (amount >= 1) onDraw(amount);
          }}
        >
          <label className="text-xs text-slate-600">
            Questions to draw
            <input
              type="number"
              min={1}
              name="budget"
              className="mt-0.5 block w-24 rounded border border-slate-300 px-2 py-1 text-sm"
              value={amount}
              onChange={(e) => setBudget(Number(e.target.value))}
            />
          </label>
          <button
            type="submit"
            disabled={drawing || amount < 1}
            className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-60"
          >
            Draw and assign the next questions
          </button>
        </form>
      ) : null}
    </li>
  );
}

/**
 * The Decisions card (lib/decisions): each decision's estimate, interval and status, and for the
 * lead a button that draws the next batch of questions where labels narrow the interval most.
 */
export function DecisionsCard({ projectId, canSample }: { projectId: number; canSample: boolean }) {
  const q = useDecisions(projectId);
  const draw = useDrawForDecision(projectId);
  const rows = q.data?.decisions ?? [];
  return (
    <Card
      title="Decisions"
      id="decisions"
      description="Which system is better, settled with as few human labels as possible: Assessor draws the questions people label next where the judge is least sure and the systems rank differently, and says when to stop. Intervals stay valid however often you look."
    >
      <PanelState
        isPending={q.isPending}
        error={q.error}
        empty={
          q.data && rows.length === 0
            ? "no decision yet: npx assessor decide create NAME --compare A,B --measure ndcg@10"
            : null
        }
      />
      {rows.length ? (
        <ul className="space-y-2">
          {rows.map((d) => (
            <DecisionRow
              key={d.name}
              d={d}
              canDraw={canSample}
              drawing={draw.isPending}
              onDraw={(budget) => draw.mutate({ decision: d.name, budget })}
            />
          ))}
        </ul>
      ) : null}
      {draw.data ? (
        <p className="mt-2 text-xs text-green-800" role="status">
          Batch {draw.data.look}: {draw.data.drawn} question(s) drawn, {draw.data.newQuestions} new, {draw.data.created}{" "}
          label(s) assigned.
        </p>
      ) : null}
      {draw.error ? <PanelState error={draw.error} /> : null}
    </Card>
  );
}
