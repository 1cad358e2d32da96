import type { BulkTx } from "../db/bulk.ts";
import { dateValue } from "../db/dialect.ts";

/** Appends the audit row of an import inside a bulk transaction. */
export async function insertImportRecord(
  tx: BulkTx,
  r: { projectId: number; kind: string; fileName: string; sha256: string; rows: number },
): Promise<void> {
  await tx.query((k) => k.insertInto("ImportRecord").values({ ...r, createdAt: dateValue(tx.provider) }));
}
