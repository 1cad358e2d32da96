import { createHash } from "node:crypto";
import type { Db } from "../db/client.ts";
import { safeCsv } from "../formats/csv-write.ts";
import { faithfulness } from "../stats/generation.ts";
import { pseudonym } from "../annotators/report.ts";
import { answerReferenceLabels, type TAnswerReferenceRow } from "./reference.ts";

/**
 * Exports of the answers' reference labels, following the chunk reference export
 * (lib/exports/labels.ts):
 * - `claims`: one row per claim of the labelled claim version — answer id, system, question, claim
 *   position and version, claim text, label (s / p / n / x), status (agreed | adjudicated),
 *   annotators, revision (of the adjudication; null when none), flags, notes, and last, as the chunk
 *   labels export (lib/exports/people.ts), who labelled (`labelled_by`: pseudonymous ids
 *   `annotator-…` unless `names`) and under which guidelines revision (`guideline_revisions`);
 * - `answers`: one row per answer — relevance (0–3), claims, faithfulness with a partly supported
 *   claim counted 0.5 and 0 (lib/stats/generation.ts; null without claims), and the same provenance.
 * Rows come from lib/answers/reference.ts answerReferenceLabels (sorted by system, then qid).
 *
 * Version: { sha256, created_at, rows, project, kind }. `sha256` is the SHA-256 of the canonical
 * form (the JSONL data lines, one object per row, "\n" after each), so the JSONL and CSV exports of
 * the same labels carry the same sha256 and it changes with any label, relevance, status, flag or
 * note; an export with names carries the version of its pseudonymous form. It travels as the chunk export's does: in the file name (`answerExportFileName`:
 * `<project>.claim-labels.<sha12>.csv`), in a sidecar `<file>.version.json` (with the file's own
 * sha256), in the HTTP headers of a download; JSONL's first line is {"label_set_version": {...}}.
 */
export type TAnswerExportKind = "claims" | "answers";
export type TAnswerExportFormat = "jsonl" | "csv";
export type TAnswerLabelSetVersion = {
  sha256: string;
  created_at: string;
  rows: number;
  project: string;
  kind: TAnswerExportKind;
};
export type TAnswerExport = { content: string; version: TAnswerLabelSetVersion; fileSha256: string };

/** The columns both exports end with: how the label was settled, and who labelled under which guidelines. */
const DECISION_CSV_COLUMNS = [
  "status",
  "annotators",
  "revision",
  "flags",
  "notes",
  "labelled_by",
  "guideline_revisions",
] as const;
export const CLAIM_CSV_COLUMNS = [
  "answer_id",
  "system",
  "query",
  "claim_version",
  "claim",
  "text",
  "label",
  ...DECISION_CSV_COLUMNS,
] as const;
export const ANSWER_CSV_COLUMNS = [
  "answer_id",
  "system",
  "query",
  "claim_version",
  "claims",
  "relevance",
  "faithfulness",
  "faithfulness_strict",
  ...DECISION_CSV_COLUMNS,
] as const;

/** As lib/exports/labels.ts: flags joined by ";", notes by " | " in a CSV cell (JSONL keeps arrays). */
const FLAG_SEPARATOR = ";";
const NOTE_SEPARATOR = " | ";
const CSV_OPTIONS = { quoted_match: [/#/, /^\s|\s$/] };

const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

type TRow = Record<string, string | number | null | string[] | (number | null)[]>;
/** Who made an answer's label and under which guidelines revision (null: not recorded). */
type TAnswerPeople = { userId: string; name: string; guidelineRevision: number | null }[];
/** How a person is named in the export (by name, or by the annotators report's pseudonymous id), and who labelled each answer. */
type TNaming = { projectId: number; names: boolean; people: ReadonlyMap<string, TAnswerPeople> };

/** The closing columns (DECISION_CSV_COLUMNS): how the label was settled; who labelled, under which guidelines revision. */
const decision = (r: TAnswerReferenceRow, n: TNaming) => {
  const p = n.people.get(r.answerId) ?? [];
  return {
    status: r.status,
    annotators: r.annotators,
    revision: r.revision,
    flags: r.flags,
    notes: r.notes,
    labelled_by: p.map((x) => (n.names ? x.name : pseudonym(n.projectId, x.userId))),
    guideline_revisions: p.map((x) => x.guidelineRevision),
  };
};

/**
 * Who made each answer's reference label (as lib/exports/people.ts for chunks): the adjudicator for
 * an adjudicated answer, else its annotators in the order of their labels.
 */
async function answerPeople(db: Db, rows: readonly TAnswerReferenceRow[]): Promise<Map<string, TAnswerPeople>> {
  const out = new Map<string, TAnswerPeople>();
  for (let i = 0; i < rows.length; i += 1000) {
    const part = rows.slice(i, i + 1000);
    const adjudicated = part.filter((r) => r.status === "adjudicated").map((r) => r.answerId);
    const agreed = part.filter((r) => r.status === "agreed").map((r) => r.answerId);
    const [decisions, labels] = await Promise.all([
      db.answerAdjudication.findMany({
        where: { answerId: { in: adjudicated } },
        select: {
          answerId: true,
          adjudicatorId: true,
          guidelineRevision: true,
          adjudicator: { select: { name: true } },
        },
      }),
      db.answerJudgement.findMany({
        where: { answerId: { in: agreed } },
        orderBy: { id: "asc" },
        select: { answerId: true, userId: true, guidelineRevision: true, user: { select: { name: true } } },
      }),
    ]);
    for (const d of decisions)
      out.set(d.answerId, [
        { userId: d.adjudicatorId, name: d.adjudicator.name, guidelineRevision: d.guidelineRevision },
      ]);
    for (const j of labels) {
      const list = out.get(j.answerId) ?? [];
      list.push({ userId: j.userId, name: j.user.name, guidelineRevision: j.guidelineRevision });
      out.set(j.answerId, list);
    }
  }
  return out;
}

function claimRows(rows: readonly TAnswerReferenceRow[], n: TNaming): TRow[] {
  return rows.flatMap((r) =>
    r.claims.map((c) => ({
      answer_id: r.answerId,
      system: r.system,
      query: r.qid,
      claim_version: r.claimVersion,
      claim: c.position,
      text: c.text,
      label: c.label,
      ...decision(r, n),
    })),
  );
}

function answerRows(rows: readonly TAnswerReferenceRow[], n: TNaming): TRow[] {
  return rows.map((r) => {
    const labels = r.claims.map((c) => c.label);
    return {
      answer_id: r.answerId,
      system: r.system,
      query: r.qid,
      claim_version: r.claimVersion,
      claims: labels.length,
      relevance: r.relevance,
      faithfulness: faithfulness(labels),
      faithfulness_strict: faithfulness(labels, 0),
      ...decision(r, n),
    };
  });
}

export function exportRows(rows: readonly TAnswerReferenceRow[], kind: TAnswerExportKind, n: TNaming): TRow[] {
  return kind === "claims" ? claimRows(rows, n) : answerRows(rows, n);
}

/** The canonical form the version's sha256 is computed over (also the JSONL export's body). */
export function canonicalAnswerLines(rows: readonly TRow[]): string {
  return rows.map((r) => `${JSON.stringify(r)}\n`).join("");
}

function csvOf(rows: readonly TRow[], kind: TAnswerExportKind): string {
  const columns = kind === "claims" ? CLAIM_CSV_COLUMNS : ANSWER_CSV_COLUMNS;
  const body = safeCsv(
    rows.map((r) =>
      columns.map((c) => {
        const v = r[c];
        if (c === "flags" || c === "labelled_by") return (v as string[]).join(FLAG_SEPARATOR);
        if (c === "guideline_revisions") return (v as (number | null)[]).map((x) => x ?? "").join(FLAG_SEPARATOR);
        if (c === "notes") return (v as string[]).join(NOTE_SEPARATOR);
        return v as string | number | null;
      }),
    ),
    CSV_OPTIONS,
  );
  return `${columns.join(",")}\n${body}`;
}

export function renderAnswerExport(
  labels: readonly TAnswerReferenceRow[],
  kind: TAnswerExportKind,
  format: TAnswerExportFormat,
  project: { id: number; name: string },
  now: Date = new Date(),
  naming: { names: boolean; people: ReadonlyMap<string, TAnswerPeople> } = { names: false, people: new Map() },
): TAnswerExport {
  const pseudonymous = exportRows(labels, kind, { projectId: project.id, ...naming, names: false });
  const rows = naming.names ? exportRows(labels, kind, { projectId: project.id, ...naming }) : pseudonymous;
  const canonical = canonicalAnswerLines(pseudonymous);
  const version: TAnswerLabelSetVersion = {
    sha256: sha256(canonical),
    created_at: now.toISOString(),
    rows: rows.length,
    project: project.name,
    kind,
  };
  const content =
    format === "jsonl"
      ? `${JSON.stringify({ label_set_version: version })}\n${canonicalAnswerLines(rows)}`
      : csvOf(rows, kind);
  return { content, version, fileSha256: sha256(content) };
}

/** The project's answer reference labels as claims or answers (with `system`, one system's only; with `names`, people by name). */
export async function exportAnswerLabels(
  db: Db,
  projectId: number,
  kind: TAnswerExportKind,
  format: TAnswerExportFormat,
  now: Date = new Date(),
  opts: { system?: string; names?: boolean } = {},
): Promise<TAnswerExport> {
  const [project, rows] = await Promise.all([
    db.project.findUniqueOrThrow({ where: { id: projectId }, select: { id: true, name: true } }),
    answerReferenceLabels(db, projectId, opts),
  ]);
  return renderAnswerExport(rows, kind, format, project, now, {
    names: opts.names ?? false,
    people: await answerPeople(db, rows),
  });
}

/** The download's file name: project, kind, the first 12 hex digits of the version's sha256. */
export function answerExportFileName(
  safeProjectName: string,
  kind: TAnswerExportKind,
  format: TAnswerExportFormat,
  version: TAnswerLabelSetVersion,
): string {
  return `${safeProjectName}.${kind === "claims" ? "claim-labels" : "answer-labels"}.${version.sha256.slice(0, 12)}.${format}`;
}

/** The version as one line (the CLI's stderr when it prints CSV to stdout). */
export function answerVersionLine(v: TAnswerLabelSetVersion): string {
  return `label_set_version kind=${v.kind} sha256=${v.sha256} created_at=${v.created_at} rows=${v.rows} project=${v.project}\n`;
}

/** The sidecar written next to an exported file. */
export function answerSidecarText(e: TAnswerExport, format: TAnswerExportFormat): string {
  return `${JSON.stringify({ label_set_version: e.version, format, file_sha256: e.fileSha256 }, null, 2)}\n`;
}
