"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useDeleteProject, useDeleteRun, useRuns } from "@/lib/query/lead";
import { Button, ErrorBox, inputClass, ListTable, Section, Success } from "./ui";

const fmt = (n: number) => n.toLocaleString("en-US");

/** Runs listed in full, each deletable after a confirmation; the chunks as a download. */
export function RunsAndChunksPanel({ projectId }: { projectId: number }) {
  const runs = useRuns(projectId);
  const del = useDeleteRun(projectId);
  const [confirming, setConfirming] = useState<string | null>(null);
  return (
    <Section
      title="Runs and chunks"
      id="data"
      description="Everything imported, in full. Deleting a run keeps the pool items it brought and their labels."
    >
      <ErrorBox error={runs.error ?? del.error} />
      {del.data ? (
        <Success>
          Deleted run {del.data.system} ({fmt(del.data.entries)} entries). Its pool items and their labels stay.
        </Success>
      ) : null}
      <ListTable
        items={runs.data}
        label="Runs"
        empty="No runs yet: import one above."
        headers={[
          "System",
          "Entries",
          "Questions",
          "Pooled",
          "Imported",
          <span key="actions" className="sr-only">
            Actions
          </span>,
        ]}
        row={(r) => (
          <tr key={r.id} className="border-t border-slate-100" data-run={r.system}>
            <td className="py-1 pr-3 font-medium">
              {r.system}
              {r.description ? <span className="block text-xs font-normal text-slate-600">{r.description}</span> : null}
            </td>
            <td className="py-1 pr-3">{fmt(r.entries)}</td>
            <td className="py-1 pr-3">{fmt(r.queries)}</td>
            <td className="py-1 pr-3">{fmt(r.pooled)}</td>
            <td className="py-1 pr-3">{new Date(r.createdAt).toLocaleString()}</td>
            <td className="py-1 text-right">
              {confirming === r.system ? (
                <span className="inline-flex gap-2">
                  <Button
                    variant="danger"
                    disabled={del.isPending}
                    onClick={() => del.mutate(r.system, { onSettled: () => setConfirming(null) })}
                  >
                    Delete {r.system}
                  </Button>
                  <Button variant="secondary" onClick={() => setConfirming(null)}>
                    Keep
                  </Button>
                </span>
              ) : (
                <Button variant="secondary" onClick={() => setConfirming(r.system)}>
                  Delete…
                </Button>
              )}
            </td>
          </tr>
        )}
      />
      <p className="mt-3 text-sm">
        <a href={`/api/lead/projects/${projectId}/chunks`} download className="font-medium text-indigo-700 underline">
          Download chunks (JSONL)
        </a>{" "}
        <span className="text-slate-600">
          id, video, start, end, text: what an indexer reads, and what the chunk import takes back.
        </span>
      </p>
    </Section>
  );
}

/** Deleting the whole project: the name typed as confirmation; human labels need an explicit choice. */
export function DeleteProjectPanel({ projectId, name }: { projectId: number; name: string }) {
  const del = useDeleteProject(projectId);
  const router = useRouter();
  const [typed, setTyped] = useState("");
  const [force, setForce] = useState(false);
  const details = (del.error as { details?: { contents?: unknown } } | null)?.details;
  const holdsLabels = Boolean(details && typeof details === "object" && "contents" in details);
  return (
    <Section
      title="Delete project"
      id="delete"
      description="Deletes the project and everything in it. A project holding human labels is only deleted when you ask for it, after its reference label set is written to a backup on the server."
    >
      <form
        className="space-y-2"
        onSubmit={(e) => {
          e.preventDefault();
          // mutateAsync: the navigation happens even if this panel is gone by the time the delete answers.
          del.mutateAsync({ confirm: typed, force }).then(
            () => router.push("/lead"),
            () => undefined, // shown by ErrorBox from the mutation's state
          );
        }}
      >
        <label htmlFor="delete-confirm" className="block text-sm font-medium">
          Type the project&apos;s name, {name}, to confirm
        </label>
        <input
          id="delete-confirm"
          className={`${inputClass} max-w-sm`}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          autoComplete="off"
        />
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} />
          Also delete human labels (grades, adjudications, imported reference labels), after writing a backup
        </label>
        <Button type="submit" variant="danger" disabled={typed !== name || del.isPending}>
          Delete project
        </Button>
      </form>
      <ErrorBox error={del.error} />
      {holdsLabels && !force ? (
        <p className="mt-2 text-sm text-slate-700">
          Tick the box above to delete it anyway: the labels are written to a backup first.
        </p>
      ) : null}
    </Section>
  );
}
