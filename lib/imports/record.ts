import type { BulkTx } from "../db/bulk.ts";
import { dateValue } from "../db/dialect.ts";

/** Appends the audit row of an import inside a bulk transaction. */
export async function insertImportRecord(
  tx: BulkTx,
  r: { projectId: number; kind: string; fileName: string; sha256: string; rows: number },
): Promise<void> {
  await tx.run(
    `INSERT INTO "ImportRecord" ("projectId", "kind", "fileName", "sha256", "rows", "createdAt") VALUES (?, ?, ?, ?, ?, ?)`,
    [r.projectId, r.kind, r.fileName, r.sha256, r.rows, dateValue(tx.provider)],
  );
}
