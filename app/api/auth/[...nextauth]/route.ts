import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/options";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ nextauth: string[] }> };

// Options are built per request (not at import) so that `next build` needs no secret.
function handler(req: Request, ctx: Ctx): Promise<Response> {
  return NextAuth(authOptions())(req, ctx);
}

export { handler as GET, handler as POST };
