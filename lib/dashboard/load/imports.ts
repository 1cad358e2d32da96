/**
 * Imported reference labels: read in precedence order (lib/labels/reference.ts importPrecedence)
 * and indexed against the pool (the winning import per (query, chunk) pair).
 */
import type { Db } from "../../db/client.ts";
import { importPrecedence } from "../../labels/reference.ts";
import { num, numOrNull, rows, str } from "../../db/read.ts";
import type { TBase } from "./base.ts";

export type TImported = {
  queryId: number;
  chunkId: number;
  grade: number;
  startSeconds: number | null;
  endSeconds: null;
  source: string;
};
/** Imported labels against the pool: per pair the winning import (latest first, ties by source name). */
export type TImportIndex = {
  base: TBase;
  imported: TImported[];
  winners: TImported[];
  winnerItem: (string | null)[];
  importedItems: Set<string>;
  outsidePool: number;
};

/** This project's imported labels, latest first, ties by source name. */
export async function loadImported(db: Db, projectId: number): Promise<TImported[]> {
  const importRows = await rows(
    db,
    `SELECT "queryId", "chunkId", "grade", "startSeconds", "source", "createdAt" FROM "ReferenceLabel" WHERE "projectId" = ? AND "queryId" IN (SELECT "id" FROM "Query" WHERE "projectId" = ? AND "status" = 'accepted')`,
    [projectId, projectId],
  );
  return importRows
    .map((r) => ({
      label: {
        queryId: num(r[0]),
        chunkId: num(r[1]),
        grade: num(r[2]),
        startSeconds: numOrNull(r[3]),
        // Imported labels carry no answer end (ReferenceLabel has none), as lib/labels/reference.ts says.
        endSeconds: null,
        source: str(r[4]),
      } as TImported,
      source: str(r[4]),
      createdAt: r[5] instanceof Date ? r[5] : new Date(str(r[5])),
    }))
    .sort(importPrecedence)
    .map((r) => r.label);
}

export function importIndex(base: TBase, imported: TImported[], previous: TImportIndex | undefined): TImportIndex {
  if (previous && previous.base === base && previous.imported === imported) return previous;
  const pairItem = new Map<string, string>();
  for (const [id, it] of base.poolItems) pairItem.set(`${it.queryId}:${it.chunkId}`, id);
  const seen = new Set<string>();
  const out: TImportIndex = { base, imported, winners: [], winnerItem: [], importedItems: new Set(), outsidePool: 0 };
  // `imported` comes latest first, ties by source name: the first row of a pair wins.
  for (const r of imported) {
    const key = `${r.queryId}:${r.chunkId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const item = pairItem.get(key) ?? null;
    out.winners.push(r);
    out.winnerItem.push(item);
    if (item === null) out.outsidePool++;
    else out.importedItems.add(item);
  }
  return out;
}
