"use client";

import { useState } from "react";
import { useSetGradingClosed, type TProjectDetail } from "@/lib/query/lead";
import { PreviewBox } from "./PoolAssignPreview";
import { Button, ErrorBox, Section, Success } from "./ui";

/**
 * Closing grading (lib/projects/grading.ts): the lead's act that makes every item of the project
 * read-only for its annotators at once. Items do not become final one by one: that would tell an
 * annotator that the peers agreed or that an adjudicator decided (blindness).
 */
export function GradingPanel({ project }: { project: TProjectDetail }) {
  const set = useSetGradingClosed(project.id);
  const [asking, setAsking] = useState<"close" | "reopen" | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const closedAt = project.gradingClosedAt;
  const act = (closed: boolean) =>
    set.mutate(closed, {
      onSuccess: (r) => {
        setAsking(null);
        setDone(
          r.closedAt
            ? `Grading closed: every item of ${project.name} is now read-only for its annotators. Adjudication goes on; export the label set when it is done.`
            : `Grading reopened: annotators of ${project.name} can grade and change their grades again.`,
        );
      },
    });
  return (
    <Section
      title="Grading"
      id="grading"
      description="Closing grading makes every item of this project read-only for its annotators, whatever its state (they see their own grades, nothing else). Grades still waiting in an annotator's browser are refused and shown to them. Adjudication goes on. You can reopen it."
    >
      <p className="text-sm" data-testid="grading-state">
        {closedAt ? (
          <>
            Grading is <span className="font-semibold">closed</span> since {new Date(closedAt).toLocaleString()}.
          </>
        ) : (
          <>
            Grading is <span className="font-semibold">open</span>.
          </>
        )}
      </p>
      {asking === null ? (
        <Button
          className="mt-2"
          variant={closedAt ? "secondary" : "danger"}
          onClick={() => (setDone(null), setAsking(closedAt ? "reopen" : "close"))}
        >
          {closedAt ? "Reopen grading…" : "Close grading…"}
        </Button>
      ) : (
        <PreviewBox
          title={asking === "close" ? "Close grading?" : "Reopen grading?"}
          sentences={
            asking === "close"
              ? [
                  `Every item of ${project.name} becomes read-only for its annotators; items nobody graded stay ungraded.`,
                  "Grades sent after this moment (also from a browser that was offline) are refused and shown to the annotator.",
                  "Assigning is refused until grading is reopened.",
                ]
              : [`Annotators of ${project.name} can grade and change their grades again.`]
          }
          confirmLabel={asking === "close" ? "Close grading" : "Reopen grading"}
          busy={set.isPending}
          onConfirm={() => act(asking === "close")}
          onCancel={() => setAsking(null)}
          cancelLabel="Cancel"
        />
      )}
      <ErrorBox error={set.error} />
      {done && !set.error ? <Success>{done}</Success> : null}
    </Section>
  );
}
