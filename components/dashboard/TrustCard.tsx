"use client";

import { ReferenceLine, Scatter, ZAxis } from "recharts";
import type { TTrustPanel } from "@/lib/dashboard/trust";
import { confidenceWords } from "@/lib/dashboard/trust-words";
import type { TCalibration } from "@/lib/stats/calibration";
import type { TRankAgreement } from "@/lib/stats/tau-ap";
import { useTrust, type TDashboardFilters } from "@/lib/query/dashboard";
import { ScrollRegion } from "@/components/shell/ScrollRegion";
import { Card, Ci, PanelState } from "./ui";
import { fmt } from "./DataTable";
import { ScatterFrame } from "./ScatterFrame";

/** Reliability diagram: per bin, mean confidence (x) against the share whose human grade reached the threshold (y); the diagonal is perfect calibration. */
function ReliabilityChart({ ge1, ge2 }: { ge1: TCalibration; ge2: TCalibration }) {
  return (
    <ScatterFrame
      width={360}
      x={{ key: "confidence", name: "mean confidence", title: "judge's confidence", domain: [0, 1] }}
      y={{ key: "accuracy", name: "human share" }}
      extra={
        <>
          <ZAxis type="number" dataKey="count" name="pairs" range={[30, 300]} />
          <ReferenceLine
            segment={[
              { x: 0, y: 0 },
              { x: 1, y: 1 },
            ]}
            stroke="#94a3b8"
            strokeDasharray="4 4"
          />
        </>
      }
    >
      <Scatter name="grade ≥ 1" data={ge1.bins} fill="#2563eb" isAnimationActive={false} />
      <Scatter name="grade ≥ 2" data={ge2.bins} fill="#d97706" isAnimationActive={false} />
    </ScatterFrame>
  );
}

function CalibrationPart({ p }: { p: TTrustPanel }) {
  const c = p.calibration;
  if (!c || c.ge1.n === 0)
    return (
      <p className="text-sm text-slate-600" data-testid="trust-calibration-note">
        {p.calibrationNote}
      </p>
    );
  return (
    <div className="flex flex-wrap gap-4">
      <div>
        <p className="mb-1 text-xs text-slate-600">
          Confidence per pair: {confidenceWords(c)}; Brier score and ECE ({c.bins} equal-width bins) against the final
          human label.
        </p>
        <table className="text-sm" data-testid="trust-calibration">
          <thead className="text-left text-xs text-slate-500">
            <tr>
              <th>event</th>
              <th className="px-2 text-right">pairs</th>
              <th className="px-2 text-right">human rate</th>
              <th className="px-2 text-right">Brier</th>
              <th className="px-2 text-right">ECE</th>
            </tr>
          </thead>
          <tbody>
            {(
              [
                ["grade ≥ 1", c.ge1],
                ["grade ≥ 2", c.ge2],
              ] as const
            ).map(([label, x]) => (
              <tr key={label} className="border-t border-slate-100">
                <td>{label}</td>
                <td className="px-2 text-right tabular-nums">{x.n}</td>
                <td className="px-2 text-right tabular-nums">{fmt(x.baseRate)}</td>
                <td className="px-2 text-right tabular-nums">{fmt(x.brier)}</td>
                <td className="px-2 text-right tabular-nums">{fmt(x.ece)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <figure aria-label="Reliability diagram" data-testid="trust-reliability">
        <ReliabilityChart ge1={c.ge1} ge2={c.ge2} />
        <figcaption className="max-w-80 text-[11px] text-slate-600">
          Reliability diagram: one point per bin of confidence, its mean confidence against the share of its pairs the
          people graded at the threshold or above (point size: pairs); the dashed diagonal is perfect calibration.
        </figcaption>
      </figure>
    </div>
  );
}

function RankRow({ label, r }: { label: string; r: TRankAgreement }) {
  return (
    <tr className="border-t border-slate-100">
      <td>{label}</td>
      <td className="px-2 text-right tabular-nums">{r.systems}</td>
      <td className="px-2 text-right tabular-nums">
        {fmt(r.tau)}
        <Ci ci={r.tauInterval} />
      </td>
      <td className="px-2 text-right tabular-nums">
        {fmt(r.tauAp)}
        <Ci ci={r.tauApInterval} />
      </td>
    </tr>
  );
}

function RankingPart({ p }: { p: TTrustPanel }) {
  const r = p.ranking;
  if (!r) return <p className="text-sm text-slate-600">{p.rankingNote}</p>;
  return (
    <div>
      <p className="mb-1 text-xs text-slate-600">
        The systems ranked by {r.label} under the judge&apos;s labels and under the human labels, on the {r.queries}{" "}
        questions both labelled: Kendall τ and symmetric τ_AP, {Math.round(r.level * 100)}% intervals from {r.resamples}{" "}
        resamples of questions. Top half by human score: {r.top.names.join(", ")}.
      </p>
      <table className="text-sm" data-testid="trust-ranking">
        <thead className="text-left text-xs text-slate-500">
          <tr>
            <th>systems</th>
            <th className="px-2 text-right">n</th>
            <th className="px-2 text-right">Kendall τ</th>
            <th className="px-2 text-right">τ_AP</th>
          </tr>
        </thead>
        <tbody>
          <RankRow label="all" r={r.all} />
          <RankRow label="top half" r={r.top} />
        </tbody>
      </table>
    </div>
  );
}

function JuryPart({ p }: { p: TTrustPanel }) {
  const j = p.jury;
  if (!j) return null;
  return (
    <div>
      <h3 className="text-sm font-semibold">Jury and its members</h3>
      <p className="mb-1 text-xs text-slate-600">
        On the same {j.pairs} pairs: those the jury and every member labelled that have a final human label.
      </p>
      <ScrollRegion label="Jury and its members">
        <table className="text-sm" data-testid="trust-jury">
          <thead className="text-left text-xs text-slate-500">
            <tr>
              <th>judge</th>
              <th className="px-2 text-right">n</th>
              <th className="px-2 text-right">κ</th>
              <th className="px-2 text-right">κ linear</th>
              <th className="px-2 text-right">κ quadratic</th>
              <th className="px-2 text-right">leniency</th>
            </tr>
          </thead>
          <tbody>
            {j.rows.map((row) => (
              <tr key={row.judge} className={`border-t border-slate-100 ${row.role === "jury" ? "font-semibold" : ""}`}>
                <td>
                  {row.judge} <span className="text-xs font-normal text-slate-500">({row.role})</span>
                </td>
                <td className="px-2 text-right tabular-nums">{row.report.n}</td>
                <td className="px-2 text-right tabular-nums">
                  {fmt(row.report.kappa.unweighted)}
                  <Ci ci={row.report.ci.bootstrap?.kappa_unweighted} />
                </td>
                <td className="px-2 text-right tabular-nums">
                  {fmt(row.report.kappa.linear)}
                  <Ci ci={row.report.ci.bootstrap?.kappa_linear} />
                </td>
                <td className="px-2 text-right tabular-nums">
                  {fmt(row.report.kappa.quadratic)}
                  <Ci ci={row.report.ci.bootstrap?.kappa_quadratic} />
                </td>
                <td className="px-2 text-right tabular-nums">{fmt(row.report.leniency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </div>
  );
}

/** The Judge trust card (lead only): calibration, ranking agreement, a jury beside its members, and the trust report's download. */
export function TrustCard({ projectId, filters }: { projectId: number; filters: TDashboardFilters }) {
  const q = useTrust(projectId, filters);
  const p = q.data;
  const qs = (format: string) =>
    `/api/dashboard/${projectId}/trust-report?${new URLSearchParams({
      judge: p?.judge ?? "",
      format,
      ...(filters.gain ? { gain: filters.gain } : {}),
    })}`;
  return (
    <Card
      title={p?.judge ? `Judge trust: ${p.judge}` : "Judge trust"}
      id="trust"
      description="How far to trust the judge: how calibrated its confidence is against the people's labels, how it ranks the systems compared with them, and, for a jury, how it compares with its members on the same pairs."
    >
      <PanelState isPending={q.isPending} error={q.error} empty={p?.empty} />
      {p && !p.empty ? (
        <div className="space-y-4">
          <p className="text-xs text-slate-600" data-testid="trust-run">
            {p.run
              ? `Model ${p.run.model}, template sha256 ${p.run.templateSha256.slice(0, 12)}…, ${p.run.samples} sample${p.run.samples === 1 ? "" : "s"} per pair. `
              : "Labels without a run of Assessor (imported, transferred or a jury). "}
            Trust report:{" "}
            <a className="text-blue-700 underline" href={qs("md")} data-testid="trust-report-md">
              Markdown
            </a>{" "}
            ·{" "}
            <a className="text-blue-700 underline" href={qs("json")} data-testid="trust-report-json">
              JSON
            </a>
          </p>
          <CalibrationPart p={p} />
          <RankingPart p={p} />
          <JuryPart p={p} />
        </div>
      ) : null}
    </Card>
  );
}
