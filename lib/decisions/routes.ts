import { z } from "zod";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { INT32_MAX } from "../bounds.ts";
import { projectIdParam } from "../lead/projects.ts";
import { drawBatch } from "./draw.ts";
import { decisionReports } from "./store.ts";
import type { TVerdict } from "../stats/active.ts";

/** One decision as the dashboard's Decisions card shows it (no population, no probabilities). */
export type TDecisionCardRow = {
  name: string;
  systems: string[];
  measure: string;
  margin: number;
  level: number;
  status: "settled" | "open" | "labelling" | "no_basis";
  outcome: string | null;
  look: number;
  questions: number;
  certain: number;
  drawn: number;
  pending: number;
  toSettle: number | null;
  /** Human labels a question still to draw costs, on average (pairs to label × annotators per pair). */
  labelsPerQuestion: number;
  pairs: {
    a: string;
    b: string;
    estimate: number | null;
    low: number | null;
    high: number | null;
    verdict: TVerdict;
  }[];
};

export async function decisionsCard(db: Db, rawProjectId: unknown): Promise<{ decisions: TDecisionCardRow[] }> {
  const projectId = projectIdParam(rawProjectId);
  const project = await db.project.findUnique({ where: { id: projectId }, select: { id: true } });
  if (!project) throw new AppError("not_found", `no project with id ${projectId}`);
  const decisions: TDecisionCardRow[] = [];
  for (const { decision: d, state: s, labelsPerQuestion } of await decisionReports(db, projectId)) {
    decisions.push({
      name: d.name,
      systems: d.systems,
      measure: d.measure,
      margin: d.margin,
      level: d.level,
      status: s.status,
      outcome: s.outcome,
      look: s.look,
      questions: s.questions,
      certain: s.certain,
      drawn: s.drawn,
      pending: s.pending,
      toSettle: s.toSettle,
      labelsPerQuestion,
      pairs: s.pairs.map((p) => ({
        a: p.a,
        b: p.b,
        estimate: p.estimate?.estimate ?? null,
        low: p.estimate?.low ?? null,
        high: p.estimate?.high ?? null,
        verdict: p.verdict,
      })),
    });
  }
  return { decisions };
}

export const ZDrawRequest = z.object({
  decision: z.string().min(1).max(100),
  budget: z.number().int().min(1).max(100_000),
  seed: z.number().int().min(0).max(INT32_MAX).optional(),
});

/** The card's button: the next batch of the decision, assigned to the project's annotators per item. */
export async function drawForDecision(db: Db, rawProjectId: unknown, body: z.infer<typeof ZDrawRequest>) {
  const projectId = projectIdParam(rawProjectId);
  const project = await db.project.findUnique({ where: { id: projectId }, select: { annotatorsPerItem: true } });
  if (!project) throw new AppError("not_found", `no project with id ${projectId}`);
  const r = await drawBatch(db, projectId, body.decision, {
    budget: body.budget,
    perItem: project.annotatorsPerItem,
    seed: body.seed,
  });
  return {
    look: r.look,
    drawn: r.drawn.length,
    newQuestions: r.newQuestions.length,
    created: r.assignment?.created ?? 0,
  };
}
