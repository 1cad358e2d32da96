import { randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { z } from "zod";
import type { Db, User } from "../db/client.ts";
import { AppError, isUniqueViolation } from "../errors.ts";
import { MAX_EMAIL_CHARS } from "../bounds.ts";
import { ROLES } from "../auth/permissions.ts";

/**
 * Users and their passwords. Passwords are hashed with argon2id (@node-rs/argon2's default
 * algorithm, with its default cost: m=19 MiB, t=2, p=1, the OWASP minimum). Emails are stored
 * trimmed and lower-cased, and looked up the same way, so "Ann@X.org" and "ann@x.org" are one user.
 */
export const ZRole = z.enum(ROLES);
export type TUserRole = z.infer<typeof ZRole>;

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_CHARS = 1024;
export const ZPassword = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `a password needs at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_CHARS);
export const ZEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(MAX_EMAIL_CHARS, `expected an email address of at most ${MAX_EMAIL_CHARS} characters`)
  .pipe(z.email("expected an email address such as ann@example.org"));

export const ZNewUser = z.object({
  email: ZEmail,
  name: z.string().trim().min(1, "a name is required").max(200),
  role: ZRole,
  password: ZPassword,
});
export type TNewUser = z.input<typeof ZNewUser>;

/** The fields of a user that may leave the server. */
export type TPublicUser = Pick<User, "id" | "email" | "name" | "role" | "active" | "createdAt">;
const publicSelect = { id: true, email: true, name: true, role: true, active: true, createdAt: true } as const;

export type TUserRef = { id: string } | { email: string };

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

function whereRef(ref: TUserRef) {
  return "id" in ref ? { id: ref.id } : { email: normalizeEmail(ref.email) };
}

function describeRef(ref: TUserRef): string {
  return "id" in ref ? `id ${ref.id}` : normalizeEmail(ref.email);
}

function badInput(error: z.ZodError): AppError {
  return new AppError(
    "bad_input",
    error.issues.map((i) => `${i.path.join(".") || "value"}: ${i.message}`).join("; "),
    error.issues,
  );
}

export async function hashPassword(password: string): Promise<string> {
  const parsed = ZPassword.safeParse(password);
  if (!parsed.success) throw badInput(parsed.error);
  return hash(parsed.data);
}

/** A random password for a new account, printed once by the CLI: 24 URL-safe characters (144 bits). */
export function generatePassword(): string {
  return randomBytes(18).toString("base64url");
}

export async function createUser(db: Db, input: TNewUser): Promise<TPublicUser> {
  const parsed = ZNewUser.safeParse(input);
  if (!parsed.success) throw badInput(parsed.error);
  const { email, name, role, password } = parsed.data;
  const passwordHash = await hash(password);
  try {
    return await db.user.create({ data: { email, name, role, passwordHash }, select: publicSelect });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("conflict", `a user with email ${email} already exists`);
    throw e;
  }
}

// A valid argon2id hash of a random string: verifying against it when the email is unknown keeps
// the time the same as for a wrong password, so timing does not tell which emails exist.
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$92MzCJbGq5bhMCVgDcCVBg$AhCqbiDeyoCAjf9bcpHrMtftmV7TwpvhF1v77C2dpxo";

export type TCredentialsResult =
  | { ok: true; user: Pick<User, "id" | "email" | "name" | "role" | "sessionVersion"> }
  | { ok: false; reason: "invalid" | "inactive" };

/**
 * Checks an email and password. A deactivated user is refused ("inactive") even with the right
 * password; "inactive" is only reported after the password matched, so it reveals nothing to
 * someone who does not know the password.
 */
export async function verifyCredentials(db: Db, email: string, password: string): Promise<TCredentialsResult> {
  const user = await db.user.findUnique({
    where: { email: normalizeEmail(email) },
    select: { id: true, email: true, name: true, role: true, active: true, passwordHash: true, sessionVersion: true },
  });
  const matches = await verify(user?.passwordHash ?? DUMMY_HASH, password).catch(() => false);
  if (!user || !matches) return { ok: false, reason: "invalid" };
  if (!user.active) return { ok: false, reason: "inactive" };
  return {
    ok: true,
    user: { id: user.id, email: user.email, name: user.name, role: user.role, sessionVersion: user.sessionVersion },
  };
}

/**
 * Every change that must end the user's sessions (password, activity, role) bumps
 * User.sessionVersion in the same update: lib/auth/session.ts refuses a token that carries an
 * older version, on every app server. Reactivation bumps it too, so sessions from before a
 * deactivation never come back.
 */
async function updateUser(
  db: Db,
  ref: TUserRef,
  data: { passwordHash?: string; active?: boolean; role?: TUserRole },
): Promise<TPublicUser> {
  const found = await db.user.findUnique({ where: whereRef(ref), select: { id: true } });
  if (!found) throw new AppError("not_found", `no user ${describeRef(ref)}`);
  return db.user.update({
    where: { id: found.id },
    data: { ...data, sessionVersion: { increment: 1 } },
    select: publicSelect,
  });
}

/**
 * Ends the user's sessions (sign-out: every session of the user, on every device), when the
 * token's version is still the current one: a token revoked already cannot sign out the
 * session that replaced it.
 */
export async function revokeSessions(db: Db, userId: string, version: number): Promise<boolean> {
  const r = await db.user.updateMany({
    where: { id: userId, sessionVersion: version },
    data: { sessionVersion: { increment: 1 } },
  });
  return r.count === 1;
}

export async function setPassword(db: Db, ref: TUserRef, password: string): Promise<TPublicUser> {
  return updateUser(db, ref, { passwordHash: await hashPassword(password) });
}

/**
 * Deactivates (or reactivates) a user. Their labels stay; they can no longer sign in, and their
 * sessions end. `actorId`: who asks (the lead's page); nobody deactivates their own account, which
 * would sign them out for good (another lead can). The CLI acts as no user.
 */
export async function setActive(db: Db, ref: TUserRef, active: boolean, actorId?: string): Promise<TPublicUser> {
  if (!active && actorId !== undefined) {
    const found = await db.user.findUnique({ where: whereRef(ref), select: { id: true } });
    if (found?.id === actorId)
      throw new AppError(
        "forbidden",
        "you cannot deactivate your own account: you would be signed out for good (another lead can deactivate it)",
      );
  }
  return updateUser(db, ref, { active });
}

/** Changes a user's role; their sessions end (they sign in again with the new role). */
export async function setRole(db: Db, ref: TUserRef, role: TUserRole): Promise<TPublicUser> {
  const parsed = ZRole.safeParse(role);
  if (!parsed.success) throw badInput(parsed.error);
  return updateUser(db, ref, { role: parsed.data });
}

export async function listUsers(db: Db, opts: { role?: TUserRole; activeOnly?: boolean } = {}): Promise<TPublicUser[]> {
  return db.user.findMany({
    where: { ...(opts.role ? { role: opts.role } : {}), ...(opts.activeOnly ? { active: true } : {}) },
    select: publicSelect,
    // By email alone: an enum sorts by declaration order on PostgreSQL but as text on SQLite.
    orderBy: { email: "asc" },
  });
}
