import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

// Browser tests: a production build of the app served on a free port, driven by playwright-core
// in Debian's chromium. Files run one at a time (each starts its own server and database).
export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    environment: "node",
    testTimeout: 180_000,
    hookTimeout: 300_000,
    fileParallelism: false,
    pool: "forks",
  },
});
