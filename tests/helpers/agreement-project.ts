import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { writeAgreementFiles } from "../fixtures/dashboard/agreement-files.ts";
import { runCliOk } from "./cli.ts";
import type { TestDb } from "./db.ts";
import { useTestDatabase } from "./fixtures.ts";

export type AgreementProject = {
  testDb: TestDb;
  readonly dir: string;
  readonly files: ReturnType<typeof writeAgreementFiles>;
};

/**
 * The judge-vs-human comparison set-up: the file's test database (useTestDatabase) and project
 * "agree" with the videos, chunks, queries, human labels (source "gold") and judge labels
 * ("llm-a") of tests/fixtures/dashboard/agreement-files.ts, imported through the CLI as a user
 * would, in a beforeAll registered where this is called. The files stay in `dir` (a new temp
 * dir named with `prefix`) for the test to compare against; afterAll removes the dir.
 */
export function useAgreementProject(prefix: string): AgreementProject {
  const testDb = useTestDatabase();
  let made: { dir: string; files: ReturnType<typeof writeAgreementFiles> } | undefined;
  const ready = () => {
    if (!made) throw new Error("useAgreementProject: the project exists only inside hooks and tests");
    return made;
  };
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    try {
      const files = writeAgreementFiles(dir);
      runCliOk(["project", "create", "agree"]);
      runCliOk(["import", "videos", files.videos]);
      runCliOk(["import", "chunks", files.chunks]);
      runCliOk(["import", "queries", files.queries]);
      runCliOk(["import", "labels", "--source", "gold", files.human]);
      runCliOk(["import", "judge", "--judge", "llm-a", files.judge]);
      made = { dir, files };
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      throw e;
    }
  });
  afterAll(() => {
    if (made) rmSync(made.dir, { recursive: true, force: true });
    made = undefined;
  });
  return {
    testDb,
    get dir() {
      return ready().dir;
    },
    get files() {
      return ready().files;
    },
  };
}
