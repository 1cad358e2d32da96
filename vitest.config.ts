import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

// Unit and integration tests. Integration tests open a real database: a fresh SQLite file per
// test file by default, or a fresh schema on the PostgreSQL server named by TEST_DATABASE_URL.
export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL(".", import.meta.url)),
      // Server modules (import "server-only") run in the test process.
      "server-only": fileURLToPath(new URL("tests/helpers/server-only.ts", import.meta.url)),
    },
  },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Hooks run in the order written and after-hooks in reverse (tests/helpers/fixtures.ts relies on it).
    sequence: { hooks: "stack" },
  },
});
