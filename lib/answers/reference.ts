import type { Db } from "../db/client.ts";
import { parseFlags, ruleSettings } from "../labels/load.ts";
import { finalAnswerLabel, storedAnswerLabel, type TClaimLabel } from "./labels.ts";

export type TAnswerClaimRef = { position: number; text: string; label: TClaimLabel };

/** One answer's final human label: the answers' counterpart of `ReferenceLabelRow`. */
export type TAnswerReferenceRow = {
  answerId: string;
  system: string;
  queryId: number;
  qid: string;
  claimVersion: number;
  /** The claims of `claimVersion` in order, each with its final label. */
  claims: TAnswerClaimRef[];
  relevance: number;
  status: "agreed" | "adjudicated";
  /** Annotators who labelled the answer. */
  annotators: number;
  /** The annotators' flags (union, sorted) and non-empty notes; the adjudication's revision (null when not adjudicated). */
  flags: string[];
  notes: string[];
  revision: number | null;
};

/**
 * The project's reference labels of answers: adjudicated answers (the adjudicator's labels) and
 * answers whose annotators agree and that were never disputed (lib/answers/labels.ts). Sorted by
 * system, then qid (plain string order), so exports are deterministic. With `system`, only that
 * system's answers.
 */
export async function answerReferenceLabels(
  db: Db,
  projectId: number,
  opts: { system?: string } = {},
): Promise<TAnswerReferenceRow[]> {
  const [settings, answers] = await Promise.all([
    ruleSettings(db, projectId),
    db.answer.findMany({
      where: {
        projectId,
        ...(opts.system === undefined ? {} : { system: opts.system }),
        OR: [{ judgements: { some: {} } }, { adjudication: { isNot: null } }],
      },
      select: {
        id: true,
        system: true,
        queryId: true,
        disputedAt: true,
        query: { select: { externalId: true } },
        judgements: {
          select: { claimVersion: true, claimLabels: true, relevance: true, flags: true, notes: true },
          orderBy: { id: "asc" },
        },
        adjudication: { select: { claimVersion: true, claimLabels: true, relevance: true, revision: true } },
      },
    }),
  ]);
  const decided: { a: (typeof answers)[number]; f: NonNullable<ReturnType<typeof finalAnswerLabel>> }[] = [];
  for (const a of answers) {
    const labels = a.judgements.map((j) => storedAnswerLabel(j));
    const adjudication = a.adjudication ? storedAnswerLabel(a.adjudication) : null;
    const f = finalAnswerLabel({ labels, adjudication, disputed: a.disputedAt !== null }, settings);
    if (f) decided.push({ a, f });
  }
  const claimTexts = new Map<string, string[]>();
  for (let i = 0; i < decided.length; i += 2000) {
    const batch = decided.slice(i, i + 2000);
    const claims = await db.answerClaim.findMany({
      where: { OR: batch.map(({ a, f }) => ({ answerId: a.id, version: f.claimVersion })) },
      select: { answerId: true, version: true, position: true, text: true },
      orderBy: [{ answerId: "asc" }, { version: "asc" }, { position: "asc" }],
    });
    for (const c of claims) {
      const key = `${c.answerId}:${c.version}`;
      const list = claimTexts.get(key) ?? [];
      list[c.position] = c.text;
      claimTexts.set(key, list);
    }
  }
  const rows: TAnswerReferenceRow[] = decided.map(({ a, f }) => {
    const texts = claimTexts.get(`${a.id}:${f.claimVersion}`) ?? [];
    return {
      answerId: a.id,
      system: a.system,
      queryId: a.queryId,
      qid: a.query.externalId,
      claimVersion: f.claimVersion,
      claims: f.claimLabels.map((label, position) => ({ position, text: texts[position] ?? "", label })),
      relevance: f.relevance,
      status: f.status,
      annotators: a.judgements.length,
      flags: [...new Set(a.judgements.flatMap((j) => parseFlags(j.flags)))].sort(),
      notes: a.judgements.map((j) => j.notes.trim()).filter((n) => n !== ""),
      revision: a.adjudication?.revision ?? null,
    };
  });
  return rows.sort((x, y) =>
    x.system !== y.system ? (x.system < y.system ? -1 : 1) : x.qid < y.qid ? -1 : x.qid > y.qid ? 1 : 0,
  );
}
