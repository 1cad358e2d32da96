"use client";

import Link from "next/link";
import { useProject, useStatus } from "@/lib/query/lead";
import { AssignPanel, PoolPanel } from "./PoolAssignPanel";
import { ExportsPanel } from "./ExportsPanel";
import { FusePanel } from "./FusePanel";
import { ImportPanel } from "./ImportPanel";
import { JudgePanel } from "./JudgePanel";
import { ProgressTable } from "./ProgressTable";
import { SettingsForm } from "./SettingsForm";
import { GuidelinesForm } from "./GuidelinesForm";
import { ErrorBox, Section } from "./ui";
import { DeleteProjectPanel, RunsAndChunksPanel } from "./DataPanel";
import { ChunkingsPanel } from "./ChunkingsPanel";
import { ProjectNav } from "./ProjectNav";
import { FlagsPanel } from "./FlagsPanel";
import { GradingPanel } from "./GradingPanel";

function StatusCounts({ projectId }: { projectId: number }) {
  const status = useStatus(projectId);
  return (
    <Section title="Status" id="status" description="Pool items per stage.">
      <ErrorBox error={status.error} />
      {status.data ? (
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-6">
          {Object.entries(status.data).map(([stage, n]) => (
            <div key={stage} className="rounded-md bg-slate-50 p-2">
              <dt className="text-xs text-slate-500">{stage.replaceAll("_", " ")}</dt>
              <dd className="text-lg font-semibold" data-stage={stage}>
                {n}
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
    </Section>
  );
}

export function ProjectPage({ projectId }: { projectId: number }) {
  const project = useProject(projectId);
  if (project.isPending) return <p>Loading…</p>;
  if (project.error) return <ErrorBox error={project.error} />;
  const p = project.data;
  return (
    <div className="space-y-6">
      <div>
        <Link href="/lead" className="text-sm text-indigo-700 underline">
          ← Projects
        </Link>
        <h1 className="mt-1 text-2xl font-semibold">{p.name}</h1>
        <Link href={`/lead/projects/${p.id}/questions`} className="text-sm text-indigo-700 underline">
          Review questions
        </Link>
      </div>
      <ProjectNav gradingClosed={p.gradingClosedAt !== null} />
      <StatusCounts projectId={p.id} />
      {/* The order of work: settings and guidelines, imports, pool, assign, judge, exports. */}
      <SettingsForm project={p} />
      <GuidelinesForm project={p} />
      <ImportPanel projectId={p.id} />
      <ChunkingsPanel projectId={p.id} />
      <RunsAndChunksPanel projectId={p.id} />
      <FusePanel project={p} />
      <PoolPanel project={p} />
      <AssignPanel project={p} />
      <ProgressTable projectId={p.id} />
      <FlagsPanel projectId={p.id} />
      <GradingPanel project={p} />
      <JudgePanel projectId={p.id} />
      <ExportsPanel projectId={p.id} />
      <DeleteProjectPanel projectId={p.id} name={p.name} />
    </div>
  );
}
