"use client";

import Link from "next/link";
import { useAnswerProjects } from "@/lib/query/answers";

/** On the annotator's page: "Answers (N)", the answers left to label, linking to the answer task; nothing when none are assigned. */
export function AnswersLink() {
  const projects = useAnswerProjects().data?.projects ?? [];
  const total = projects.reduce((s, p) => s + p.total, 0);
  if (total === 0) return null;
  const left = projects.reduce((s, p) => s + p.total - p.done, 0);
  const open = projects.find((p) => p.done < p.total) ?? projects[0];
  return (
    <p className="mx-auto max-w-6xl px-4 pt-3 text-sm">
      <Link href={`/annotate/answers?project=${open.id}`} className="underline" data-testid="answers-link">
        Answers ({left})
      </Link>{" "}
      <span className="text-slate-600">generated answers to label, claim by claim</span>
    </p>
  );
}
