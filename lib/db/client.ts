import type { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type { PrismaClient as SqliteClient } from "./generated/sqlite/client.ts";
import { ensureSqliteDir, readDbConfig, type DbConfig } from "./config.ts";
import { closeSql } from "./sql.ts";

/**
 * The one Prisma module. The client is chosen from DATABASE_URL at run time (SQLite by default,
 * PostgreSQL for postgres:// URLs) and cached on globalThis so that Next's hot reload and the
 * test suite do not open a connection per import. Password hashes are omitted from every query
 * unless a caller asks for them explicitly (lib/auth).
 *
 * Each database's client and driver adapter is imported when first used: a CLI command on SQLite
 * does not load node-postgres, nor one on PostgreSQL better-sqlite3 (start time).
 */
const clientOptions = { omit: { user: { passwordHash: true } } } as const;

/** The type every caller sees. The PostgreSQL client has the same models and methods; its
 * generated type differs only in details we do not use (isolation levels, some filters). */
const construct = (Client: typeof SqliteClient, adapter: PrismaBetterSqlite3) =>
  new Client({ adapter, ...clientOptions });
export type Db = ReturnType<typeof construct>;

async function makeSqlite(config: Extract<DbConfig, { provider: "sqlite" }>): Promise<Db> {
  ensureSqliteDir(config.file);
  const [{ PrismaBetterSqlite3 }, { PrismaClient }] = await Promise.all([
    import("@prisma/adapter-better-sqlite3"),
    import("./generated/sqlite/client.ts"),
  ]);
  const adapter = new PrismaBetterSqlite3({ url: config.file, timeout: 15_000 });
  return construct(PrismaClient, adapter);
}

async function makePostgres(config: Extract<DbConfig, { provider: "postgres" }>): Promise<Db> {
  const [{ PrismaPg }, { PrismaClient }] = await Promise.all([
    import("@prisma/adapter-pg"),
    import("./generated/postgres/client.ts"),
  ]);
  const url = new URL(config.url);
  url.searchParams.delete("schema");
  const pool = {
    connectionString: url.toString(),
    max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
    ...(config.schema ? { options: `-c search_path="${config.schema}"` } : {}),
  };
  const adapter = new PrismaPg(pool, config.schema ? { schema: config.schema } : undefined);
  // The one cast between the two generated clients (see ../shared/STACK.md).
  return new PrismaClient({ adapter, ...clientOptions }) as unknown as Db;
}

type Cached = { key: string; db: Promise<Db>; ready: Promise<void> };
const globalForDb = globalThis as unknown as { __assessorDb?: Cached };

async function prepare(db: Db, config: DbConfig): Promise<void> {
  if (config.provider === "sqlite") {
    // WAL lets readers (the app) and a writer (an import) work at once; NORMAL is durable in WAL
    // mode against application crashes, which is what "never lose an acknowledged grade" needs.
    await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
    await db.$executeRawUnsafe("PRAGMA synchronous = NORMAL");
    await db.$executeRawUnsafe("PRAGMA foreign_keys = ON");
  }
}

export function dbProvider(): DbConfig["provider"] {
  return readDbConfig().provider;
}

/** The shared client, connected and configured. */
export async function getDb(): Promise<Db> {
  const config = readDbConfig();
  const key = config.url;
  const cached = globalForDb.__assessorDb;
  if (cached && cached.key === key) {
    await cached.ready;
    return cached.db;
  }
  if (cached) await (await cached.db).$disconnect();
  const made = config.provider === "sqlite" ? makeSqlite(config) : makePostgres(config);
  const entry: Cached = { key, db: made, ready: made.then((db) => prepare(db, config)) };
  globalForDb.__assessorDb = entry;
  await entry.ready;
  return made;
}

export async function closeDb(): Promise<void> {
  const cached = globalForDb.__assessorDb;
  globalForDb.__assessorDb = undefined;
  closeSql();
  if (cached) await (await cached.db).$disconnect();
}

export type { Prisma } from "./generated/sqlite/client.ts";
export type {
  User,
  Project,
  Video,
  Chunk,
  Query,
  QueryTag,
  QueryPlace,
  QueryEvent,
  Run,
  RunEntry,
  PoolItem,
  PoolProvenance,
  Assignment,
  Judgement,
  Adjudication,
  JudgeLabel,
  ReferenceLabel,
  LabelEvent,
  ImportRecord,
  JudgeRun,
  JudgeTask,
} from "./generated/sqlite/browser.ts";
export { Role, DisagreementRule, LabelKind, QuestionStatus } from "./generated/sqlite/enums.ts";
