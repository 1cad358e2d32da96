import "server-only";
import { getDb } from "../db/client.ts";
import { get, sqlRead } from "../db/sql.ts";

export type TUserRow = {
  id: string;
  email: string;
  name: string;
  role: string;
  active: boolean | number;
  sessionVersion: number | bigint;
};

/**
 * The user as the database has them now, for the session check: one primary-key lookup in direct
 * SQL (lib/db/sql.ts), since it precedes every authenticated request.
 */
export async function currentUser(id: string): Promise<TUserRow | undefined> {
  return sqlRead(await getDb(), () =>
    get<TUserRow>(`SELECT "id", "email", "name", "role", "active", "sessionVersion" FROM "User" WHERE "id" = ?`, [id]),
  );
}

/** True when the user exists, is active and still has the session version the token carries. */
export function sessionStillValid(user: TUserRow | undefined, version: number): user is TUserRow {
  return Boolean(user && user.active && Number(user.sessionVersion) === version);
}
