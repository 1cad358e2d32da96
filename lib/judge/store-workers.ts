/**
 * The workers of judge runs (store.ts): registering, heartbeats, removal, and reclaiming the
 * tasks of workers that are gone.
 *
 * Dead workers: each live worker beats every HEARTBEAT_MS. A worker whose beat is older than
 * STALE_MS, or whose process is gone (same host, `kill(pid, 0)` fails), is removed and its running
 * tasks go back to pending: a run stopped by `kill -9` resumes at once on the same machine.
 */
import { hostname } from "node:os";
import type { Db } from "../db/client.ts";
import { exec, provider, sqlTransaction } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { action, say } from "../terms.ts";
import { taskBuilder, type TTaskTable } from "./task-table.ts";

export const HEARTBEAT_MS = 2_000;
export const STALE_MS = 15_000;

const now = () => new Date();

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes workers that are gone (stale heartbeat, or a dead process on this host) and puts their
 * running tasks back to pending. Returns how many tasks were put back.
 */
export async function reclaimDead(db: Db, runId: number, table: TTaskTable = "JudgeTask"): Promise<number> {
  const workers = await db.judgeWorker.findMany({ where: { runId } });
  const host = hostname();
  const staleBefore = Date.now() - STALE_MS;
  const dead = workers
    .filter(
      (w) => w.heartbeatAt.getTime() < staleBefore || (w.host === host && w.pid !== process.pid && !pidAlive(w.pid)),
    )
    .map((w) => w.id);
  return sqlTransaction(db, function* () {
    for (const id of dead) yield* exec((k) => k.deleteFrom("JudgeWorker").where("id", "=", id));
    const p = yield* provider();
    // Running tasks whose worker is no longer registered (dead above, or removed earlier).
    return yield* exec(() =>
      taskBuilder(p)
        .updateTable(table)
        .set({ status: "pending", workerId: null, claimedAt: null })
        .where("runId", "=", runId)
        .where("status", "=", "running")
        .where((eb) =>
          eb.or([
            eb("workerId", "is", null),
            eb(
              "workerId",
              "not in",
              eb.selectFrom("JudgeWorker").select("JudgeWorker.id").where("JudgeWorker.runId", "=", runId),
            ),
          ]),
        ),
    );
  });
}

/**
 * Registers this process as a worker of the run. On SQLite it refuses when another live worker
 * holds the run (one statement: insert only if no fresh heartbeat exists).
 */
export async function registerWorker(
  db: Db,
  runId: number,
  workerId: string,
  table: TTaskTable = "JudgeTask",
): Promise<void> {
  await reclaimDead(db, runId, table);
  const fresh = new Date(Date.now() - STALE_MS);
  const inserted = await sqlTransaction(db, function* () {
    const p = yield* provider();
    if (p === "postgres") {
      return yield* exec((k) =>
        k
          .insertInto("JudgeWorker")
          .values({ id: workerId, runId, host: hostname(), pid: process.pid, startedAt: now(), heartbeatAt: now() }),
      );
    }
    return yield* exec((k) =>
      k
        .insertInto("JudgeWorker")
        .columns(["id", "runId", "host", "pid", "startedAt", "heartbeatAt"])
        .expression(
          k
            .selectNoFrom((eb) => [
              eb.val(workerId).as("id"),
              eb.val(runId).as("runId"),
              eb.val(hostname()).as("host"),
              eb.val(process.pid).as("pid"),
              eb.val(now()).as("startedAt"),
              eb.val(now()).as("heartbeatAt"),
            ])
            .where((eb) =>
              eb.not(
                eb.exists(
                  eb
                    .selectFrom("JudgeWorker")
                    .select(eb.lit(1).as("one"))
                    .where("runId", "=", runId)
                    .where("heartbeatAt", ">", fresh),
                ),
              ),
            ),
        ),
    );
  });
  if (inserted === 0) {
    const other = await db.judgeWorker.findFirst({ where: { runId }, orderBy: { heartbeatAt: "desc" } });
    const age = other ? Math.round((Date.now() - other.heartbeatAt.getTime()) / 1000) : 0;
    throw new AppError(
      "conflict",
      say`run ${runId} is being judged by another worker (pid ${other?.pid ?? "?"} on ${other?.host ?? "?"}, last heartbeat ${age} s ago). On SQLite one worker runs a run at a time: wait for it, stop it (${action("cancelJudge")}), or use PostgreSQL to share a run between workers.`,
    );
  }
}

export async function heartbeat(db: Db, workerId: string): Promise<boolean> {
  const n = await sqlTransaction(db, function* () {
    return yield* exec((k) => k.updateTable("JudgeWorker").set({ heartbeatAt: now() }).where("id", "=", workerId));
  });
  return n === 1;
}

export async function removeWorker(
  db: Db,
  runId: number,
  workerId: string,
  table: TTaskTable = "JudgeTask",
): Promise<void> {
  await sqlTransaction(db, function* () {
    const p = yield* provider();
    yield* exec(() =>
      taskBuilder(p)
        .updateTable(table)
        .set({ status: "pending", workerId: null, claimedAt: null })
        .where("runId", "=", runId)
        .where("workerId", "=", workerId)
        .where("status", "=", "running"),
    );
    yield* exec((k) => k.deleteFrom("JudgeWorker").where("id", "=", workerId));
  });
}

export async function liveWorkers(db: Db, runId: number): Promise<number> {
  return db.judgeWorker.count({ where: { runId, heartbeatAt: { gt: new Date(Date.now() - STALE_MS) } } });
}
