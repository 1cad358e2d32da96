/**
 * Dry runs of a write (pool and assign preview what they will do). The write runs
 * in its transaction as it would, then `rollbackIf(true, result)` throws this, the transaction is
 * rolled back, and `withDryRun` hands back the result: the preview is the real computation, not a
 * second implementation of it.
 */
export class DryRunRollback<T> extends Error {
  constructor(readonly result: T) {
    super("dry run: rolled back");
    this.name = "DryRunRollback";
  }
}

/** At the end of a transaction body: the result, or (dry run) a rollback carrying it. */
export function rollbackIf<T>(dryRun: boolean | undefined, result: T): T {
  if (dryRun) throw new DryRunRollback(result);
  return result;
}

/** The write's result, also when it was rolled back as a dry run. */
export async function withDryRun<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (e) {
    if (e instanceof DryRunRollback) return e.result as T;
    throw e;
  }
}
