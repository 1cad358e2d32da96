/**
 * Judgements, the table that changes with every label: read incrementally (only the rows updated
 * or inserted since the last read), then cut to one project's pool in submission order.
 */
import type { Db } from "../../db/client.ts";
import { readDbConfig } from "../../db/config.ts";
import { timestampParam } from "../../db/dialect.ts";
import type { TJudgementRow } from "../model.ts";
import { num, numOrNull, rows, str } from "../../db/read.ts";

/** Judgements of every project by id, in id order, as of one snapshot of the table. */
export type TJudgementState = {
  byId: Map<number, TJudgementRow>;
  maxId: number;
  watermark: unknown;
  /** Pool items whose judgements were read again since the previous state (null: everything was read). */
  changedItems: Set<string> | null;
};

const JUDGEMENT_COLUMNS = `"id", "poolItemId", "userId", "grade", "startSeconds", "timeSpentMs", "updatedAt", (SELECT count(*) FROM "Judgement") AS "total", "endSeconds"`;

/**
 * Every judgement (all projects: no join, and the table-wide count checks the snapshot), kept by
 * id. After a change only the rows updated since the last read (updatedAt ≥ its latest value) or
 * inserted since (id above its largest) are read; when the table's count then differs from the
 * rows kept (a judgement was deleted), everything is read again.
 */
export async function loadJudgements(db: Db, previous: TJudgementState | undefined): Promise<TJudgementState> {
  const add = (state: TJudgementState, r: unknown[]) => {
    const id = num(r[0]);
    state.byId.set(id, {
      poolItemId: str(r[1]),
      userId: str(r[2]),
      grade: num(r[3]),
      startSeconds: numOrNull(r[4]),
      timeSpentMs: numOrNull(r[5]),
      endSeconds: numOrNull(r[8]),
    });
    if (id > state.maxId) state.maxId = id;
    const updated = r[6] instanceof Date ? r[6].toISOString() : r[6];
    if (state.watermark === null || (updated !== null && (updated as string) > (state.watermark as string)))
      state.watermark = updated;
  };
  if (previous && previous.watermark !== null) {
    const at = timestampParam(readDbConfig().provider);
    const delta = await rows(
      db,
      `SELECT ${JUDGEMENT_COLUMNS} FROM "Judgement" WHERE "updatedAt" >= ${at} OR "id" > ? ORDER BY "id"`,
      [previous.watermark, previous.maxId],
    );
    // The previous state is only ever the base of one next load (its cache entry is replaced), so
    // its Map is updated in place rather than copied (40,000 entries per label change).
    const next: TJudgementState = {
      byId: previous.byId,
      maxId: previous.maxId,
      watermark: previous.watermark,
      changedItems: new Set(),
    };
    for (const r of delta) {
      // Rows updated in the same millisecond as the watermark come again: only real changes count.
      const before = next.byId.get(num(r[0]));
      if (
        before &&
        before.poolItemId === str(r[1]) &&
        before.userId === str(r[2]) &&
        before.grade === num(r[3]) &&
        before.startSeconds === numOrNull(r[4]) &&
        before.timeSpentMs === numOrNull(r[5]) &&
        before.endSeconds === numOrNull(r[8])
      )
        continue;
      add(next, r);
      next.changedItems!.add(str(r[1]));
    }
    if (delta.length > 0 && num(delta[0][7]) === next.byId.size) return next;
  }
  const all = await rows(db, `SELECT ${JUDGEMENT_COLUMNS} FROM "Judgement" ORDER BY "id"`);
  const state: TJudgementState = { byId: new Map(), maxId: 0, watermark: null, changedItems: null };
  for (const r of all) add(state, r);
  return state;
}

/** This project's judgements, in submission order (id ascending), and the same per pool item. */
export function projectJudgements(
  state: TJudgementState,
  poolItems: ReadonlyMap<string, unknown>,
): { judgements: TJudgementRow[]; byItem: Map<string, TJudgementRow[]> } {
  const judgements: TJudgementRow[] = [];
  for (const j of state.byId.values()) if (poolItems.has(j.poolItemId)) judgements.push(j);
  const byItem = new Map<string, TJudgementRow[]>();
  for (const j of judgements) {
    const list = byItem.get(j.poolItemId);
    if (list) list.push(j);
    else byItem.set(j.poolItemId, [j]);
  }
  return { judgements, byItem };
}
