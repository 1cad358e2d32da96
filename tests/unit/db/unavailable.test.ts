import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "../../../lib/db/unavailable.ts";

/** Which errors answer 503 (database unreachable, retry) rather than 500. */
describe("isDatabaseUnavailable", () => {
  const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });
  it("knows Prisma's connection codes, Node's socket errors and SQLSTATE class 08, along the cause chain", () => {
    for (const code of ["P1001", "P1017", "P2024", "ECONNREFUSED", "ECONNRESET", "08006", "57P01"])
      expect([code, isDatabaseUnavailable(withCode(code))]).toEqual([code, true]);
    expect(isDatabaseUnavailable(new Error("wrapped", { cause: withCode("ECONNREFUSED") }))).toBe(true);
    expect(isDatabaseUnavailable({ name: "DriverAdapterError", cause: { kind: "DatabaseNotReachable" } })).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("aggregate"), { errors: [withCode("ECONNREFUSED")] }))).toBe(
      true,
    );
  });
  it("knows the pg driver's codeless connection-lost errors, by their exact text only", () => {
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated by the user's request"))).toBe(false);
  });
  it("leaves everything else a 500: unique violations, bugs, non-errors", () => {
    expect(isDatabaseUnavailable(withCode("P2002"))).toBe(false);
    expect(isDatabaseUnavailable(withCode("23505"))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("undefined is not a function"))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
    expect(isDatabaseUnavailable("ECONNREFUSED")).toBe(false);
  });
});

/** Which errors mean PostgreSQL aborted a transaction so that another could go on (run it again). */
describe("isTransactionConflict", () => {
  it("knows deadlocks and serialization failures by SQLSTATE, the pg adapter's kind and Prisma's code", async () => {
    const { isTransactionConflict } = await import("../../../lib/db/unavailable.ts");
    const withCode = (code: string) => Object.assign(new Error("x"), { code });
    for (const code of ["40P01", "40001", "P2034"])
      expect([code, isTransactionConflict(withCode(code))]).toEqual([code, true]);
    expect(
      isTransactionConflict({
        code: "P2010",
        meta: { driverAdapterError: { cause: { kind: "TransactionWriteConflict" } } },
      }),
    ).toBe(true);
    expect(isTransactionConflict(withCode("23505"))).toBe(false);
    expect(isTransactionConflict(withCode("P2028"))).toBe(false);
    expect(isTransactionConflict(null)).toBe(false);
  });
});
