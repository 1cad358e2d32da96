import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { decodablePath } from "../http/url.ts";
import { PEER_HEADER, untrustedForwardingWarning } from "./address.ts";

let installed = false;

/**
 * Writes each incoming request's socket address into the PEER_HEADER request header (replacing
 * any value the client sent), before Next.js reads the request: route handlers cannot see the
 * socket otherwise (lib/auth/address.ts). Uses Node's documented `http.server.request.start`
 * diagnostics channel, published for every request of every http server in this process.
 * Installed once, by instrumentation.ts when the server starts.
 *
 * The same hook rewrites a path that cannot be percent-decoded (lib/http/url.ts), which Next.js
 * would answer with a bare 500, and logs forwarding headers the server does not trust
 * (lib/auth/address.ts). A subscriber must not throw (Node rethrows it as an uncaught exception).
 */
export function installPeerAddress(): void {
  if (installed) return;
  installed = true;
  subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    request.headers[PEER_HEADER] = socket.remoteAddress ?? "";
    if (request.url) request.url = decodablePath(request.url);
    try {
      const warning = untrustedForwardingWarning(request.headers);
      if (warning) console.warn(warning);
    } catch {
      // A malformed ASSESSOR_TRUSTED_PROXY_HOPS is reported by the sign-in itself (lib/auth/address.ts).
    }
  });
}
