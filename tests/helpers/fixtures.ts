/**
 * Vitest fixtures for integration and browser tests: the file's database and its server, each
 * made in a beforeAll and undone in the matching afterAll. (tests/helpers/db.ts and server.ts
 * hold the plain functions, which the benchmarks use outside Vitest.)
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { apiClient, loginClient, type ApiClient } from "./api.ts";
import { createTestDatabase, type TestDb } from "./db.ts";
import { startServer, type RunningServer } from "./server.ts";
import type { Db } from "../../lib/db/client.ts";
import type { TFixture } from "../integration/annotate-fixture.ts";

/**
 * The test file's database, created (and migrated) in a beforeAll registered where this is
 * called and dropped in the matching afterAll; `per: "test"` gives each test its own instead
 * (beforeEach/afterEach). Hooks run in the order written (Vitest's default `sequence.hooks:
 * "stack"`, set in the configs), so call this first and seed in a beforeAll below it. The
 * fields are read after the hook ran (in hooks and tests); reading them earlier throws.
 */
export function useTestDatabase(opts: { per?: "file" | "test" } = {}): TestDb {
  let current: TestDb | undefined;
  const ready = (): TestDb => {
    if (!current) throw new Error("useTestDatabase: the database exists only inside hooks and tests");
    return current;
  };
  const [before, after] = opts.per === "test" ? [beforeEach, afterEach] : [beforeAll, afterAll];
  before(async () => {
    current = await createTestDatabase();
  });
  after(async () => {
    const db = current;
    current = undefined;
    await db?.cleanup();
  });
  return {
    get url() {
      return ready().url;
    },
    get provider() {
      return ready().provider;
    },
    cleanup: () => ready().cleanup(),
  };
}

/** The running server of `useTestServer`, with its API clients. */
export type TestServer = RunningServer & {
  /** A Cookie header with a session for this user (tests/helpers/login.ts apiSession). */
  cookie: (email: string, password: string) => Promise<string>;
  /** An API client signed in as this user, or anonymous without arguments. */
  client: (email?: string, password?: string) => Promise<ApiClient>;
};

type TEnv = Record<string, string | undefined>;

function serverHandle(ready: () => RunningServer): TestServer {
  return {
    get url() {
      return ready().url;
    },
    get pid() {
      return ready().pid;
    },
    logs: () => ready().logs(),
    stop: () => ready().stop(),
    kill: (signal) => ready().kill(signal),
    cookie: async (email, password) => (await loginClient(ready().url, email, password)).cookie,
    client: async (email, password) =>
      email === undefined ? apiClient(ready().url) : loginClient(ready().url, email, password ?? ""),
  };
}

/**
 * `count` servers of the test file (`next start` on the production build, NEXT_DIST_DIR or
 * .next, each on a free port), started together in a beforeAll registered where this is called
 * and stopped in the matching afterAll; they share the test database (DATABASE_URL as
 * `useTestDatabase` set it, unless `env` names another). Call it below the beforeAll that seeds
 * what the servers must find at start. `env` may be a function, read when the servers start (for
 * values an earlier hook computes, such as a fake API's URL).
 */
export function useTestServers(count: number, opts: { env?: TEnv | (() => TEnv) } = {}): TestServer[] {
  let running: RunningServer[] = [];
  beforeAll(async () => {
    const env = { DATABASE_URL: process.env.DATABASE_URL, ...(typeof opts.env === "function" ? opts.env() : opts.env) };
    const started = await Promise.allSettled(Array.from({ length: count }, () => startServer(env)));
    running = started.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    const failed = started.find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
  });
  afterAll(async () => {
    await Promise.all(running.map((s) => s.stop()));
    running = [];
  });
  return Array.from({ length: count }, (_, i) =>
    serverHandle(() => {
      const server = running[i];
      if (!server) throw new Error("useTestServer: the server runs only inside hooks and tests");
      return server;
    }),
  );
}

/** The test file's server: `useTestServers(1, opts)`. */
export function useTestServer(opts: { env?: TEnv | (() => TEnv) } = {}): TestServer {
  return useTestServers(1, opts)[0];
}

/** The annotator project of `useAnnotatorProject`: its database, seeded fixture and server. */
export type AnnotatorProject = { testDb: TestDb; readonly db: Db; readonly fx: TFixture; server: TestServer };

/**
 * The annotator project of tests/integration/annotate-fixture.ts on the file's test database,
 * served by `useTestServer`. `prepare` runs after seeding and before the server starts (e.g.
 * judgements a test needs in place).
 */
export function useAnnotatorProject(
  prepare?: (db: Db, fx: TFixture) => Promise<void>,
  opts: { env?: TEnv | (() => TEnv) } = {},
): AnnotatorProject {
  const testDb = useTestDatabase();
  let seeded: { db: Db; fx: TFixture } | undefined;
  const ready = () => {
    if (!seeded) throw new Error("useAnnotatorProject: the project exists only inside hooks and tests");
    return seeded;
  };
  beforeAll(async () => {
    // Imported here: the fixture and the database client load after useTestDatabase set DATABASE_URL.
    const { getDb } = await import("../../lib/db/client.ts");
    const { seedAnnotationFixture } = await import("../integration/annotate-fixture.ts");
    const db = await getDb();
    const fx = await seedAnnotationFixture(db);
    await prepare?.(db, fx);
    seeded = { db, fx };
  });
  const server = useTestServer(opts);
  return {
    testDb,
    server,
    get db() {
      return ready().db;
    },
    get fx() {
      return ready().fx;
    },
  };
}
