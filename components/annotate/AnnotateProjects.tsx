"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useAnnotatorProjects } from "@/lib/query/annotate";
import { AnnotatePage } from "./AnnotatePage";
import { ProjectPicker } from "./ProjectPicker";

/**
 * /annotate: which project's queue to show. The choice is kept in the URL (`?project=ID`); without
 * one, the server's pick (the project graded in most recently that has work left, else the first
 * with work). Each project's queue is its own AnnotatePage (state starts afresh on a switch).
 */
export function AnnotateProjects({ userId }: { userId: string }) {
  const projects = useAnnotatorProjects();
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  if (projects.isPending) return <p className="p-6 text-slate-600">Loading your queue…</p>;
  if (projects.isError) return <p role="alert" className="p-6 text-red-700">Could not load your queue: {projects.error.message}</p>;
  const { projects: list, current } = projects.data;
  const wanted = Number(params.get("project"));
  const project = list.find((p) => p.id === wanted) ?? list.find((p) => p.id === current);
  if (!project) return <p className="p-6 text-slate-600">Nothing is assigned to you yet.</p>;
  const choose = (id: number) => {
    const q = new URLSearchParams(params.toString());
    q.set("project", String(id));
    router.replace(`${pathname}?${q}`);
  };
  return <AnnotatePage key={project.id} userId={userId} projectId={project.id} projectBar={<ProjectPicker projects={list} current={project} onChoose={choose} />} />;
}
