import { describe, expect, it } from "vitest";
import type { Prisma as PgPrisma } from "../../../lib/db/generated/postgres/client.ts";
import { compileFor } from "../../../lib/db/query.ts";
import type { DatabaseOf, DB } from "../../../lib/db/schema.ts";

/**
 * Typed statements are checked against the schema at compile time (`npx tsc --noEmit`):
 * lib/db/schema.ts derives the query builder's tables from the generated Prisma client, so after a
 * field is renamed in prisma/schema.prisma and `npm run generate` is run, the select below no
 * longer type-checks ("Judgement.grade" would read `Argument of type '"grade"' is not assignable`
 * to the new column names), on SQLite and PostgreSQL alike: both dialects compile the one
 * statement, and both generated clients give the same database type (the assertion below).
 */
type TSame<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type TPgDB = DatabaseOf<PgPrisma.TypeMap["model"]>;
// Column by column (comparing whole tables, or the two database types at once, exceeds
// TypeScript's depth on the generated payload types).
type TColumnsSame<A, B> = false extends { [C in keyof A & keyof B]: TSame<A[C], B[C]> }[keyof A & keyof B]
  ? false
  : TSame<keyof A, keyof B>;
type TEveryTableSame = false extends { [K in keyof DB & keyof TPgDB]: TColumnsSame<DB[K], TPgDB[K]> }[keyof DB &
  keyof TPgDB]
  ? false
  : TSame<keyof DB, keyof TPgDB>;
const sameOnBothDialects: TEveryTableSame = true;

const gradeOf = (poolItemId: string, userId: string) => (k: Parameters<Parameters<typeof compileFor>[1]>[0]) =>
  k
    .selectFrom("Judgement")
    .select(["id", "grade", "updatedAt"])
    .where("poolItemId", "=", poolItemId)
    .where("userId", "=", userId);

describe("typed statements", () => {
  it("derive one database type from both generated clients", () => {
    expect(sameOnBothDialects).toBe(true);
  });

  it("compile a select of real columns for SQLite and PostgreSQL, values as parameters", () => {
    const sqlite = compileFor("sqlite", gradeOf("p1", "u1"));
    const pg = compileFor("postgres", gradeOf("p1", "u1"));
    expect(sqlite.sql).toBe(
      'select "id", "grade", "updatedAt" from "Judgement" where "poolItemId" = ? and "userId" = ?',
    );
    expect(pg.sql).toBe('select "id", "grade", "updatedAt" from "Judgement" where "poolItemId" = $1 and "userId" = $2');
    expect(sqlite.params).toEqual(["p1", "u1"]);
    expect(pg.params).toEqual(["p1", "u1"]);
  });

  it("types the selected row from the schema (DateTime as Date or SQLite's text)", () => {
    type TRow = Awaited<ReturnType<ReturnType<ReturnType<typeof gradeOf>>["executeTakeFirstOrThrow"]>>;
    const row: TRow = { id: 1, grade: 2, updatedAt: "2026-01-01T00:00:00.000+00:00" };
    const id: number = row.id;
    expect(id).toBe(1);
  });
});

// A column that does not exist is not a column: no index signature lets it through.
type TJudgementColumns = keyof DB["Judgement"];
const onlyRealColumns: TSame<string extends TJudgementColumns ? "any name" : "named columns", "named columns"> = true;
void onlyRealColumns;
