import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { bulkTransaction, sqliteNow } from "../imports/bulk.ts";
import { int, isConstraintViolation } from "../pooling/sql.ts";
import { normalizeEmail } from "../users/users.ts";
import { mulberry32, randomSeed, shuffle } from "./random.ts";
import { calibrationSample, judgeStratumGrade } from "./sample.ts";

export type TAssignOptions = {
  perItem: number;
  annotators?: string[];
  sample?: number;
  /** With `sample`: draw only from items whose query has one of these tags (to fill thin slices). */
  tags?: string[];
  seed?: number;
};
export type TAssignResult = {
  seed: number;
  perItem: number;
  /** Pool items this call worked on (all of them, or the calibration sample). */
  items: number;
  /** Items that received at least one new assignment. */
  itemsToppedUp: number;
  created: number;
  calibration: number;
  /** Items still short of perItem because too few eligible annotators were left. */
  shortfall: number;
  annotators: { email: string; added: number; total: number }[];
};

/**
 * Assigns pool items to annotators.
 *
 * - Every targeted item is topped up to `perItem` distinct annotators; existing assignments (of
 *   anyone) count, so running it again adds nothing, and nobody is assigned an item twice.
 * - Load is balanced over the project: each new assignment goes to the eligible annotator with
 *   the fewest assignments in this project so far (ties broken at random). Starting from equal
 *   loads this keeps every annotator within 1 of every other; with unequal existing loads it
 *   closes the gap as fast as possible.
 * - Each assignment gets a random `orderKey`, which fixes that annotator's order of items
 *   within a query (lib/annotate sorts by it).
 * - `sample: N` picks a calibration subset of N items that have no assignment yet
 *   (lib/assignment/sample.ts describes the stratification) and marks their assignments
 *   `calibration`. With `tags` as well, only items of queries with one of those tags are drawn.
 *   Without `sample`, every pool item is targeted.
 * - Default annotators: every active user with the annotator role.
 * All randomness comes from `seed` (random when not given; returned so a run can be repeated).
 */
export async function assign(db: Db, projectId: number, opts: TAssignOptions): Promise<TAssignResult> {
  const { perItem } = opts;
  if (!Number.isInteger(perItem) || perItem < 1) throw new AppError("bad_input", `--per-item: expected a whole number ≥ 1, got ${perItem}`);
  if (opts.tags?.length && opts.sample === undefined) throw new AppError("bad_input", "--tags only applies with --sample");
  if (opts.sample !== undefined && (!Number.isInteger(opts.sample) || opts.sample < 1)) {
    throw new AppError("bad_input", `--sample: expected a whole number ≥ 1, got ${opts.sample}`);
  }
  const seed = opts.seed ?? randomSeed();
  const calibration = opts.sample !== undefined;
  const rng = mulberry32(seed);

  const annotators = await resolveAnnotators(db, opts.annotators);
  if (annotators.length < perItem) {
    throw new AppError("bad_input", `--per-item ${perItem} needs at least ${perItem} annotators, but only ${annotators.length} ${annotators.length === 1 ? "is" : "are"} available (${annotators.map((a) => a.email).join(", ") || "none"})`);
  }

  try {
    return await bulkTransaction(db, async (tx) => {
      const pid = int(projectId);
      const items = (await tx.all<{ id: string; queryId: number; chunkId: number }>(`SELECT "id", "queryId", "chunkId" FROM "PoolItem" WHERE "projectId" = ${pid}`)).map((r) => ({
        id: r.id,
        queryId: Number(r.queryId),
        chunkId: Number(r.chunkId),
      }));
      if (items.length === 0) throw new AppError("bad_input", "the pool is empty: build it first with: npx assessor pool --depth K");
      const existing = await tx.all<{ poolItemId: string; userId: string }>(
        `SELECT a."poolItemId", a."userId" FROM "Assignment" a JOIN "PoolItem" p ON p."id" = a."poolItemId" WHERE p."projectId" = ${pid}`,
      );
      const assignedTo = new Map<string, Set<string>>();
      const load = new Map<string, number>(annotators.map((a) => [a.id, 0]));
      for (const a of existing) {
        const set = assignedTo.get(a.poolItemId);
        if (set) set.add(a.userId);
        else assignedTo.set(a.poolItemId, new Set([a.userId]));
        if (load.has(a.userId)) load.set(a.userId, (load.get(a.userId) ?? 0) + 1);
      }

      let targets: { id: string }[];
      if (opts.sample !== undefined) {
        const judge = await tx.all<{ queryId: number; chunkId: number; grade: number }>(`SELECT "queryId", "chunkId", "grade" FROM "JudgeLabel" WHERE "projectId" = ${pid}`);
        const judgeGrades = new Map<string, number[]>();
        for (const j of judge) {
          const key = `${Number(j.queryId)}:${Number(j.chunkId)}`;
          const list = judgeGrades.get(key);
          if (list) list.push(Number(j.grade));
          else judgeGrades.set(key, [Number(j.grade)]);
        }
        let tagged: Set<number> | null = null;
        if (opts.tags && opts.tags.length > 0) {
          const tagRows = await tx.all<{ queryId: number }>(
            `SELECT DISTINCT t."queryId" FROM "QueryTag" t JOIN "Query" q ON q."id" = t."queryId" WHERE q."projectId" = ${pid} AND t."tag" IN (${opts.tags.map(() => "?").join(", ")})`,
            opts.tags,
          );
          tagged = new Set(tagRows.map((r) => Number(r.queryId)));
        }
        const candidates = items
          .filter((it) => !assignedTo.has(it.id) && (tagged === null || tagged.has(it.queryId)))
          .map((it) => ({ id: it.id, queryId: it.queryId, judgeGrade: judgeStratumGrade(judgeGrades.get(`${it.queryId}:${it.chunkId}`) ?? []) }));
        targets = calibrationSample(candidates, opts.sample, rng);
      } else {
        targets = shuffle(items.sort((a, b) => (a.id < b.id ? -1 : 1)), rng);
      }

      const rows: [string, string, number][] = [];
      const added = new Map<string, number>(annotators.map((a) => [a.id, 0]));
      const toppedUpIds: string[] = [];
      let shortfall = 0;
      for (const item of targets) {
        const already = assignedTo.get(item.id) ?? new Set<string>();
        const needed = perItem - already.size;
        if (needed <= 0) continue;
        const eligible = annotators.filter((a) => !already.has(a.id)).map((a) => ({ id: a.id, load: load.get(a.id) ?? 0, tie: rng() }));
        eligible.sort((a, b) => a.load - b.load || a.tie - b.tie);
        const chosen = eligible.slice(0, needed);
        if (chosen.length < needed) shortfall++;
        if (chosen.length) toppedUpIds.push(item.id);
        for (const c of chosen) {
          rows.push([item.id, c.id, rng()]);
          load.set(c.id, (load.get(c.id) ?? 0) + 1);
          added.set(c.id, (added.get(c.id) ?? 0) + 1);
        }
      }

      // In (poolItemId, userId) order, the unique index's B-tree inserts land next to each other.
      rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
      // createdAt: PostgreSQL fills in its column default; on SQLite it is written in the form
      // Prisma itself stores. `calibration` defaults to false and is set below for a sample.
      const stamp = tx.provider === "sqlite" ? [{ name: "createdAt", type: "text" as const }] : [];
      const now = sqliteNow();
      await tx.insert(
        "Assignment",
        [{ name: "poolItemId", type: "text" }, { name: "userId", type: "text" }, { name: "orderKey", type: "float" }, ...stamp],
        rows.length,
        (i) => (stamp.length ? [...rows[i], now] : rows[i]),
      );
      if (calibration) {
        // Sampled items had no assignment before this call, so every assignment of theirs is new.
        for (let i = 0; i < toppedUpIds.length; i += 500) {
          const batch = toppedUpIds.slice(i, i + 500);
          await tx.run(`UPDATE "Assignment" SET "calibration" = TRUE WHERE "poolItemId" IN (${batch.map(() => "?").join(", ")})`, batch);
        }
      }
      return {
        seed,
        perItem,
        items: targets.length,
        itemsToppedUp: toppedUpIds.length,
        created: rows.length,
        calibration: calibration ? rows.length : 0,
        shortfall,
        annotators: annotators.map((a) => ({ email: a.email, added: added.get(a.id) ?? 0, total: load.get(a.id) ?? 0 })),
      };
    });
  } catch (e) {
    if (isConstraintViolation(e)) throw new AppError("conflict", "assignments were changed by another command at the same time; run assign again");
    throw e;
  }
}

async function resolveAnnotators(db: Db, emails?: string[]): Promise<{ id: string; email: string }[]> {
  if (!emails || emails.length === 0) {
    const all = await db.user.findMany({ where: { role: "annotator", active: true }, select: { id: true, email: true }, orderBy: { email: "asc" } });
    if (all.length === 0) throw new AppError("bad_input", "no active annotators: add some with: npx assessor user add --role annotator …");
    return all;
  }
  const wanted = [...new Set(emails.map(normalizeEmail).filter(Boolean))];
  const users = await db.user.findMany({ where: { email: { in: wanted } }, select: { id: true, email: true, role: true, active: true } });
  const problems: string[] = [];
  for (const email of wanted) {
    const u = users.find((x) => x.email === email);
    if (!u) problems.push(`${email}: no such user`);
    else if (!u.active) problems.push(`${email}: deactivated`);
    else if (u.role !== "annotator") problems.push(`${email}: role is ${u.role}, expected annotator`);
  }
  if (problems.length) throw new AppError("bad_input", `--annotators: ${problems.join("; ")}`);
  return wanted.map((email) => {
    const u = users.find((x) => x.email === email);
    return { id: u!.id, email };
  });
}
