import type { Command } from "commander";
import { out } from "../context.ts";

export function registerMigrate(program: Command): void {
  program
    .command("migrate")
    .description("apply pending database migrations (SQLite by default, PostgreSQL when DATABASE_URL is postgres://…)")
    .action(async () => {
      const [{ migrate }, { readDbConfig }] = await Promise.all([
        import("../../lib/db/migrate.ts"),
        import("../../lib/db/config.ts"),
      ]);
      const config = readDbConfig();
      const applied = await migrate(config);
      out(
        applied.length
          ? `applied ${applied.length} migration(s) to ${config.provider}: ${applied.join(", ")}`
          : `${config.provider}: database is up to date`,
      );
    });
}
