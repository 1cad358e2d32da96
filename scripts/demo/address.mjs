// Where `npm run demo` serves (scripts/demo.mjs). The demo prints its logins and passwords, so it
// listens on this machine only (127.0.0.1) unless DEMO_HOST asks for another interface
// (DEMO_HOST=0.0.0.0: every interface, reachable from the network). DEMO_PORT: the port (3000).

/** The host to bind, the port, the URL to open (and NEXTAUTH_URL), and `next start`'s arguments. */
export function demoAddress(env = process.env) {
  const host = env.DEMO_HOST?.trim() || "127.0.0.1";
  const port = Number(env.DEMO_PORT || 3000);
  // A wildcard address is not one to open: this machine's loopback address on the same family is.
  const shown = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "[::1]" : host.includes(":") ? `[${host}]` : host;
  return { host, port, url: `http://${shown}:${port}`, everyInterface: host === "0.0.0.0" || host === "::", nextArgs: ["start", "-H", host, "-p", String(port)] };
}
