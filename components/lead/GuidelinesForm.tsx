"use client";

import { useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { guidelinesKey } from "@/lib/query/guidelines";
import { GuidelineRevisions } from "./GuidelineRevisions";
import type { TProjectDetail } from "@/lib/query/lead";
import { useUpdateSettings } from "@/lib/query/lead";
import { GuidelinesPanel } from "@/components/annotate/Guidelines";
import { Button, ErrorBox, Field, Section, SubmitCell, Success } from "./ui";

/** The annotation guidelines (Markdown) that annotators open with `g`, with a preview as they see it. */
export function GuidelinesForm({ project }: { project: TProjectDetail }) {
  const update = useUpdateSettings(project.id);
  const qc = useQueryClient();
  const [text, setText] = useState(project.guidelines);
  const [saved, setSaved] = useState(false);
  const [preview, setPreview] = useState(false);

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setSaved(false);
    update.mutate(
      { guidelines: text },
      {
        onSuccess: () => {
          setSaved(true);
          // Each save is a revision: the list, the counts and the diff change.
          void qc.invalidateQueries({ queryKey: guidelinesKey(project.id) });
        },
      },
    );
  }

  return (
    <Section
      title="Guidelines"
      id="guidelines"
      description="Markdown. Annotators open it with g, below the grade meanings: give examples of each grade."
    >
      <form onSubmit={onSubmit} aria-label="Guidelines" className="space-y-3">
        <Field label="Guidelines (Markdown)" htmlFor="guidelines">
          <textarea
            id="guidelines"
            name="guidelines"
            rows={10}
            value={text}
            onChange={(e) => setText(e.target.value)}
            className="w-full rounded border border-slate-300 p-2 font-mono text-sm"
            placeholder={'## Grade 3 — exact evidence\n- Q: Who developed BM25? Chunk: "Robertson and Spärck Jones…"'}
          />
        </Field>
        <div className="flex gap-3">
          <SubmitCell className="" pending={update.isPending}>
            Save guidelines
          </SubmitCell>
          <Button type="button" variant="secondary" onClick={() => setPreview((p) => !p)}>
            {preview ? "Hide preview" : "Preview"}
          </Button>
        </div>
      </form>
      <ErrorBox error={update.error} />
      {saved && !update.error ? <Success>Guidelines saved.</Success> : null}
      <GuidelinesPanel open={preview} guidelines={text} onClose={() => setPreview(false)} />
      <GuidelineRevisions projectId={project.id} />
    </Section>
  );
}
