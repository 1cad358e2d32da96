"use client";

import { useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import type { TAnnotatorOpening } from "@/lib/annotate/view";
import { seedOpening, useAnnotatorProjects } from "@/lib/query/annotate";
import { AnnotatePage } from "./AnnotatePage";
import { ProjectPicker } from "./ProjectPicker";
import { AnswersLink } from "@/components/answers/AnswersLink";

/**
 * /annotate: which project's queue to show. The choice is kept in the URL (`?project=ID`); without
 * one, the server's pick (the project of the latest grade when it has work left, else the first
 * with work), named by the queue's first page. The first item does not wait for the project list
 * (its counts are a heavier read, asked for once the first item is shown): the picker appears then. Each project's queue is its
 * own AnnotatePage (state starts afresh on a switch). `opening`: the first page and item, read by
 * the server with the page for the project the URL named then (`openingFor`), put in the cache
 * before the first render (so the server's HTML already shows the first item).
 */
export function AnnotateProjects({
  userId,
  email,
  opening,
  openingFor,
}: {
  userId: string;
  email: string;
  opening?: TAnnotatorOpening | null;
  openingFor?: number | null;
}) {
  const qc = useQueryClient();
  useState(() => {
    if (opening && openingFor !== undefined) seedOpening(qc, openingFor, opening);
  });
  // Loaded by AnnotatePage once its first item is shown; read here for the picker.
  const projects = useAnnotatorProjects(false);
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const wanted = Number(params.get("project"));
  const projectId = Number.isInteger(wanted) && wanted > 0 ? wanted : null;
  const choose = (id: number) => {
    const q = new URLSearchParams(params.toString());
    q.set("project", String(id));
    router.replace(`${pathname}?${q}`);
  };
  return (
    <>
      <AnswersLink />
      <AnnotatePage
        key={projectId ?? "opening"}
        userId={userId}
        email={email}
        projectId={projectId}
        projectBar={(current) => (
          <ProjectPicker projects={projects.data?.projects} current={current} onChoose={choose} />
        )}
      />
    </>
  );
}
