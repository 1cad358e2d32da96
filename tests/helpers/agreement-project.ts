import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeAgreementFiles } from "../fixtures/dashboard/agreement-files.ts";
import { runCliOk } from "./cli.ts";
import { createTestDatabase, type TestDb } from "./db.ts";

export type AgreementProject = {
  testDb: TestDb;
  dir: string;
  files: ReturnType<typeof writeAgreementFiles>;
  cleanup: () => Promise<void>;
};

/**
 * The judge-vs-human comparison set-up: a fresh test database and project "agree" with the
 * videos, chunks, queries, human labels (source "gold") and judge labels ("llm-a") of
 * tests/fixtures/dashboard/agreement-files.ts, imported through the CLI as a user would. The files
 * stay in `dir` (a new temp dir named with `prefix`) for the test to compare against;
 * `cleanup` drops the database and removes the dir.
 */
export async function importAgreementProject(prefix: string): Promise<AgreementProject> {
  const testDb = await createTestDatabase();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const cleanup = async () => {
    await testDb.cleanup();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const files = writeAgreementFiles(dir);
    runCliOk(["project", "create", "agree"]);
    runCliOk(["import", "videos", files.videos]);
    runCliOk(["import", "chunks", files.chunks]);
    runCliOk(["import", "queries", files.queries]);
    runCliOk(["import", "labels", "--source", "gold", files.human]);
    runCliOk(["import", "judge", "--judge", "llm-a", files.judge]);
    return { testDb, dir, files, cleanup };
  } catch (e) {
    await cleanup();
    throw e;
  }
}
