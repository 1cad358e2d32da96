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
});
