import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { PEER_HEADER } from "./address.ts";

let installed = false;

/**
 * Writes each incoming request's socket address into the PEER_HEADER request header (replacing
 * any value the client sent), before Next.js reads the request: route handlers cannot see the
 * socket otherwise (lib/auth/address.ts). Uses Node's documented `http.server.request.start`
 * diagnostics channel, published for every request of every http server in this process.
 * Installed once, by instrumentation.ts when the server starts.
 */
export function installPeerAddress(): void {
  if (installed) return;
  installed = true;
  subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    request.headers[PEER_HEADER] = socket.remoteAddress ?? "";
  });
}
