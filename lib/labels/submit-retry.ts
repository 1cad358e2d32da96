import type { Db } from "../db/client.ts";
import { isUniqueViolation, sqlTransaction, type TSqlBody } from "../db/sql.ts";
import { AppError } from "../errors.ts";

/**
 * Runs a label submission's statements in one transaction, again (at most three times in all) when
 * a unique index refuses a write: only reachable on PostgreSQL without the row lock's protection
 * (e.g. the first two labels of an item racing), where the retry sees the committed row and
 * updates it, or the event. After the third refusal, a conflict naming `what` ("the item").
 */
export async function submitWithRetry<T>(db: Db, makeBody: () => TSqlBody<T>, what: string): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await sqlTransaction(db, makeBody);
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      if (attempt >= 2) throw new AppError("conflict", `${what} was changed at the same time; submit again`);
    }
  }
}
