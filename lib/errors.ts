import type { z } from "zod";
import { fieldOf, inWords, type Field, type Said, type Surface } from "./terms.ts";

/**
 * Typed errors shared by the CLI, route handlers and server actions. Each carries a code that
 * maps to one HTTP status (lib/http/route.ts) and to a non-zero CLI exit (bin/cli.ts), and its
 * message as facts (lib/terms.ts): the fields and actions it names, which each surface says in its
 * own words (`sayTo`). `message` is the command line's wording, the one logs and scripts read.
 */
export type ErrorCode =
  | "bad_input"
  | "unauthenticated"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "too_large"
  | "too_many_requests"
  | "unavailable";

export const httpStatus: Record<ErrorCode, number> = {
  bad_input: 422,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  too_many_requests: 429,
  unavailable: 503,
};

export class AppError extends Error {
  /** The message as facts: text and the fields and actions it names. */
  readonly said: Said;
  /** The input field at fault (the first the message names), by its name in the domain. */
  readonly field?: Field;

  constructor(
    readonly code: ErrorCode,
    message: string | Said,
    readonly details?: unknown,
  ) {
    const said = typeof message === "string" ? [message] : message;
    super(inWords(said, "cli"));
    this.name = "AppError";
    this.said = said;
    this.field = fieldOf(said);
  }

  /** The message in the words of the surface that shows it: options on the command line, the form's fields on the page. */
  sayTo(surface: Surface): string {
    return inWords(this.said, surface);
  }

  /** The details as the surface sends them (a subclass whose details hold messages says them in its words). */
  detailsFor(surface: Surface): unknown {
    void surface;
    return this.details;
  }
}

/** The input as the schema reads it, or a bad_input error naming each problem (`path: message; …`), the issues as details. */
export function parsedInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new AppError(
    "bad_input",
    parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
    parsed.error.issues,
  );
}

/**
 * One problem in an input file, located precisely enough to fix it. `message` is the command
 * line's words; `said` the same message as facts (`say`) when it names something the user sets, an
 * option on the command line and a field on the page (`saidMessage` makes both).
 */
export type LocatedError = { file: string; line: number; field?: string; message: string; said?: Said };

/** The message of a located problem, as text and as facts. */
export const saidMessage = (said: Said): Pick<LocatedError, "message" | "said"> => ({
  message: inWords(said, "cli"),
  said,
});

/** The problem as facts: its place, then its message. */
export function locatedSaid(e: LocatedError): Said {
  return [`${e.file}:${e.line}${e.field ? `: ${e.field}` : ""}: `, ...(e.said ?? [e.message])];
}

/** The problem in the words of one surface (the command line's by default): `file:line: field: message`. */
export function formatLocated(e: LocatedError, surface: Surface = "cli"): string {
  return inWords(locatedSaid(e), surface);
}

/** The problem as one surface sends it: its message in that surface's words, without the facts. */
function locatedIn({ said, ...e }: LocatedError, surface: Surface): LocatedError {
  return said ? { ...e, message: inWords(said, surface) } : e;
}

/** A file (or upload) that failed validation. Nothing from it was written. */
export class ValidationError extends AppError {
  /** The problems in the command line's words. */
  readonly errors: LocatedError[];
  /** The problems with their facts, for the other surfaces. */
  readonly #located: LocatedError[];

  constructor(errors: LocatedError[]) {
    const shown = errors.slice(0, 50).flatMap((e) => ["\n", ...locatedSaid(e)]);
    const plain = errors.map((e) => locatedIn(e, "cli"));
    super(
      "bad_input",
      errors.length === 1
        ? locatedSaid(errors[0])
        : [`${errors.length} errors:`, ...shown, ...(errors.length > 50 ? [`\n… and ${errors.length - 50} more`] : [])],
      plain,
    );
    this.name = "ValidationError";
    this.errors = plain;
    this.#located = errors;
  }

  override detailsFor(surface: Surface): unknown {
    return this.#located.map((e) => locatedIn(e, surface));
  }
}

/** Prisma error codes we act on, recognised by code, never by message text. */
export function prismaCode(e: unknown): string | undefined {
  if (typeof e === "object" && e !== null && "code" in e && typeof (e as { code: unknown }).code === "string") {
    return (e as { code: string }).code;
  }
  return undefined;
}

/** A unique-constraint violation from any write path (one check: lib/db/unique-violation.ts). */
export { isUniqueViolation } from "./db/unique-violation.ts";
export const isNotFound = (e: unknown) => prismaCode(e) === "P2025";
