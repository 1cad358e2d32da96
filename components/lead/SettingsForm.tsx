"use client";

import { useState, type FormEvent } from "react";
import type { TProjectDetail } from "@/lib/query/lead";
import { useUpdateSettings } from "@/lib/query/lead";
import { Button, ErrorBox, Field, Section, Success, inputClass } from "./ui";

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
        <Field label="Pool depth" htmlFor="poolDepth" hint="Top K of every run per query">
          <input id="poolDepth" name="poolDepth" type="number" min={1} max={1000} defaultValue={project.poolDepth} className={inputClass} required />
        </Field>
        <Field label="Annotators per item" htmlFor="annotatorsPerItem">
          <input id="annotatorsPerItem" name="annotatorsPerItem" type="number" min={1} max={10} defaultValue={project.annotatorsPerItem} className={inputClass} required />
        </Field>
        <Field label="Disagreement rule" htmlFor="disagreementRule">
          <select id="disagreementRule" name="disagreementRule" defaultValue={project.disagreementRule} className={inputClass}>
            {RULES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Start tolerance (seconds)" htmlFor="startToleranceSeconds" hint="Corrected starts this close agree">
          <input id="startToleranceSeconds" name="startToleranceSeconds" type="number" min={0} max={3600} step="any" defaultValue={project.startToleranceSeconds} className={inputClass} required />
        </Field>
        <Field label="Calibration target" htmlFor="calibrationTarget" hint="Human-labelled items wanted for judge calibration">
          <input id="calibrationTarget" name="calibrationTarget" type="number" min={1} defaultValue={project.calibrationTarget} className={inputClass} required />
        </Field>
        <Field label="Minimum examples per grade" htmlFor="minPerGrade">
          <input id="minPerGrade" name="minPerGrade" type="number" min={0} defaultValue={project.minPerGrade} className={inputClass} required />
        </Field>
        <div className="sm:col-span-3">
          <Button type="submit" disabled={update.isPending}>
            Save settings
          </Button>
        </div>
      </form>
      <ErrorBox error={update.error} />
      {saved && !update.error ? <Success>Settings saved.</Success> : null}
    </Section>
  );
}
