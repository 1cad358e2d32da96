/**
 * The `fetch` the judge's OpenAI client uses: node:http(s) with a keep-alive agent sized to the
 * run's concurrency, the answer read whole and handed back as a standard Response.
 *
 * Why not the global fetch: the judge sends thousands of small requests, and Node's built-in
 * fetch (undici with web streams, an AbortSignal and a body stream per request) spent about half
 * of a worker's CPU in the benchmark (npm run bench -- judge), capping throughput below the
 * endpoint's. A request whose body is not a string or bytes goes to the global fetch unchanged.
 *
 * Semantics kept: the abort signal (the client's per-request timeout) aborts with an AbortError;
 * connection errors reject (the client wraps and retries them); gzip, deflate and br answers are
 * decoded; 204/304 have no body; redirects are followed as fetch follows them (at most
 * MAX_REDIRECTS; 307/308 keep method and body, 301/302/303 turn a POST into a GET).
 *
 * Credentials never follow a redirect elsewhere: when the redirect leaves the origin (scheme,
 * host and port) the request is sent on without Authorization, Proxy-Authorization, Cookie and
 * the API-key headers some servers use (api-key, x-api-key), as the Fetch standard drops
 * Authorization; they stay dropped for the rest of the chain, even if it comes back. A redirect
 * from https to http is never followed (the request fails with a message saying so), since it
 * would send the prompt, and on the same host the key, in clear text.
 */
import http from "node:http";
import https from "node:https";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";

type TFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

function decode(body: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? "").trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return gunzipSync(body);
    case "deflate":
      return inflateSync(body);
    case "br":
      return brotliDecompressSync(body);
    default:
      return body;
  }
}

const abortError = (signal: AbortSignal) =>
  signal.reason instanceof Error && signal.reason.name === "AbortError"
    ? signal.reason
    : new DOMException("The operation was aborted.", "AbortError");

const MAX_REDIRECTS = 5;

/** Headers that carry credentials: dropped when a redirect changes the origin. */
export const CREDENTIAL_HEADERS = ["authorization", "proxy-authorization", "cookie", "api-key", "x-api-key"];

/** The init for the next hop of a redirect from `from` to `to` (method and body per status, credentials per origin). */
export function redirectInit(init: RequestInit, status: number, from: URL, to: URL): RequestInit {
  if (from.protocol === "https:" && to.protocol !== "https:")
    throw new TypeError(
      `refused a redirect from ${from.origin} to ${to.origin}: the judge never follows https to http`,
    );
  const keep = status === 307 || status === 308 || (init.method ?? "GET") === "GET";
  const next: RequestInit = keep ? { ...init } : { ...init, method: "GET", body: undefined };
  if (from.origin !== to.origin) {
    const headers = new Headers(init.headers);
    for (const h of CREDENTIAL_HEADERS) headers.delete(h);
    next.headers = headers;
  }
  return next;
}

/** `tls.ca`: certificate authorities to trust besides the system's (an endpoint behind a private CA; the tests' local https server). */
export function agentFetch(maxSockets: number, tls: { ca?: string | Buffer } = {}): TFetch {
  const agents = {
    "http:": new http.Agent({ keepAlive: true, maxSockets }),
    "https:": new https.Agent({ keepAlive: true, maxSockets, ...(tls.ca ? { ca: tls.ca } : {}) }),
  };
  const send = (input: string | URL | Request, init: RequestInit = {}, redirects = 0): Promise<Response> => {
    const body = init.body;
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    if (
      (body != null && typeof body !== "string" && !(body instanceof Uint8Array)) ||
      (url.protocol !== "http:" && url.protocol !== "https:") ||
      input instanceof Request
    )
      return fetch(input, init);
    const protocol = url.protocol;
    return new Promise<Response>((resolve, reject) => {
      const signal = init.signal ?? undefined;
      if (signal?.aborted) return reject(abortError(signal));
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((v, k) => (headers[k] = v));
      let settled = false;
      const fail = (e: unknown) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener("abort", onAbort);
        reject(e);
      };
      const req = (protocol === "https:" ? https : http).request(
        url,
        { method: init.method ?? "GET", headers, agent: agents[protocol] },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("error", fail);
          res.on("end", () => {
            if (settled) return;
            try {
              const status = res.statusCode ?? 500;
              const location = res.headers.location;
              if (location && [301, 302, 303, 307, 308].includes(status) && redirects < MAX_REDIRECTS) {
                const to = new URL(location, url);
                const next = redirectInit(init, status, url, to);
                settled = true;
                signal?.removeEventListener("abort", onAbort);
                resolve(send(to, next, redirects + 1));
                return;
              }
              const h = new Headers();
              for (const [k, v] of Object.entries(res.headers)) {
                if (v === undefined || k === "content-encoding" || k === "content-length") continue;
                for (const x of Array.isArray(v) ? v : [v]) h.append(k, x);
              }
              const payload = decode(Buffer.concat(chunks), res.headers["content-encoding"]);
              settled = true;
              signal?.removeEventListener("abort", onAbort);
              resolve(
                new Response(status === 204 || status === 304 ? null : new Uint8Array(payload), {
                  status,
                  statusText: res.statusMessage ?? "",
                  headers: h,
                }),
              );
            } catch (e) {
              fail(e);
            }
          });
        },
      );
      const onAbort = () => {
        req.destroy();
        fail(abortError(signal as AbortSignal));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      req.on("error", fail);
      req.end(body ?? undefined);
    });
  };
  return (input, init) => send(input, init);
}
