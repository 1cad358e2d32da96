"use client";

import { useState, type FormEvent } from "react";
import type { TProjectDetail } from "@/lib/query/lead";
import { useUpdateSettings } from "@/lib/query/lead";
import { ErrorBox, InputField, perItemInput, poolDepthInput, Section, SelectField, SubmitCell, Success } from "./ui";

const RULES = [
  { value: "any_difference", label: "Any grade difference" },
  { value: "distance_two", label: "Grades 2 or more apart" },
  { value: "relevance_threshold", label: "One says relevant (≥1), the other not" },
] as const;

export function SettingsForm({ project }: { project: TProjectDetail }) {
  const update = useUpdateSettings(project.id);
  const [saved, setSaved] = useState(false);

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    setSaved(false);
    update.mutate(
      {
        poolDepth: Number(f.get("poolDepth")),
        annotatorsPerItem: Number(f.get("annotatorsPerItem")),
        disagreementRule: String(f.get("disagreementRule")) as TProjectDetail["disagreementRule"],
        startToleranceSeconds: Number(f.get("startToleranceSeconds")),
        calibrationTarget: Number(f.get("calibrationTarget")),
        minPerGrade: Number(f.get("minPerGrade")),
      },
      { onSuccess: () => setSaved(true) },
    );
  }

  return (
    <Section title="Settings" id="settings">
      <form onSubmit={onSubmit} className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <InputField
          label="Pool depth"
          id="poolDepth"
          name="poolDepth"
          hint="Top K of every run per query"
          {...poolDepthInput(project)}
        />
        <InputField
          label="Annotators per item"
          id="annotatorsPerItem"
          name="annotatorsPerItem"
          {...perItemInput(project)}
        />
        <SelectField
          label="Disagreement rule"
          id="disagreementRule"
          name="disagreementRule"
          defaultValue={project.disagreementRule}
          options={RULES}
        />
        <InputField
          label="Start tolerance (seconds)"
          id="startToleranceSeconds"
          name="startToleranceSeconds"
          hint="Corrected starts this close agree"
          type="number"
          min={0}
          max={3600}
          step="any"
          defaultValue={project.startToleranceSeconds}
          required
        />
        <InputField
          label="Calibration target"
          id="calibrationTarget"
          name="calibrationTarget"
          hint="Human-labelled items wanted for judge calibration"
          type="number"
          min={1}
          defaultValue={project.calibrationTarget}
          required
        />
        <InputField
          label="Minimum examples per grade"
          id="minPerGrade"
          name="minPerGrade"
          type="number"
          min={0}
          defaultValue={project.minPerGrade}
          required
        />
        <SubmitCell className="sm:col-span-3" pending={update.isPending}>
          Save settings
        </SubmitCell>
      </form>
      <ErrorBox error={update.error} />
      {saved && !update.error ? <Success>Settings saved.</Success> : null}
    </Section>
  );
}
