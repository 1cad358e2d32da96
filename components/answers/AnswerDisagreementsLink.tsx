"use client";

import Link from "next/link";
import { useAnswerAdjudicationCounts } from "@/lib/query/answers";

/** On the adjudicator's page: "Answers (N)", the project's answer disagreements waiting, linking to /adjudicate/answers; nothing without answers. */
export function AnswerDisagreementsLink({ projectId }: { projectId: number | null }) {
  const counts = useAnswerAdjudicationCounts().data ?? [];
  const row = counts.find((c) => c.projectId === projectId);
  if (!row) return null;
  return (
    <Link
      href={`/adjudicate/answers?project=${row.projectId}`}
      className="text-sm underline"
      data-testid="answer-disagreements-link"
    >
      Answers ({row.pending})
    </Link>
  );
}
