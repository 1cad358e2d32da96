import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import type { Command } from "commander";
import type { Db } from "../../lib/db/client.ts";
import { fail, out, projectOption, withProject } from "../context.ts";

/**
 * `assessor judge report RUN --format md|json`: a judge's trust report (lib/judge/report.ts) — model,
 * template hash, the kappa family with intervals beside the human–human ceiling, leniency,
 * calibration, test–retest, ranking agreement, jury vs members, robustness, label counts — and the
 * report's hash that `judge export --format qrels` carries (`attachReport`).
 */
export function registerJudgeReport(judge: Command): void {
  judge
    .command("report <judge>")
    .description(
      "a judge's trust report (a run by id or name, a jury, an imported judge): agreement with the people beside the people's own, leniency, calibration, test–retest, ranking of the systems, jury vs members, robustness, the label counts it rests on, and its sha256",
    )
    .option("--format <format>", "md or json", "md")
    .option("--gain <gain>", "nDCG gain of the ranking agreement: exponential or linear", "exponential")
    .option("--out <file>", "write to a file instead of stdout")
    .addOption(projectOption())
    .action(async (ref: string, o: { format: string; gain: string; out?: string; project?: string }) => {
      if (o.format !== "md" && o.format !== "json") fail(`--format: expected md or json, got "${o.format}"`);
      if (o.gain !== "exponential" && o.gain !== "linear")
        fail(`--gain: expected exponential or linear, got "${o.gain}"`);
      const [{ judgeReport }, { reportMarkdown }] = await Promise.all([
        import("../../lib/judge/report.ts"),
        import("../../lib/judge/report-md.ts"),
      ]);
      await withProject(o.project, async (db, project) => {
        const report = await judgeReport(db, project.id, ref, { gain: o.gain as "exponential" | "linear" });
        const text = o.format === "json" ? `${JSON.stringify(report, null, 2)}\n` : reportMarkdown(report);
        if (o.out) {
          writeFileSync(o.out, text);
          process.stderr.write(`wrote the trust report of ${report.judge} to ${o.out} (sha256 ${report.sha256})\n`);
        } else process.stdout.write(text);
      });
    });
}

/**
 * After `judge export --format qrels`: the judge's trust report travels with the labels — in a
 * sidecar `<file>.report.json` ({ judge, file_sha256, report_sha256, report }) with --out, else
 * as one line on stderr.
 */
export async function attachReport(
  db: Db,
  projectId: number,
  judge: string,
  o: { format: string; out?: string },
): Promise<void> {
  if (o.format !== "qrels") return;
  const [{ judgeReport }, { AppError }] = await Promise.all([
    import("../../lib/judge/report.ts"),
    import("../../lib/errors.ts"),
  ]);
  let report;
  try {
    report = await judgeReport(db, projectId, judge);
  } catch (e) {
    if (!(e instanceof AppError) || e.code !== "not_found") throw e;
    process.stderr.write(`note: no trust report for ${judge}: ${e.message}\n`);
    return;
  }
  if (!o.out) {
    process.stderr.write(`trust report sha256 ${report.sha256} (npx assessor judge report ${judge})\n`);
    return;
  }
  const fileSha256 = createHash("sha256").update(readFileSync(o.out)).digest("hex");
  const sidecar = `${o.out}.report.json`;
  writeFileSync(
    sidecar,
    `${JSON.stringify({ judge, file_sha256: fileSha256, report_sha256: report.sha256, report }, null, 2)}\n`,
  );
  out(`wrote ${sidecar} (trust report sha256 ${report.sha256})`);
}
