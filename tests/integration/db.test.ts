import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { runCli } from "../helpers/cli.ts";

describe("database and migrations", () => {
  useTestDatabase();

  it("applies nothing the second time", async () => {
    const { migrate } = await import("../../lib/db/migrate.ts");
    expect(await migrate()).toEqual([]);
    const r = runCli(["migrate"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("up to date");
  });

  it("creates and lists projects through the CLI; --project is required when ambiguous", async () => {
    expect(runCli(["project", "create", "alpha"]).code).toBe(0);
    expect(runCli(["project", "list"]).stdout).toContain("alpha");
    const dup = runCli(["project", "create", "alpha"]);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('a project named "alpha" already exists');
    expect(runCli(["project", "create", "beta", "--pool-depth", "20"]).code).toBe(0);
    const ambiguous = runCli(["project", "set", "--pool-depth", "5"]);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain("several projects exist, choose one with --project: alpha, beta");
    const { getDb } = await import("../../lib/db/client.ts");
    const db = await getDb();
    expect((await db.project.findUniqueOrThrow({ where: { name: "beta" } })).poolDepth).toBe(20);
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)(
    "on PostgreSQL a transaction aborted as a deadlock is run again, and both writers' changes hold",
    async () => {
      const { getDb } = await import("../../lib/db/client.ts");
      const { sqlTransaction, run, all } = await import("../../lib/db/sql.ts");
      const db = await getDb();
      const a = await db.project.create({ data: { name: "deadlock-a", poolDepth: 0 } });
      const b = await db.project.create({ data: { name: "deadlock-b", poolDepth: 0 } });
      let started = 0;
      // Each locks one row, pauses, then wants the other's: PostgreSQL aborts one of them (40P01)
      // after deadlock_timeout (1 s by default); that one is run again once the other commits.
      const crossing = (first: number, second: number) =>
        sqlTransaction(db, function* () {
          started++;
          yield* run(`UPDATE "Project" SET "poolDepth" = "poolDepth" + 1 WHERE "id" = ?`, [first]);
          yield* all(`SELECT 1 AS "slept" FROM pg_sleep(0.3)`);
          yield* run(`UPDATE "Project" SET "poolDepth" = "poolDepth" + 1 WHERE "id" = ?`, [second]);
          return true;
        });
      await expect(Promise.all([crossing(a.id, b.id), crossing(b.id, a.id)])).resolves.toEqual([true, true]);
      expect(started).toBeGreaterThanOrEqual(3);
      const depths = await db.project.findMany({ where: { id: { in: [a.id, b.id] } }, select: { poolDepth: true } });
      expect(depths.map((d) => d.poolDepth)).toEqual([2, 2]);
    },
  );
});
