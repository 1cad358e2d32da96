import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { authOptions, signInOutcome } from "@/lib/auth/options";
import { errorResponse, refuseCrossOrigin, toErrorResponse } from "@/lib/http/route";
import { jsonLimitBytes, readBodyLimited } from "@/lib/http/limits";
import { lockedMessage } from "@/lib/auth/messages";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ nextauth: string[] }> };

/**
 * next-auth's routes, behind the app's cross-origin check and body limit. Options are built per
 * request (not at import) so that `next build` needs no secret. What next-auth throws on a
 * request it cannot read (a body that is not what its Content-Type says) is the client's error:
 * 400, never 500.
 *
 * A POST body is read here first, within ASSESSOR_JSON_LIMIT_KB like every other route's (413 at
 * once by Content-Length, else as soon as the bytes read pass it, the rest never read), and
 * handed to next-auth from memory: next-auth itself would read any size.
 *
 * A sign-in refused by the throttle (lib/auth/throttle.ts) answers 429 with Retry-After; the
 * body also carries next-auth's `url` with the code `Locked` as `error`, which is where the login
 * form reads it (lib/auth/client.ts, lib/auth/messages.ts).
 */
async function handler(req: NextRequest, ctx: Ctx): Promise<Response> {
  const refused = refuseCrossOrigin(req);
  if (refused) return refused;
  // next-auth answers a GET of the credentials callback with a 500 ("not supported").
  if (req.method !== "POST" && (await ctx.params).nextauth.join("/") === "callback/credentials") {
    const r = errorResponse(405, "method_not_allowed", "sign in with a POST from the sign-in form");
    r.headers.set("Allow", "POST");
    return r;
  }
  let request = req;
  if (req.method === "POST") {
    try {
      const body = await readBodyLimited(req, jsonLimitBytes(), "ASSESSOR_JSON_LIMIT_KB");
      const headers = new Headers(req.headers);
      headers.delete("content-length");
      headers.delete("transfer-encoding");
      request = new NextRequest(req.url, { method: req.method, headers, body: new Uint8Array(body) });
    } catch (e) {
      return toErrorResponse(e);
    }
  }
  // Outside the try: a server without NEXTAUTH_SECRET is misconfigured (500, logged), not the client's fault.
  const options = authOptions();
  const outcome: { retryAfterSeconds?: number } = {};
  let response: Response;
  try {
    response = await signInOutcome.run(outcome, () => NextAuth(options)(request, ctx));
  } catch (e) {
    if (typeof e === "object" && e !== null && "digest" in e) throw e;
    console.warn("[auth] refused a request next-auth could not read:", e instanceof Error ? e.message : e);
    return errorResponse(400, "bad_request", "the sign-in service could not read this request");
  }
  return outcome.retryAfterSeconds === undefined ? response : throttled(response, outcome.retryAfterSeconds);
}

export { handler as GET, handler as POST };

/** next-auth's answer to a throttled attempt, as 429 with Retry-After (its cookies and `url` kept). */
async function throttled(response: Response, retryAfterSeconds: number): Promise<Response> {
  const headers = new Headers(response.headers);
  headers.set("Retry-After", String(retryAfterSeconds));
  headers.delete("Location");
  headers.set("Content-Type", "application/json");
  const text = await response.text();
  let url = response.headers.get("Location") ?? undefined;
  try {
    url = ((JSON.parse(text) as { url?: string }).url ?? url) || undefined;
  } catch {
    // next-auth answered with a redirect (no json=true): its Location is the url.
  }
  const message = lockedMessage(retryAfterSeconds);
  return new Response(
    JSON.stringify({ url, error: { code: "too_many_requests", message, details: { retryAfterSeconds } } }),
    { status: 429, headers },
  );
}
