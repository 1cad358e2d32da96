"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { memo, useCallback, useMemo, type ReactNode } from "react";
import type { TJudgeState } from "@/lib/dashboard/judges";
import {
  useDashboardMeta,
  useDashboardProjects,
  useDashboardRefresh,
  type TDashboardFilters,
} from "@/lib/query/dashboard";
import { ApiError } from "@/lib/query/fetcher";
import { dashboardProject } from "@/lib/dashboard/picker";
import { BreakdownsPanel, HumanPanel, JudgePanel } from "./AgreementPanels";
import { PpiPanel } from "./PpiPanel";
import { ChunkingsPanel } from "./ChunkingsPanel";
import { GenerationPanel } from "./GenerationPanel";
import { SystemsPanel } from "./SystemsPanel";
import { CalibrationCard, ProgressCard, RetestCard } from "./StatusCards";
import { ProbesCard } from "./ProbesCard";
import { DecisionsCard } from "./DecisionsCard";
import { AnnotatorsCard } from "./AnnotatorsCard";
import { TrustCard } from "./TrustCard";
import { PanelState } from "./ui";

/**
 * The panels, memoised: the page re-renders when the project list, the meta panel or the label-set
 * version arrives (and on every header change), and each panel then renders again only when its
 * own props changed (filters, judge) or its own query updated — not the whole page's tables and
 * charts on each of those arrivals.
 */
const Calibration = memo(CalibrationCard);
const Progress = memo(ProgressCard);
const Retest = memo(RetestCard);
const Judge = memo(JudgePanel);
const Human = memo(HumanPanel);
const Systems = memo(SystemsPanel);
const Ppi = memo(PpiPanel);
const Chunkings = memo(ChunkingsPanel);
const Generation = memo(GenerationPanel);
const Breakdowns = memo(BreakdownsPanel);
const Decisions = memo(DecisionsCard);
const Annotators = memo(AnnotatorsCard);

const selectClass = "mt-0.5 block max-w-full rounded-md border border-slate-300 bg-white px-2 py-1 text-sm";

function Select({
  label,
  value,
  onChange,
  options,
  name,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (v: string) => void;
  options: { value: string; label: string }[];
}) {
  return (
    <label className="min-w-0 max-w-full text-xs text-slate-600">
      {label}
      <select
        name={name}
        aria-label={label}
        className={selectClass}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The page's bar: its title, then the project picker and the filters. */
function DashboardBar({ children }: { children: ReactNode }) {
  return (
    <header className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-3 shadow-sm">
      <h1 className="mr-2 text-xl font-semibold">Dashboard</h1>
      {children}
    </header>
  );
}

type TChoice = { value: string; label: string };

const SOURCES: TChoice[] = [
  { value: "human", label: "human reference" },
  { value: "judge", label: "judge" },
  { value: "both", label: "both side by side" },
  { value: "ppi", label: "judge + human (PPI)" },
];
const GAINS: TChoice[] = [
  { value: "exponential", label: "exponential (2^g − 1)" },
  { value: "linear", label: "linear (g)" },
];

/** A filter whose first choice is its default: shown when none is set, and left out of the URL when chosen. */
function ChoiceFilter({
  label,
  name,
  value,
  choices,
  set,
}: {
  label: string;
  name: string;
  value: string | undefined;
  choices: TChoice[];
  set: (changes: Record<string, string | undefined>) => void;
}) {
  const first = choices[0]?.value ?? "";
  return (
    <Select
      label={label}
      name={name}
      value={value ?? first}
      onChange={(v) => set({ [name]: v === first ? undefined : v })}
      options={choices}
    />
  );
}

/** A judge as the selector lists it: its labels, and for a partial one its coverage of the pool and its run's status. */
export function judgeOptionLabel(j: TJudgeState): string {
  const share = j.coverage === null ? "no pool" : `${Math.floor(j.coverage * 100)}% of the pool`;
  const status = j.status === "completed" || j.status === "imported" ? "" : `, run ${j.status}`;
  return `${j.name} (${j.labels} labels${j.partial ? `; partial: ${share}${status}` : ""}${j.flagged ? `, ${j.flagged} flagged` : ""})`;
}

/**
 * The dashboard: a header of selectors whose values live in the URL (so a view can be shared and
 * survives a reload, and Back undoes a change: each one is a history entry), then the panels,
 * each fetched on its own through lib/query/dashboard and refetched when the label-set version
 * changes (useDashboardRefresh polls it while the page is open).
 */
export function DashboardPage({ canSample }: { canSample: boolean }) {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const projects = useDashboardProjects();
  const projectParam = params.get("project");
  const { projectId: shown, fromUrl } = dashboardProject(projectParam, projects.data);
  const meta = useDashboardMeta(shown);
  const { missing } = dashboardProject(
    projectParam,
    projects.data,
    meta.error instanceof ApiError ? meta.error.status : undefined,
  );
  const projectId = missing ? null : shown;
  useDashboardRefresh(projectId);

  const filters: TDashboardFilters = useMemo(() => {
    const source = params.get("source");
    const gain = params.get("gain");
    return {
      judge: params.get("judge") ?? undefined,
      source: source === "judge" || source === "both" || source === "ppi" ? source : "human",
      tag: params.get("tag") ?? undefined,
      system: params.get("system") ?? undefined,
      baseline: params.get("baseline") ?? undefined,
      gain: gain === "linear" ? "linear" : "exponential",
      delta: params.get("delta") ?? undefined,
      halfWidth: params.get("halfWidth") ?? undefined,
    };
  }, [params]);

  const set = useCallback(
    (changes: Record<string, string | undefined>) => {
      const next = new URLSearchParams(params.toString());
      for (const [k, v] of Object.entries(changes)) {
        if (v) next.set(k, v);
        else next.delete(k);
      }
      router.push(`${pathname}?${next.toString()}`, { scroll: false });
    },
    [params, pathname, router],
  );
  const openSlice = useCallback(
    (kind: "tag" | "system", slice: string) => {
      set(kind === "tag" ? { tag: slice, system: undefined } : { system: slice, tag: undefined });
      window.scrollTo({ top: 0 });
    },
    [set],
  );

  // With the project in the URL the panels load at once, beside the project list (not after it).
  if (!fromUrl && projects.isPending) return <PanelState isPending />;
  if (!fromUrl && projects.error) return <PanelState error={projects.error} />;
  if (missing)
    return (
      <div className="space-y-4">
        <DashboardBar>
          <Select
            label="Project"
            name="project"
            value=""
            onChange={(v) => v && router.push(`${pathname}?project=${v}`)}
            options={[
              { value: "", label: "choose a project" },
              ...(projects.data ?? []).map((p) => ({ value: String(p.id), label: p.name })),
            ]}
          />
        </DashboardBar>
        <p
          role="alert"
          data-testid="project-missing"
          className="rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900"
        >
          Project {projectParam} does not exist (it may have been deleted).
          {projects.data?.length
            ? " Choose one of the projects above."
            : " Create one with npx assessor project create NAME."}
        </p>
      </div>
    );
  if (!projectId)
    return (
      <PanelState empty="no project yet: create one with npx assessor project create NAME (or run npm run demo)" />
    );
  const m = meta.data;
  const judge = filters.judge ?? m?.defaultJudge ?? null;

  return (
    <div className="space-y-4">
      <DashboardBar>
        <Select
          label="Project"
          name="project"
          value={String(projectId)}
          onChange={(v) => router.push(`${pathname}?project=${v}`)}
          options={(projects.data ?? [{ id: projectId, name: m?.project.name ?? `project ${projectId}` }]).map((p) => ({
            value: String(p.id),
            label: p.name,
          }))}
        />
        <Select
          label="Judge"
          name="judge"
          value={judge ?? ""}
          onChange={(v) => set({ judge: v || undefined })}
          options={
            m?.judges.length
              ? m.judges.map((j) => ({ value: j.name, label: judgeOptionLabel(j) }))
              : [{ value: "", label: "no judge yet" }]
          }
        />
        <ChoiceFilter label="Label source" name="source" value={filters.source} choices={SOURCES} set={set} />
        <ChoiceFilter
          label="Slice: query tag"
          name="tag"
          value={filters.tag}
          choices={[{ value: "", label: "all queries" }, ...(m?.tags ?? []).map((t) => ({ value: t, label: t }))]}
          set={set}
        />
        <ChoiceFilter
          label="Slice: system"
          name="system"
          value={filters.system}
          choices={[
            { value: "", label: "all items" },
            ...(m?.runs ?? []).map((r) => ({ value: r.system, label: `pooled from ${r.system}` })),
          ]}
          set={set}
        />
        <Select
          label="Baseline run"
          name="baseline"
          value={filters.baseline ?? m?.runs[0]?.system ?? ""}
          onChange={(v) => set({ baseline: v || undefined })}
          options={(m?.runs ?? []).map((r) => ({ value: r.system, label: r.system }))}
        />
        <ChoiceFilter label="nDCG gain" name="gain" value={filters.gain} choices={GAINS} set={set} />
        {m ? (
          <span className="ml-auto text-xs text-slate-600" data-testid="dashboard-summary">
            {m.project.name} · {m.humanLabels} human labels
          </span>
        ) : null}
      </DashboardBar>
      <PanelState error={meta.error} />
      <JudgeNote judge={m?.judges.find((j) => j.name === judge)} chosen={filters.judge !== undefined} />
      <InjectionNote judge={m?.judges.find((j) => j.name === judge)} />
      <div className="grid gap-4 lg:grid-cols-2">
        <Calibration projectId={projectId} filters={filters} canSample={canSample} />
        <Progress projectId={projectId} />
      </div>
      <Decisions projectId={projectId} canSample={canSample} />
      <div className="grid gap-4 xl:grid-cols-2">
        <Judge projectId={projectId} filters={filters} judge={judge} />
        <Human projectId={projectId} filters={filters} />
      </div>
      <Retest projectId={projectId} />
      {canSample ? <ProbesCard projectId={projectId} /> : null}
      {canSample ? <TrustCard projectId={projectId} filters={filters} /> : null}
      <Annotators projectId={projectId} judge={judge ?? undefined} />
      {/* The PPI source shows the PPI card in the systems table's place (it has the human and judge intervals beside each PPI one). */}
      {filters.source === "ppi" ? null : <Systems projectId={projectId} filters={filters} />}
      <Ppi projectId={projectId} filters={filters} onAdvisor={set} />
      <Chunkings projectId={projectId} filters={filters} />
      <Generation projectId={projectId} filters={filters} />
      <Breakdowns projectId={projectId} filters={filters} onOpen={openSlice} />
    </div>
  );
}

/** Why the shown judge is shown, and a warning when its labels cover only part of the pool (its figures then rest on fewer pairs). */
function JudgeNote({ judge, chosen }: { judge: TJudgeState | undefined; chosen: boolean }) {
  if (!judge) return null;
  const share =
    judge.coverage === null
      ? ""
      : ` (${judge.pooled} of ${judge.poolItems} pool items, ${Math.floor(judge.coverage * 100)}%)`;
  if (judge.partial)
    return (
      <p
        role="note"
        data-testid="judge-partial"
        className="rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900"
      >
        Judge {judge.name} is partial:{" "}
        {judge.status === "completed" || judge.status === "imported"
          ? "its labels cover part of the pool"
          : `its run is ${judge.status}`}
        {share}. Its system figures rest on missing labels;{" "}
        {chosen ? "pick a complete judge for them." : "no judge covers the whole pool yet."}
      </p>
    );
  return (
    <p data-testid="judge-default" className="text-xs text-slate-600">
      Judge {judge.name}: {chosen ? "chosen" : "the most recent complete judge (the default)"}
      {share}
      {judge.at
        ? `, ${judge.status === "imported" ? "imported" : "finished"} ${new Date(judge.at).toLocaleString()}`
        : ""}
      .
    </p>
  );
}

/** The selected judge's labels whose chunk reads like instructions to a model (lib/judge/injection.ts): its grades there may have been steered. */
function InjectionNote({ judge }: { judge: { name: string; flagged: number } | undefined }) {
  if (!judge?.flagged) return null;
  return (
    <p
      role="note"
      data-testid="judge-injection"
      className="rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900"
    >
      Judge {judge.name}: {judge.flagged} pair(s) flagged as possible prompt injection (the chunk reads like
      instructions to a model). Their judge grades may have been steered: check them against human labels.
    </p>
  );
}
