import { Command, Option } from "commander";
import { ValidationError } from "../../lib/errors.ts";
import { alignLabels } from "../../lib/stats/agreement/align.ts";
import { readLabelFile } from "../../lib/stats/agreement/read.ts";
import { agreementReport, type AgreementReport } from "../../lib/stats/agreement/report.ts";
import { DEFAULT_SEED } from "../../lib/stats/bootstrap.ts";
import { readInput } from "./eval-read.ts";

/**
 * `assessor agreement REFERENCE OTHER`: agreement between two label files (qrels, or JSONL as the imports read it) on the 0–3 scale
 * (a second annotator or an LLM judge against the reference), aligned on (query, chunk). No
 * database.
 */

type AgreementOpts = { format: "json" | "table"; bootstrap: number; seed: number; clip?: boolean; precision: number };

const int = (name: string) => (v: string) => {
  if (!/^\d+$/.test(v)) throw new Error(`${name} must be a non-negative integer, got "${v}"`);
  return Number(v);
};

/** A qrels file, or JSONL as `import judge` / `import labels` read it (lib/stats/agreement/read.ts). */
function readLabels(path: string, clip: boolean) {
  const parsed = readLabelFile(readInput(path), path, { clip });
  if (parsed.errors.length) throw new ValidationError(parsed.errors);
  if (parsed.clipped)
    process.stderr.write(
      `${path}: --clip changed ${parsed.clipped} grade${parsed.clipped === 1 ? "" : "s"} into 0–3\n`,
    );
  if (parsed.ungraded)
    process.stderr.write(
      `${path}: ${parsed.ungraded} line${parsed.ungraded === 1 ? " has" : "s have"} no grade (grade null) and ${parsed.ungraded === 1 ? "is" : "are"} left out\n`,
    );
  return parsed.rows;
}

const fmt = (v: number | null, d: number) => (v === null ? "undefined" : v.toFixed(d));

function table(r: AgreementReport, d: number): string[] {
  const out: string[] = [];
  const iv = (x: { low: number; high: number } | null) => (x ? ` [${x.low.toFixed(d)}, ${x.high.toFixed(d)}]` : "");
  const b = r.ci.bootstrap;
  out.push(
    `pairs aligned: ${r.n} (reference only: ${r.unmatched.reference_only}, other only: ${r.unmatched.other_only})`,
  );
  out.push("");
  out.push(
    `kappa unweighted  ${fmt(r.kappa.unweighted, d)}${iv(r.ci.analytic.unweighted)}${b ? ` boot${iv(b.kappa_unweighted)}` : ""}`,
  );
  out.push(
    `kappa linear      ${fmt(r.kappa.linear, d)}${iv(r.ci.analytic.linear)}${b ? ` boot${iv(b.kappa_linear)}` : ""}`,
  );
  out.push(
    `kappa quadratic   ${fmt(r.kappa.quadratic, d)}${iv(r.ci.analytic.quadratic)}${b ? ` boot${iv(b.kappa_quadratic)}` : ""}`,
  );
  if (r.kappa.reason) out.push(`  (${r.kappa.reason})`);
  out.push(`alpha ordinal     ${fmt(r.alpha_ordinal, d)}${b ? ` boot${iv(b.alpha_ordinal)}` : ""}`);
  out.push(`raw agreement     ${fmt(r.raw_agreement, d)}${b ? ` boot${iv(b.raw_agreement)}` : ""}`);
  out.push(`within one        ${fmt(r.within_one, d)}${b ? ` boot${iv(b.within_one)}` : ""}`);
  out.push(
    `leniency          ${r.leniency === null ? "undefined" : `${r.leniency >= 0 ? "+" : ""}${r.leniency.toFixed(d)}`} (mean other − reference)`,
  );
  out.push("");
  out.push("confusion (rows: reference, columns: other)");
  out.push(`        ${[0, 1, 2, 3].map((g) => `other ${g}`.padStart(9)).join("")}`);
  r.confusion.forEach((row, g) => out.push(`ref ${g}  ${row.map((v) => String(v).padStart(9)).join("")}`));
  out.push("");
  out.push("grade  precision  recall  support");
  for (const [g, s] of Object.entries(r.per_grade))
    out.push(
      `${g.padStart(5)}  ${fmt(s.precision, d).padStart(9)}  ${fmt(s.recall, d).padStart(6)}  ${String(s.support).padStart(7)}`,
    );
  out.push("");
  out.push("binary     agreement   kappa   alpha");
  for (const [k, v] of Object.entries(r.binary))
    out.push(
      `grade ${k.replace("ge", "≥")}  ${fmt(v.agreement, d).padStart(9)}  ${fmt(v.kappa, d).padStart(6)}  ${fmt(v.alpha, d).padStart(6)}`,
    );
  out.push("");
  out.push(
    `[low, high]: ${Math.round(r.ci.level * 100)}% intervals; first the Fleiss–Cohen–Everitt analytic SE${b ? `, then a bootstrap over ${b.queries} queries (${b.resamples} resamples, seed ${b.seed})` : ""}.`,
  );
  return out;
}

export function registerAgreement(program: Command): void {
  program
    .command("agreement")
    .description(
      "agreement between two label files (TREC qrels, or JSONL as import judge / import labels read it) on the 0–3 scale: kappa (unweighted, linear, quadratic), alpha, confusion, per-grade, binary, CIs",
    )
    .argument("<reference>", "reference labels (truth): qrels or JSONL")
    .argument("<other>", "the other label set (second annotator, LLM judge): qrels or JSONL")
    .addOption(
      new Option("--format <format>", "output format (a table, as eval prints; json for scripts)")
        .choices(["table", "json"])
        .default("table"),
    )
    .option("--bootstrap <n>", "bootstrap resamples over queries (0 = none)", int("--bootstrap"), 1000)
    .option("--seed <s>", "seed for resampling", int("--seed"), DEFAULT_SEED)
    .option("--clip", "map grades outside 0–3 into range instead of failing (says how many changed)")
    .option("--precision <d>", "decimals in the table", int("--precision"), 4)
    .action((referencePath: string, otherPath: string, opts: AgreementOpts) => {
      const reference = readLabels(referencePath, Boolean(opts.clip));
      const other = readLabels(otherPath, Boolean(opts.clip));
      const report = agreementReport(alignLabels(reference, other), { bootstrap: opts.bootstrap, seed: opts.seed });
      if (opts.format === "json") process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else process.stdout.write(`${table(report, opts.precision).join("\n")}\n`);
    });
}
