// Stands in for the `server-only` package under Vitest (aliased in vitest.config.ts and
// vitest.e2e.config.ts): server modules run in the test process, which is no client bundle.
export {};
