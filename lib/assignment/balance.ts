import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { RandomFn } from "../stats/random.ts";
import { action, field, say } from "../terms.ts";
import type { Column } from "../db/dialect.ts";
import { normalizeEmail } from "../users/users.ts";

/**
 * Balancing, shared by pool items (lib/assignment/assign.ts) and generated answers
 * (lib/answers/assign.ts): who may be given items, who has how many, and the rule that gives each
 * item its missing annotators, the least loaded first (ties broken at random, from the seed).
 */

/** The columns a balanced row ([poolItemId, userId, orderKey]) is inserted into "Assignment" by. */
export const ASSIGNMENT_COLUMNS: Column[] = [
  { name: "poolItemId", type: "text" },
  { name: "userId", type: "text" },
  { name: "orderKey", type: "float" },
];

/** `perItem` is a whole number ≥ 1. */

export function checkPerItem(perItem: number): void {
  if (!Number.isInteger(perItem) || perItem < 1)
    throw new AppError("bad_input", say`${field("perItem")}: expected a whole number ≥ 1, got ${perItem}`);
}

/** The annotators to balance over (`resolveAnnotators`), at least `perItem` of them. */
export async function annotatorsFor(
  db: Db,
  perItem: number,
  emails?: string[],
): Promise<{ id: string; email: string }[]> {
  const annotators = await resolveAnnotators(db, emails);
  if (annotators.length < perItem) {
    throw new AppError(
      "bad_input",
      say`${field("perItem")} ${perItem} needs at least ${perItem} annotators, but only ${annotators.length} ${annotators.length === 1 ? "is" : "are"} available (${annotators.map((a) => a.email).join(", ") || "none"})`,
    );
  }
  return annotators;
}

/**
 * Who already has each item (item id → user ids) and how many items each chosen annotator has
 * (annotators outside the choice are not counted): where balancing starts. Also the answer task's.
 */
export function assignmentLoad(
  existing: readonly { itemId: string; userId: string }[],
  annotators: readonly { id: string }[],
): { assignedTo: Map<string, Set<string>>; load: Map<string, number> } {
  const assignedTo = new Map<string, Set<string>>();
  const load = new Map<string, number>(annotators.map((a) => [a.id, 0]));
  for (const a of existing) {
    const set = assignedTo.get(a.itemId);
    if (set) set.add(a.userId);
    else assignedTo.set(a.itemId, new Set([a.userId]));
    if (load.has(a.userId)) load.set(a.userId, (load.get(a.userId) ?? 0) + 1);
  }
  return { assignedTo, load };
}

/** The annotators named by email (each active, role annotator: a located problem otherwise), or every active annotator. Also the answer task's (lib/answers/assign.ts). */
export async function resolveAnnotators(db: Db, emails?: string[]): Promise<{ id: string; email: string }[]> {
  if (!emails || emails.length === 0) {
    const all = await db.user.findMany({
      where: { role: "annotator", active: true },
      select: { id: true, email: true },
      orderBy: { email: "asc" },
    });
    if (all.length === 0)
      throw new AppError("bad_input", say`no active annotators: add some with: ${action("addAnnotators")}`);
    return all;
  }
  const wanted = [...new Set(emails.map(normalizeEmail).filter(Boolean))];
  const users = await db.user.findMany({
    where: { email: { in: wanted } },
    select: { id: true, email: true, role: true, active: true },
  });
  const problems: string[] = [];
  for (const email of wanted) {
    const u = users.find((x) => x.email === email);
    if (!u) problems.push(`${email}: no such user`);
    else if (!u.active) problems.push(`${email}: deactivated`);
    else if (u.role !== "annotator") problems.push(`${email}: role is ${u.role}, expected annotator`);
  }
  if (problems.length) throw new AppError("bad_input", say`${field("annotators")}: ${problems.join("; ")}`);
  return wanted.map((email) => {
    const u = users.find((x) => x.email === email);
    return { id: u!.id, email };
  });
}

/**
 * Gives each target its missing annotators (up to `perItem`, never one twice), the least loaded
 * first, ties broken by `rng`; each new assignment gets a random order key. Updates `load`. The
 * draws from `rng` are in a fixed order (per target: one per eligible annotator, then one per
 * chosen one), so a seed reproduces the assignment.
 */
export function balance(
  targets: readonly { id: string }[],
  annotators: readonly { id: string }[],
  current: { assignedTo: ReadonlyMap<string, ReadonlySet<string>>; load: Map<string, number> },
  perItem: number,
  rng: RandomFn,
): {
  rows: { itemId: string; userId: string; orderKey: number }[];
  added: Map<string, number>;
  toppedUp: string[];
  shortfall: number;
} {
  const { assignedTo, load } = current;
  const rows: { itemId: string; userId: string; orderKey: number }[] = [];
  const added = new Map<string, number>(annotators.map((a) => [a.id, 0]));
  const toppedUp: string[] = [];
  let shortfall = 0;
  for (const item of targets) {
    const already = assignedTo.get(item.id) ?? new Set<string>();
    const needed = perItem - already.size;
    if (needed <= 0) continue;
    const eligible = annotators
      .filter((a) => !already.has(a.id))
      .map((a) => ({ id: a.id, load: load.get(a.id) ?? 0, tie: rng() }));
    eligible.sort((a, b) => a.load - b.load || a.tie - b.tie);
    const chosen = eligible.slice(0, needed);
    if (chosen.length < needed) shortfall++;
    if (chosen.length) toppedUp.push(item.id);
    for (const c of chosen) {
      rows.push({ itemId: item.id, userId: c.id, orderKey: rng() });
      load.set(c.id, (load.get(c.id) ?? 0) + 1);
      added.set(c.id, (added.get(c.id) ?? 0) + 1);
    }
  }
  return { rows, added, toppedUp, shortfall };
}
