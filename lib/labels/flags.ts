import type { Db } from "../db/client.ts";
import { loadItemLabels, ruleSettings } from "./load.ts";
import { itemStage, type TStage } from "./stage.ts";

/** One annotator's flags and note on an item (the lead sees names; annotators never reach this). */
export type TFlagEntry = { annotator: string; grade: number; flags: string[]; notes: string };
/** An item with at least one flag or note: the lead's "Flags and notes" list. */
export type TFlaggedItem = {
  poolItemId: string;
  qid: string;
  question: string;
  docid: string;
  video: string;
  chunkStart: number;
  stage: TStage;
  flags: string[];
  hasNotes: boolean;
  entries: TFlagEntry[];
};

/**
 * Every pool item of the project where an annotator set a flag (unsure, transcript error) or wrote
 * a note, with its stage, sorted by query then chunk (plain string order). Judgements are read as
 * they stand (an edit that cleared a flag clears it here).
 */
export async function flaggedItems(db: Db, projectId: number): Promise<TFlaggedItem[]> {
  const [settings, items] = await Promise.all([ruleSettings(db, projectId), loadItemLabels(db, projectId)]);
  const flagged = items.filter((it) => it.judgements.some((j) => j.flags.length > 0 || j.notes.trim() !== ""));
  if (flagged.length === 0) return [];
  const ids = flagged.map((it) => it.id);
  const [details, users] = await Promise.all([
    db.poolItem.findMany({
      where: { id: { in: ids } },
      select: {
        id: true,
        query: { select: { text: true } },
        chunk: { select: { startSeconds: true, video: { select: { externalId: true } } } },
      },
    }),
    db.user.findMany({
      where: { id: { in: [...new Set(flagged.flatMap((it) => it.judgements.map((j) => j.userId)))] } },
      select: { id: true, name: true },
    }),
  ]);
  const byId = new Map(details.map((d) => [d.id, d]));
  const names = new Map(users.map((u) => [u.id, u.name]));
  return flagged
    .map((it) => {
      const d = byId.get(it.id)!;
      return {
        poolItemId: it.id,
        qid: it.qid,
        question: d.query.text,
        docid: it.docid,
        video: d.chunk.video.externalId,
        chunkStart: d.chunk.startSeconds,
        stage: itemStage(
          {
            assignments: it.assignments,
            judgements: it.judgements,
            adjudicated: it.adjudication !== null,
            disputed: it.disputed,
            imported: false,
          },
          settings,
        ),
        flags: [...new Set(it.judgements.flatMap((j) => j.flags))].sort(),
        hasNotes: it.judgements.some((j) => j.notes.trim() !== ""),
        entries: it.judgements
          .filter((j) => j.flags.length > 0 || j.notes.trim() !== "")
          .map((j) => ({
            annotator: names.get(j.userId) ?? "?",
            grade: j.grade,
            flags: j.flags,
            notes: j.notes.trim(),
          })),
      };
    })
    .sort((a, b) => (a.qid !== b.qid ? (a.qid < b.qid ? -1 : 1) : a.docid < b.docid ? -1 : a.docid > b.docid ? 1 : 0));
}
