import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/options";
import { errorResponse, refuseCrossOrigin } from "@/lib/http/route";

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
  try {
    return await NextAuth(authOptions())(req, ctx);
  } catch (e) {
    if (typeof e === "object" && e !== null && "digest" in e) throw e;
    console.warn("[auth] refused a request next-auth could not read:", e instanceof Error ? e.message : e);
    return errorResponse(400, "bad_request", "the sign-in service could not read this request");
  }
}

export { handler as GET, handler as POST };
