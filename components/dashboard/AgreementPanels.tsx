"use client";

import type { TAgreementBlock } from "@/lib/dashboard/agreement";
import { useBreakdowns, useHumanAgreement, useJudgeAgreement, type TDashboardFilters } from "@/lib/query/dashboard";
import type { AgreementReport } from "@/lib/stats/agreement/report";
import { CiBars, ConfusionHeatmap, PerGradeBars } from "./AgreementCharts";
import { DataTable, fmt, type TColumnDef } from "./DataTable";
import { Card, Ci, PanelState } from "./ui";

type Ci2 = { low: number; high: number } | null;
type TStatRow = { stat: string; value: number | null; ci: Ci2 };

/** Every figure of one agreement report as rows (what the CSV holds). */
export function reportRows(r: AgreementReport): TStatRow[] {
  const b = r.ci.bootstrap;
  return [
    { stat: "n (aligned pairs)", value: r.n, ci: null },
    { stat: "kappa unweighted", value: r.kappa.unweighted, ci: b?.kappa_unweighted ?? null },
    { stat: "kappa linear", value: r.kappa.linear, ci: b?.kappa_linear ?? null },
    { stat: "kappa quadratic", value: r.kappa.quadratic, ci: b?.kappa_quadratic ?? null },
    { stat: "raw agreement", value: r.raw_agreement, ci: b?.raw_agreement ?? null },
    { stat: "within one", value: r.within_one, ci: b?.within_one ?? null },
    { stat: "leniency (other − human)", value: r.leniency, ci: null },
    { stat: "alpha ordinal", value: r.alpha_ordinal, ci: b?.alpha_ordinal ?? null },
    { stat: "binary ≥1 agreement", value: r.binary.ge1.agreement, ci: null },
    { stat: "binary ≥1 kappa", value: r.binary.ge1.kappa, ci: null },
    { stat: "binary ≥2 agreement", value: r.binary.ge2.agreement, ci: null },
    { stat: "binary ≥2 kappa", value: r.binary.ge2.kappa, ci: null },
    ...["0", "1", "2", "3"].flatMap((g) => [
      { stat: `grade ${g} precision`, value: r.per_grade[g]?.precision ?? null, ci: null },
      { stat: `grade ${g} recall`, value: r.per_grade[g]?.recall ?? null, ci: null },
    ]),
  ];
}

const statColumns: TColumnDef<TStatRow>[] = [
  { key: "stat", header: "Statistic", value: (r) => r.stat },
  {
    key: "value",
    header: "Value",
    value: (r) => r.value,
    render: (r) => (r.stat.startsWith("n ") ? String(r.value) : fmt(r.value)),
  },
  { key: "low", header: "95% CI low", value: (r) => r.ci?.low ?? null },
  { key: "high", header: "95% CI high", value: (r) => r.ci?.high ?? null },
];

function slug(s: string) {
  return s.replace(/[^A-Za-z0-9_-]+/g, "-");
}

function ReportDetail({
  block,
  otherLabel,
  idPrefix,
}: {
  block: TAgreementBlock;
  otherLabel: string;
  idPrefix: string;
}) {
  const r = block.report;
  if (!r) return <PanelState empty={block.empty} />;
  return (
    <div className="space-y-3">
      <p className="text-sm">
        n = <strong>{r.n}</strong> · quadratic κ <strong data-stat="kappa-quadratic">{fmt(r.kappa.quadratic)}</strong>
        <Ci ci={r.ci.bootstrap?.kappa_quadratic} /> · leniency <strong>{fmt(r.leniency, 2)}</strong>{" "}
        <span className="text-xs text-slate-500">
          {r.leniency === null
            ? ""
            : r.leniency > 0.05
              ? `(${otherLabel} grades more generously)`
              : r.leniency < -0.05
                ? `(${otherLabel} grades more strictly)`
                : "(no lean)"}
        </span>
      </p>
      {r.kappa.reason ? <p className="text-xs text-amber-800">{r.kappa.reason}</p> : null}
      <div className="flex flex-wrap items-start gap-4">
        <ConfusionHeatmap
          confusion={r.confusion}
          otherLabel={otherLabel}
          csvName={`${idPrefix}-${slug(block.name)}-confusion.csv`}
        />
        <PerGradeBars perGrade={r.per_grade} />
        <CiBars
          items={[
            { name: "κ", value: r.kappa.unweighted, ci: r.ci.bootstrap?.kappa_unweighted ?? null },
            { name: "κ lin", value: r.kappa.linear, ci: r.ci.bootstrap?.kappa_linear ?? null },
            { name: "κ quad", value: r.kappa.quadratic, ci: r.ci.bootstrap?.kappa_quadratic ?? null },
            { name: "raw", value: r.raw_agreement, ci: r.ci.bootstrap?.raw_agreement ?? null },
          ]}
        />
      </div>
      <details>
        <summary className="cursor-pointer text-xs text-indigo-700">All figures</summary>
        <DataTable
          id={`${idPrefix}-${slug(block.name)}`}
          caption={`${block.name} statistics`}
          columns={statColumns}
          rows={reportRows(r)}
          csvName={`${idPrefix}-${slug(block.name)}.csv`}
        />
      </details>
    </div>
  );
}

type TJudgeRow = { name: string; r: AgreementReport | null; empty: string | null };
const judgeColumns: TColumnDef<TJudgeRow>[] = [
  { key: "name", header: "Judge", value: (j) => j.name },
  { key: "n", header: "n", value: (j) => j.r?.n ?? 0, render: (j) => String(j.r?.n ?? 0) },
  { key: "ku", header: "κ", value: (j) => j.r?.kappa.unweighted ?? null },
  { key: "kl", header: "κ linear", value: (j) => j.r?.kappa.linear ?? null },
  {
    key: "kq",
    header: "κ quadratic",
    value: (j) => j.r?.kappa.quadratic ?? null,
    render: (j) => (
      <>
        {fmt(j.r?.kappa.quadratic)}
        <Ci ci={j.r?.ci.bootstrap?.kappa_quadratic} />
      </>
    ),
  },
  { key: "kq_low", header: "κ quad CI low", value: (j) => j.r?.ci.bootstrap?.kappa_quadratic?.low ?? null },
  { key: "kq_high", header: "κ quad CI high", value: (j) => j.r?.ci.bootstrap?.kappa_quadratic?.high ?? null },
  { key: "raw", header: "raw agreement", value: (j) => j.r?.raw_agreement ?? null },
  { key: "len", header: "leniency", value: (j) => j.r?.leniency ?? null },
  { key: "b1", header: "≥1 agr", value: (j) => j.r?.binary.ge1.agreement ?? null },
  { key: "b1k", header: "≥1 κ", value: (j) => j.r?.binary.ge1.kappa ?? null },
  { key: "b2", header: "≥2 agr", value: (j) => j.r?.binary.ge2.agreement ?? null },
  { key: "b2k", header: "≥2 κ", value: (j) => j.r?.binary.ge2.kappa ?? null },
];

// Interval bounds sit inside the κ cell on screen and get columns of their own in the CSV.
const judgeScreenColumns = judgeColumns.filter((c) => c.key !== "kq_low" && c.key !== "kq_high");

export function JudgePanel({
  projectId,
  filters,
  judge,
}: {
  projectId: number;
  filters: TDashboardFilters;
  judge: string | null;
}) {
  const q = useJudgeAgreement(projectId, filters);
  const d = q.data;
  // The page passes the chosen judge or the default (meta); none while that is loading.
  const selected = d?.judges.find((j) => j.name === judge);
  return (
    <Card
      title="Judge vs human"
      id="judge"
      description="On items with both a final human label (agreed, adjudicated or imported) and a judge label. 95% intervals: bootstrap over queries (1,000 resamples, seed 1)."
    >
      <PanelState isPending={q.isPending} error={q.error} empty={d?.empty} />
      {d && d.judges.length > 0 ? (
        <div className="space-y-4">
          <DataTable
            id="judges-table"
            caption="judges side by side"
            columns={judgeScreenColumns}
            csvColumns={judgeColumns}
            rows={d.judges.map((j) => ({ name: j.name, r: j.report, empty: j.empty }))}
            csvName="judges.csv"
          />
          {selected ? (
            <div>
              <h3 className="mb-2 text-sm font-semibold">Judge {selected.name}</h3>
              <ReportDetail block={selected} otherLabel="judge" idPrefix="judge" />
            </div>
          ) : null}
        </div>
      ) : null}
    </Card>
  );
}

export function HumanPanel({ projectId, filters }: { projectId: number; filters: TDashboardFilters }) {
  const q = useHumanAgreement(projectId, filters);
  const d = q.data;
  return (
    <Card
      title="Human vs human"
      id="human"
      description="Items graded by two annotators: the ceiling to read the judge's figures against."
    >
      <PanelState isPending={q.isPending} error={q.error} empty={d?.empty} />
      {d && !d.empty ? (
        <div className="space-y-3">
          <p className="text-sm">
            {d.items} items · Krippendorff&apos;s α (ordinal, all annotators) <strong>{fmt(d.alphaAllRaters)}</strong>
          </p>
          <ReportDetail block={d.overall} otherLabel="second" idPrefix="human" />
          <DataTable
            id="pairs-table"
            caption="annotator pairs"
            columns={judgeScreenColumns.map((c) => (c.key === "name" ? { ...c, header: "Pair" } : c))}
            csvColumns={judgeColumns.map((c) => (c.key === "name" ? { ...c, header: "Pair" } : c))}
            rows={d.pairs.map((p) => ({ name: p.name, r: p.report, empty: p.empty }))}
            csvName="annotator-pairs.csv"
          />
        </div>
      ) : null}
    </Card>
  );
}

type TBreakRow = {
  kind: "tag" | "system";
  slice: string;
  judge: AgreementReport | null;
  human: AgreementReport | null;
};
type TBreakSide = "judge" | "human";

/** Columns of the breakdowns table; the slice opens every panel on that slice (the URL filter). */
function breakColumns(onOpen: (kind: "tag" | "system", slice: string) => void): TColumnDef<TBreakRow>[] {
  return [
    { key: "kind", header: "By", value: (r) => r.kind },
    {
      key: "slice",
      header: "Slice",
      value: (r) => r.slice,
      render: (r) => (
        <button
          type="button"
          className="text-indigo-700 underline"
          title={`every panel on ${r.kind} ${r.slice}`}
          onClick={() => onOpen(r.kind, r.slice)}
        >
          {r.slice}
        </button>
      ),
    },
    { key: "jn", header: "judge n", value: (r) => r.judge?.n ?? 0, render: (r) => String(r.judge?.n ?? 0) },
    {
      key: "jkq",
      header: "judge κ quad",
      value: (r) => r.judge?.kappa.quadratic ?? null,
      render: (r) => (
        <>
          {fmt(r.judge?.kappa.quadratic ?? null)}
          <Ci ci={r.judge?.ci.bootstrap?.kappa_quadratic} />
        </>
      ),
    },
    { key: "jraw", header: "judge raw", value: (r) => r.judge?.raw_agreement ?? null },
    { key: "jlen", header: "judge leniency", value: (r) => r.judge?.leniency ?? null },
    { key: "hn", header: "human n", value: (r) => r.human?.n ?? 0, render: (r) => String(r.human?.n ?? 0) },
    {
      key: "hkq",
      header: "human κ quad",
      value: (r) => r.human?.kappa.quadratic ?? null,
      render: (r) => (
        <>
          {fmt(r.human?.kappa.quadratic ?? null)}
          <Ci ci={r.human?.ci.bootstrap?.kappa_quadratic} />
        </>
      ),
    },
    { key: "hraw", header: "human raw", value: (r) => r.human?.raw_agreement ?? null },
  ];
}

/**
 * The breakdowns CSV: every figure of both reports per slice (the table shows a few), named after
 * reportRows, each interval as a low and a high column.
 */
function breakCsvColumns(rows: TBreakRow[]): TColumnDef<TBreakRow>[] {
  const statsOf = new WeakMap<AgreementReport, Map<string, TStatRow>>();
  const stat = (report: AgreementReport | null, name: string): TStatRow | null => {
    if (!report) return null;
    let m = statsOf.get(report);
    if (!m) statsOf.set(report, (m = new Map(reportRows(report).map((x) => [x.stat, x]))));
    return m.get(name) ?? null;
  };
  // The same columns on both sides, whichever side has reports (a side without any is empty).
  const sample = rows.find((r) => r.judge)?.judge ?? rows.find((r) => r.human)?.human;
  const side = (which: TBreakSide): TColumnDef<TBreakRow>[] => {
    if (!sample) return [];
    return reportRows(sample).flatMap((x) => [
      {
        key: `${which} ${x.stat}`,
        header: `${which} ${x.stat}`,
        value: (r: TBreakRow) => stat(r[which], x.stat)?.value ?? null,
      },
      ...(x.ci
        ? [
            {
              key: `${which} ${x.stat} low`,
              header: `${which} ${x.stat} 95% CI low`,
              value: (r: TBreakRow) => stat(r[which], x.stat)?.ci?.low ?? null,
            },
            {
              key: `${which} ${x.stat} high`,
              header: `${which} ${x.stat} 95% CI high`,
              value: (r: TBreakRow) => stat(r[which], x.stat)?.ci?.high ?? null,
            },
          ]
        : []),
    ]);
  };
  return [
    { key: "kind", header: "by", value: (r) => r.kind },
    { key: "slice", header: "slice", value: (r) => r.slice },
    ...side("judge"),
    ...side("human"),
  ];
}

export function BreakdownsPanel({
  projectId,
  filters,
  onOpen,
}: {
  projectId: number;
  filters: TDashboardFilters;
  onOpen: (kind: "tag" | "system", slice: string) => void;
}) {
  const q = useBreakdowns(projectId, filters);
  const d = q.data;
  const rows: TBreakRow[] = d
    ? d.rows.map((r) => ({ kind: r.kind, slice: r.slice, judge: r.judge?.report ?? null, human: r.human.report }))
    : [];
  return (
    <Card
      title="Breakdowns"
      id="breakdowns"
      description={`Judge${d?.judge ? ` ${d.judge}` : ""} vs human and human vs human, by query tag and by system (the pool items each run contributed).`}
    >
      <PanelState
        isPending={q.isPending}
        error={q.error}
        empty={
          d && d.rows.length === 0
            ? "no query tags and no runs yet: import queries with tags and runs to break the figures down"
            : null
        }
      />
      {rows.length > 0 ? (
        <>
          <p className="text-xs text-slate-500">
            A slice&apos;s name opens every panel on that slice; the CSV holds every figure of both reports.
          </p>
          <DataTable
            id="breakdowns-table"
            caption="breakdowns"
            columns={breakColumns(onOpen)}
            rows={rows}
            csvName="breakdowns.csv"
            csvColumns={breakCsvColumns(rows)}
          />
        </>
      ) : null}
    </Card>
  );
}
