import { NextResponse, type NextRequest } from "next/server";
import { pageCsp, STATIC_HEADERS } from "./lib/http/security.ts";

/**
 * Pages get a Content-Security-Policy with a fresh nonce per request (Next puts it on its own
 * scripts when the request carries the policy; every page is rendered per request since the
 * root layout reads the session). API routes, static files and the icon are left out of the
 * matcher: their headers come from next.config.js, and an upload must not be buffered here
 * (the proxy would clone request bodies, and cut them at proxyClientMaxBodySize).
 */
export function proxy(request: NextRequest): NextResponse {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const csp = pageCsp(nonce, process.env.NODE_ENV === "development");
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("Content-Security-Policy", csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", csp);
  for (const [k, v] of Object.entries(STATIC_HEADERS)) response.headers.set(k, v);
  return response;
}

export const config = {
  matcher: [{ source: "/((?!api/|_next/static|_next/image|icon.svg|favicon.ico).*)" }],
};
