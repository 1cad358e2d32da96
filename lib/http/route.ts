import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { AppError, httpStatus } from "../errors.ts";
import { getSession, type TSessionUser } from "../auth/session.ts";
import type { TRole } from "../auth/permissions.ts";
import { isCrossOrigin } from "./security.ts";
import { isDatabaseUnavailable } from "../db/unavailable.ts";
import { enforceRate, jsonLimitBytes, readBodyLimited, submissionLimiter } from "./limits.ts";
import { DEPTH_MESSAGE, jsonTooDeep, NUL_MESSAGE, nulPath } from "../bounds.ts";

/** The JSON body of every error response. */
export type TErrorBody = { error: { code: string; message: string; details?: unknown } };

type TParams = Record<string, string | string[] | undefined>;
type TRouteContext = { params?: Promise<TParams> | TParams };

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

export type TRouteOptions<B extends z.ZodType | undefined, Q extends z.ZodType | undefined> = {
  /** Roles allowed to call this route; "public" skips authentication altogether. */
  roles: readonly TRole[] | "public";
  /** Schema of the JSON body (omit for bodiless or multipart routes: read `req` yourself). */
  body?: B;
  /** Schema of the query string, given as an object of strings (repeated keys as arrays). */
  query?: Q;
  /** Counts each call against the user's submission rate (lib/http/limits.ts): 429 with Retry-After. */
  rateLimit?: "submissions";
};

export type THandlerContext<B, Q, U> = { user: U; body: B; query: Q; params: TParams; req: Request };

export function errorResponse(status: number, code: string, message: string, details?: unknown): Response {
  const body: TErrorBody = { error: details === undefined ? { code, message } : { code, message, details } };
  const response = Response.json(body, { status });
  // 429 and 503 say when to come back (the outbox and other clients wait that long).
  const retry =
    typeof details === "object" && details !== null && "retryAfterSeconds" in details
      ? (details as { retryAfterSeconds: unknown }).retryAfterSeconds
      : undefined;
  if (typeof retry === "number") response.headers.set("Retry-After", String(retry));
  return response;
}

function searchParamsObject(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    out[key] = all.length === 1 ? all[0] : all;
  }
  return out;
}

function zodIssues(error: z.ZodError) {
  return error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
}

const DB_RETRY_AFTER_SECONDS = 2;

/** Maps anything thrown by a handler to a response; unknown errors become an opaque 500. */
export function toErrorResponse(e: unknown): Response {
  if (e instanceof AppError) return errorResponse(httpStatus[e.code], e.code, e.sayTo("page"), e.detailsFor("page"));
  // Next's control-flow errors (redirect, notFound, forbidden) must reach Next untouched.
  if (
    typeof e === "object" &&
    e !== null &&
    "digest" in e &&
    typeof (e as { digest: unknown }).digest === "string" &&
    (e as { digest: string }).digest.startsWith("NEXT_")
  )
    throw e;
  // The database is unreachable: nothing was done; the client keeps the request and retries.
  if (isDatabaseUnavailable(e)) {
    console.warn("[route] database unavailable:", e instanceof Error ? e.message.split("\n")[0] : e);
    return errorResponse(
      503,
      "unavailable",
      "the database is unreachable right now: retry shortly (a retry with the same idempotency key is safe)",
      { retryAfterSeconds: DB_RETRY_AFTER_SECONDS },
    );
  }
  const id = randomUUID();
  console.error(`[route] internal error ${id}:`, e);
  return errorResponse(500, "internal", `internal error (reference ${id})`);
}

/** 403 for a state-changing request from another origin (lib/http/security.ts), else null. */
export function refuseCrossOrigin(req: Request): Response | null {
  return isCrossOrigin(req)
    ? errorResponse(403, "forbidden", "cross-origin request refused: send it from the app's own origin")
    : null;
}

/**
 * The one wrapper for route handlers: refuse cross-origin writes (403), authenticate (401), check the role (403),
 * count the user's submissions when asked (429), validate the query string and JSON body with zod (413 past
 * ASSESSOR_JSON_LIMIT_KB, 400 for malformed JSON, 422 with the issues; a body nested deeper than
 * MAX_JSON_DEPTH is a 422; a NUL character in any string is a 422 naming the field, and in a path parameter a 404: lib/bounds.ts), run the
 * handler, and map errors (AppError codes via lib/errors.ts; anything else 500 without details).
 * A handler may return a Response, or a value that is sent as JSON (null/undefined → 204).
 */
export function route<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  R extends readonly TRole[] | "public" = readonly TRole[],
>(
  options: TRouteOptions<B, Q> & { roles: R },
  handler: (
    ctx: THandlerContext<Infer<B>, Infer<Q>, R extends "public" ? TSessionUser | null : TSessionUser>,
  ) => Promise<unknown> | unknown,
): (req: Request, ctx?: TRouteContext) => Promise<Response> {
  return async (req, ctx) => {
    try {
      const refused = refuseCrossOrigin(req);
      if (refused) return refused;
      const session = await getSession();
      if (options.roles !== "public") {
        if (!session) return errorResponse(401, "unauthenticated", "sign in first");
        if (!options.roles.includes(session.user.role))
          return errorResponse(403, "forbidden", "your role does not allow this");
      }
      if (options.rateLimit && session) await enforceRate(submissionLimiter, session.user.id, "submissions");
      const params = ((await ctx?.params) ?? {}) as TParams;
      // No row has a NUL in its key (lib/bounds.ts); PostgreSQL would refuse the lookup with a 500.
      if (nulPath(params) !== null) return errorResponse(404, "not_found", "no such resource");

      // Also for routes that read the query string themselves (an upload's file name).
      const rawQuery = searchParamsObject(new URL(req.url));
      const nulInQuery = nulPath(rawQuery);
      if (nulInQuery !== null)
        return errorResponse(422, "bad_input", "invalid query parameters", [
          { path: nulInQuery, message: NUL_MESSAGE },
        ]);

      let query: unknown = undefined;
      if (options.query) {
        const parsed = options.query.safeParse(rawQuery);
        if (!parsed.success)
          return errorResponse(422, "bad_input", "invalid query parameters", zodIssues(parsed.error));
        query = parsed.data;
      }

      let body: unknown = undefined;
      if (options.body) {
        let raw: unknown;
        const text = (await readBodyLimited(req, jsonLimitBytes(), "ASSESSOR_JSON_LIMIT_KB")).toString("utf8");
        try {
          raw = text === "" ? undefined : JSON.parse(text);
        } catch {
          return errorResponse(400, "bad_request", "the request body is not valid JSON");
        }
        // Nothing below walks a body nested deeper than any schema needs (lib/bounds.ts).
        if (jsonTooDeep(raw))
          return errorResponse(422, "bad_input", "invalid request body", [{ path: "(body)", message: DEPTH_MESSAGE }]);
        // Text is refused with a NUL anywhere (lib/bounds.ts), named like a zod issue.
        const nul = nulPath(raw);
        if (nul !== null)
          return errorResponse(422, "bad_input", "invalid request body", [{ path: nul, message: NUL_MESSAGE }]);
        const parsed = options.body.safeParse(raw);
        if (!parsed.success) return errorResponse(422, "bad_input", "invalid request body", zodIssues(parsed.error));
        body = parsed.data;
      }

      const user = (session?.user ?? null) as R extends "public" ? TSessionUser | null : TSessionUser;
      const result = await handler({ user, body: body as Infer<B>, query: query as Infer<Q>, params, req });
      if (result instanceof Response) return result;
      if (result === undefined || result === null) return new Response(null, { status: 204 });
      return Response.json(result);
    } catch (e) {
      return toErrorResponse(e);
    }
  };
}
