"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useCreateProject, useProjects } from "@/lib/query/lead";
import { Button, ErrorBox, Field, Section, inputClass } from "./ui";
import { ScrollRegion } from "@/components/shell/ScrollRegion";

export function ProjectsPage() {
  const projects = useProjects();
  const create = useCreateProject();
  const [name, setName] = useState("");
  const router = useRouter();

  // A new project opens at once: its page starts with the settings and guidelines.
  function onSubmit(e: FormEvent) {
    e.preventDefault();
    create.mutate(name, { onSuccess: (p) => router.push(`/lead/projects/${p.id}`) });
  }

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Projects</h1>
      <Section title="All projects" id="projects">
        {projects.isPending ? <p>Loading…</p> : null}
        <ErrorBox error={projects.error} />
        {projects.data && projects.data.length === 0 ? (
          <p className="text-slate-600">No project yet: create one below.</p>
        ) : null}
        {projects.data && projects.data.length > 0 ? (
          <ScrollRegion label="Projects">
            <table className="w-full text-left text-sm">
              <thead className="text-slate-500">
                <tr>
                  <th className="py-1">Name</th>
                  <th>Videos</th>
                  <th>Chunks</th>
                  <th>Queries</th>
                  <th>Runs</th>
                  <th>Pool items</th>
                </tr>
              </thead>
              <tbody>
                {projects.data.map((p) => (
                  <tr key={p.id} className="border-t border-slate-100">
                    <td className="py-1.5">
                      <Link href={`/lead/projects/${p.id}`} className="font-medium text-indigo-700 underline">
                        {p.name}
                      </Link>
                    </td>
                    <td>{p.counts.videos}</td>
                    <td>{p.counts.chunks}</td>
                    <td>{p.counts.queries}</td>
                    <td>{p.counts.runs}</td>
                    <td>{p.counts.poolItems}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        ) : null}
      </Section>
      <Section title="New project" id="new-project">
        <form onSubmit={onSubmit} className="flex items-end gap-3">
          <div className="w-80">
            <Field label="Project name" htmlFor="new-project-name">
              <input
                id="new-project-name"
                className={inputClass}
                value={name}
                onChange={(e) => setName(e.target.value)}
                required
              />
            </Field>
          </div>
          <Button type="submit" disabled={create.isPending || name.trim() === ""}>
            Create project
          </Button>
        </form>
        <ErrorBox error={create.error} />
      </Section>
    </div>
  );
}
