/**
 * The PostgreSQL server the benchmark modules measure on (not a module of its own: index.ts skips
 * files starting with "_").
 */

/** BENCH_PG_URL, else TEST_DATABASE_URL, else the local default. */
export function benchPgUrl(): string {
  return process.env.BENCH_PG_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/test";
}

/** Null when a server answers at `url`, else the "not measured" text of a row that needs one. */
export async function pgUnreachable(url: string): Promise<string | null> {
  const { default: pg } = await import("pg");
  const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await probe.connect();
    return null;
  } catch (e) {
    return `not measured: no PostgreSQL at ${url} (${e instanceof Error ? e.message : String(e)}; set BENCH_PG_URL)`;
  } finally {
    await probe.end().catch(() => undefined);
  }
}
