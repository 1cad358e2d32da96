import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentFetch, redirectInit } from "../../lib/judge/http-fetch.ts";

/**
 * No credentials across origins: the judge's transport forwarded Authorization on a redirect to another origin and from
 * https to http. Against real local servers (two http origins: 127.0.0.1 and localhost on other
 * ports; one https origin with a throw-away certificate made by openssl): credentials go only to
 * the origin they were meant for, and https never steps down to http.
 */
type TSeen = { server: string; url: string; method: string; headers: IncomingHttpHeaders };
const seen: TSeen[] = [];
const servers: Server[] = [];
let origin = "";
let other = "";
let secure = "";
let ca = "";
const dir = mkdtempSync(join(tmpdir(), "judge-redirects-"));

function recorder(name: string, route: (url: string) => { status: number; location?: string }) {
  return (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => {
    req.resume();
    req.on("end", () => {
      seen.push({ server: name, url: req.url ?? "", method: req.method ?? "", headers: req.headers });
      const r = route(req.url ?? "");
      res.writeHead(r.status, { "content-type": "application/json", ...(r.location ? { location: r.location } : {}) });
      res.end(JSON.stringify({ server: name }));
    });
  };
}

async function listen(s: Server, host: string): Promise<number> {
  servers.push(s);
  await new Promise<void>((ok) => s.listen(0, host, () => ok()));
  const a = s.address();
  return typeof a === "object" && a ? a.port : 0;
}

beforeAll(async () => {
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      join(dir, "key.pem"),
      "-out",
      join(dir, "cert.pem"),
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
    ],
    { stdio: "ignore" },
  );
  ca = readFileSync(join(dir, "cert.pem"), "utf8");
  const otherPort = await listen(createServer(recorder("other", () => ({ status: 200 }))), "127.0.0.1");
  other = `http://localhost:${otherPort}`;
  const originPort = await listen(
    createServer(
      recorder("origin", (url) => {
        if (url === "/same") return { status: 307, location: "/final" };
        if (url === "/away") return { status: 307, location: `${other}/final` };
        if (url === "/away-and-back") return { status: 302, location: `${other}/back` };
        return { status: 200 };
      }),
    ),
    "127.0.0.1",
  );
  origin = `http://127.0.0.1:${originPort}`;
  const securePort = await listen(
    createHttpsServer(
      { key: readFileSync(join(dir, "key.pem")), cert: ca },
      recorder("secure", (url) => {
        if (url === "/down") return { status: 308, location: `${origin}/final` };
        if (url === "/same") return { status: 307, location: "/final" };
        return { status: 200 };
      }),
    ),
    "127.0.0.1",
  );
  secure = `https://127.0.0.1:${securePort}`;
});

afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((ok) => s.close(ok));
  }
  rmSync(dir, { recursive: true, force: true });
});

const credentials = {
  authorization: "Bearer sk-secret-123456",
  cookie: "session=abc",
  "x-api-key": "k-123456",
  "api-key": "k-654321",
  "proxy-authorization": "Basic eA==",
  "content-type": "application/json",
};
const last = (server: string) => seen.filter((s) => s.server === server).at(-1);

describe("judge transport: redirects and credentials", () => {
  // Made on first use: the certificate exists only once beforeAll has run.
  let transport: ReturnType<typeof agentFetch> | null = null;
  const f: ReturnType<typeof agentFetch> = (input, init) => (transport ??= agentFetch(2, { ca }))(input, init);

  it("keeps the credentials on a redirect within the origin", async () => {
    const r = await f(`${origin}/same`, { method: "POST", headers: credentials, body: "{}" });
    expect(await r.json()).toEqual({ server: "origin" });
    const h = last("origin")?.headers ?? {};
    expect(last("origin")?.url).toBe("/final");
    expect(h.authorization).toBe("Bearer sk-secret-123456");
    expect(h["x-api-key"]).toBe("k-123456");
  });

  it("drops Authorization, Cookie and API-key headers when the redirect changes the origin (host or port)", async () => {
    const r = await f(`${origin}/away`, { method: "POST", headers: credentials, body: '{"a":1}' });
    expect(await r.json()).toEqual({ server: "other" });
    const h = last("other")?.headers ?? {};
    expect(last("other")).toMatchObject({ url: "/final", method: "POST" });
    for (const k of ["authorization", "cookie", "x-api-key", "api-key", "proxy-authorization"])
      expect(h[k], k).toBeUndefined();
    expect(h["content-type"]).toBe("application/json");
  });

  it("keeps them dropped when the chain comes back to the first origin", async () => {
    // other/back answers 200 itself, so check the chain through redirectInit directly too.
    const away = redirectInit(
      { method: "GET", headers: credentials },
      302,
      new URL(`${origin}/x`),
      new URL(`${other}/y`),
    );
    const back = redirectInit(away, 302, new URL(`${other}/y`), new URL(`${origin}/z`));
    expect(new Headers(back.headers).get("authorization")).toBeNull();
    await f(`${origin}/away-and-back`, { headers: credentials });
    expect(last("other")?.headers.authorization).toBeUndefined();
  });

  it("follows https within its origin with the credentials", async () => {
    const r = await f(`${secure}/same`, { method: "POST", headers: credentials, body: "{}" });
    expect(await r.json()).toEqual({ server: "secure" });
    expect(last("secure")?.headers.authorization).toBe("Bearer sk-secret-123456");
  });

  it("never follows a redirect from https to http, not even to the same host", async () => {
    const before = seen.filter((s) => s.server === "origin").length;
    await expect(f(`${secure}/down`, { method: "POST", headers: credentials, body: "{}" })).rejects.toThrow(
      /refused a redirect from https:\/\/127\.0\.0\.1:\d+ to http:\/\/127\.0\.0\.1:\d+/,
    );
    expect(seen.filter((s) => s.server === "origin").length).toBe(before);
  });

  it("turns a POST into a GET on 302/303 and drops its body, as fetch does", () => {
    const next = redirectInit(
      { method: "POST", body: "x", headers: {} },
      303,
      new URL(`${origin}/a`),
      new URL(`${origin}/b`),
    );
    expect(next).toMatchObject({ method: "GET", body: undefined });
  });
});
