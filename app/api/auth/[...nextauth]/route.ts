import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/options";
import { errorResponse, refuseCrossOrigin, toErrorResponse } from "@/lib/http/route";
import { enforceRate, loginLimiter } from "@/lib/http/limits";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ nextauth: string[] }> };

/**
 * next-auth's routes, behind the app's cross-origin check. Options are built per request (not at
 * import) so that `next build` needs no secret. What next-auth throws on a request it cannot read
 * (a body that is not what its Content-Type says) is the client's error: 400, never 500.
 */
async function handler(req: Request, ctx: Ctx): Promise<Response> {
  const refused = refuseCrossOrigin(req);
  if (refused) return refused;
  const limited = await limitSignIn(req, ctx);
  if (limited) return limited;
  // Outside the try: a server without NEXTAUTH_SECRET is misconfigured (500, logged), not the client's fault.
  const options = authOptions();
  try {
    return await NextAuth(options)(req, ctx);
  } catch (e) {
    if (typeof e === "object" && e !== null && "digest" in e) throw e;
    console.warn("[auth] refused a request next-auth could not read:", e instanceof Error ? e.message : e);
    return errorResponse(400, "bad_request", "the sign-in service could not read this request");
  }
}

export { handler as GET, handler as POST };

/**
 * Sign-in attempts per email (lib/http/limits.ts): past the rate, 429 with Retry-After before
 * the password is checked. The body also carries next-auth's `url` with the message as `error`,
 * which is where the login form reads it (lib/auth/client.ts).
 */
async function limitSignIn(req: Request, ctx: Ctx): Promise<Response | null> {
  const action = (await ctx.params).nextauth.join("/");
  if (req.method !== "POST" || action !== "callback/credentials") return null;
  let email = "";
  try {
    const text = await req.clone().text();
    const fields = (req.headers.get("content-type") ?? "").includes("application/json") ? (JSON.parse(text) as Record<string, unknown>) : Object.fromEntries(new URLSearchParams(text));
    email = typeof fields.email === "string" ? fields.email.trim().toLowerCase() : "";
  } catch {
    return null; // next-auth answers what it cannot read (400 above)
  }
  try {
    enforceRate(loginLimiter, `email:${email}`, "sign-in attempts");
    return null;
  } catch (e) {
    const response = toErrorResponse(e);
    const body = (await response.json()) as { error: { message: string } };
    const url = new URL("/login", req.url);
    url.searchParams.set("error", `Too many sign-in attempts: ${body.error.message.replace(/^too many sign-in attempts: /, "")}.`);
    return Response.json({ ...body, url: url.toString() }, { status: response.status, headers: { "Retry-After": response.headers.get("Retry-After") ?? "60" } });
  }
}
