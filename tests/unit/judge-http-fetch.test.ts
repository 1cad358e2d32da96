import { createServer, type Server } from "node:http";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentFetch } from "../../lib/judge/http-fetch.ts";

/**
 * The judge's transport (lib/judge/http-fetch.ts) keeps what the OpenAI client relies on from
 * fetch: status, headers and body; the request's method, headers and body; gzip answers decoded;
 * redirects followed; an abort rejecting with an AbortError; a refused connection rejecting.
 * Against a real local HTTP server.
 */
let server: Server;
let base: string;
const seen: { method: string; url: string; body: string; contentType: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", body, contentType: req.headers["content-type"] });
      if (req.url === "/echo") {
        res.writeHead(201, { "content-type": "application/json", "x-request-id": "abc" });
        res.end(JSON.stringify({ method: req.method, body }));
      } else if (req.url === "/gzip") {
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        res.end(gzipSync(JSON.stringify({ ok: true })));
      } else if (req.url === "/moved") {
        res.writeHead(307, { location: "/echo" });
        res.end();
      } else if (req.url === "/see-other") {
        res.writeHead(303, { location: "/echo" });
        res.end();
      } else if (req.url === "/empty") {
        res.writeHead(204);
        res.end();
      } else if (req.url === "/hang") {
        // never answers
      } else {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("no such path");
      }
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", () => ok()));
  const addr = server.address();
  base = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
});

describe("agentFetch", () => {
  const f = agentFetch(4);

  it("sends method, headers and body, and returns status, headers and body", async () => {
    const r = await f(`${base}/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
    expect(r.status).toBe(201);
    expect(r.headers.get("x-request-id")).toBe("abc");
    expect(await r.json()).toEqual({ method: "POST", body: '{"a":1}' });
    expect(seen.at(-1)?.contentType).toBe("application/json");
  });

  it("decodes a gzip answer, and answers 204 without a body", async () => {
    expect(await (await f(`${base}/gzip`)).json()).toEqual({ ok: true });
    const empty = await f(`${base}/empty`);
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe("");
  });

  it("follows redirects as fetch does: 307 keeps the POST and its body, 303 turns it into a GET", async () => {
    expect(await (await f(`${base}/moved`, { method: "POST", body: "x=1" })).json()).toEqual({
      method: "POST",
      body: "x=1",
    });
    expect(await (await f(`${base}/see-other`, { method: "POST", body: "x=1" })).json()).toEqual({
      method: "GET",
      body: "",
    });
  });

  it("passes an error status through (the client decides what to retry)", async () => {
    const r = await f(`${base}/nowhere`);
    expect(r.status).toBe(404);
    expect(await r.text()).toBe("no such path");
  });

  it("rejects with an AbortError when the signal aborts (the client's timeout)", async () => {
    const ac = new AbortController();
    const pending = f(`${base}/hang`, { signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });

  it("rejects when the connection is refused", async () => {
    await expect(f("http://127.0.0.1:9/v1/models")).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });
});
