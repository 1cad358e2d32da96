import type { ColumnType } from "kysely";
import type { Prisma } from "./generated/sqlite/client.ts";

/**
 * The query builder's database type (Kysely's `DB`), derived from the Prisma client generated
 * from prisma/schema.prisma, so it can never go stale: one table per model (no model is
 * @@map-ped, no field @map-ped, so model and field names are the table and column names), one
 * column per scalar field with the field's type.
 * - What direct SQL returns differs by database: a DateTime is text on SQLite and a Date on
 *   PostgreSQL (read it with dialect.ts sqlDate), a Boolean 0/1 on SQLite; the select types say so.
 * - A field that Prisma's createMany may leave out (an autoincrement id, a default) may be left
 *   out of an insert, except `updatedAt`: Prisma fills that one itself, raw SQL must write it.
 * Renaming a field in the schema renames it here at `npm run generate`, and every statement that
 * names the old column fails `tsc` (tests/unit/db/schema-types.test.ts shows it on both dialects).
 */
/** The shape of a generated client's model map that the derivation reads. */
type TModelMap = Record<
  string,
  { payload: { scalars: object }; operations: { createMany: { args: { data: unknown } } } }
>;

type TSelected<T> = T extends Date ? Date | string : T extends boolean ? boolean | number : T;
type TWritten<T> = T extends Date ? Date | string : T;
type TOptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];
type TCreateMany<M extends TModelMap[string]> = Exclude<
  M["operations"]["createMany"]["args"]["data"],
  readonly unknown[]
>;
type TScalars<M extends TModelMap[string]> = M["payload"]["scalars"];

type TTable<M extends TModelMap[string]> = {
  // Prisma's payload type carries a string index signature (for result extensions): dropped, so a
  // column that does not exist is an error, not `any`.
  [K in keyof TScalars<M> as string extends K ? never : K]: ColumnType<
    TSelected<TScalars<M>[K]>,
    K extends Exclude<TOptionalKeys<TCreateMany<M>>, "updatedAt">
      ? TWritten<TScalars<M>[K]> | undefined
      : TWritten<TScalars<M>[K]>,
    TWritten<TScalars<M>[K]>
  >;
};

/** The database type of one generated client's models (`Prisma.TypeMap["model"]`). */
export type DatabaseOf<Models extends TModelMap> = { [Name in keyof Models]: TTable<Models[Name]> };

export type DB = DatabaseOf<Prisma.TypeMap["model"]>;
