import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Db } from "../../lib/db/client.ts";

/**
 * A fresh SQLite database in a temporary folder, migrated, as DATABASE_URL for the benchmark's
 * process; `done` closes it, puts DATABASE_URL back and removes the folder.
 */
export async function tempSqlite(prefix: string): Promise<{ db: Db; done: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const previousUrl = process.env.DATABASE_URL;
  process.env.DATABASE_URL = `file:${join(dir, "bench.db")}`;
  const restore = () => {
    if (previousUrl === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previousUrl;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const { migrate } = await import("../../lib/db/migrate.ts");
    await migrate();
    const { getDb, closeDb } = await import("../../lib/db/client.ts");
    const db = await getDb();
    return {
      db,
      done: async () => {
        await closeDb();
        restore();
      },
    };
  } catch (e) {
    restore();
    throw e;
  }
}

/**
 * The label change the dashboard and decision benchmarks time after: on an item whose two
 * annotators agree (not adjudicated), one of them changes their grade, so the item leaves the
 * reference set; the i-th change touches a different item, in another query, each time.
 */
export async function changeFinalLabel(db: Db, projectId: number, i: number): Promise<void> {
  const j = await db.judgement.findFirst({
    where: { poolItem: { projectId, adjudication: null } },
    orderBy: { id: "asc" },
    skip: 1000 * i + 2 * i,
    select: { id: true, grade: true },
  });
  if (!j) throw new Error(`label change ${i}: no agreed item left to change`);
  await db.judgement.update({ where: { id: j.id }, data: { grade: (j.grade + 1) % 4 } });
}
