import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

// Browser tests: a production build of the app served on a free port, driven by playwright-core
// in Debian's chromium. Files run one at a time (each starts its own server and database).
export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL(".", import.meta.url)),
      // Server modules (import "server-only") run in the test process.
      "server-only": fileURLToPath(new URL("tests/helpers/server-only.ts", import.meta.url)),
    },
  },
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    environment: "node",
    testTimeout: 180_000,
    hookTimeout: 300_000,
    fileParallelism: false,
    pool: "forks",
    // Hooks run in the order written and after-hooks in reverse (tests/helpers/fixtures.ts relies on it).
    sequence: { hooks: "stack" },
  },
});
