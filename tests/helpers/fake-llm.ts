/**
 * THE ONE MOCK: a fake OpenAI-compatible server. No language model can run on this machine (no
 * network, no weights), so the judge's tests, its benchmark and its browser test talk to this
 * instead. It serves `GET /v1/models` and `POST /v1/chat/completions` as OpenAI does (same JSON
 * shapes, `usage` included), answers from a script, and can inject what real endpoints do:
 * 429 with Retry-After, 500s, answers slower than the client's timeout, unparseable text, and a
 * 400 for `response_format` (endpoints without structured output), answers shaped as other servers
 * send them (a reasoning field, a finish reason), and redirects. It counts every request and keeps
 * the headers each one came with (`seen`), so a test can tell which credentials reached it.
 *
 * Run it by hand: `npx tsx tests/helpers/fake-llm.ts [--port 8099] [--model fake-judge]`.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";

/** What the script tells the server to do with one request. */
export type TFakeAction =
  /** `message`: more fields of the answer's message (e.g. reasoning_content); `finishReason`: default "stop". */
  | {
      kind: "answer";
      text: string | null;
      promptTokens?: number;
      completionTokens?: number;
      message?: Record<string, unknown>;
      finishReason?: string;
    }
  | { kind: "redirect"; status: 301 | 302 | 303 | 307 | 308; location: string }
  | { kind: "status"; status: number; retryAfter?: number; message?: string }
  | { kind: "hang"; ms: number };

export type TFakeRequest = { n: number; prompt: string; model: string; structured: boolean; at: number };
export type TFakeScript = (req: TFakeRequest, attemptForPrompt: number) => TFakeAction;

export type TFakeLlm = {
  url: string;
  port: number;
  requests: TFakeRequest[];
  /** Every request received (models list included): method, path and headers. */
  seen: { method: string; path: string; headers: IncomingHttpHeaders }[];
  /** Requests per prompt text. */
  countByPrompt: () => Map<string, number>;
  setScript: (s: TFakeScript) => void;
  setLatency: (ms: number) => void;
  close: () => Promise<void>;
};

/** The grade the default script gives a prompt: a stable function of its text. */
export function scriptedGrade(prompt: string): number {
  return createHash("sha256").update(prompt).digest()[0] % 4;
}

export const defaultScript: TFakeScript = (req) => ({
  kind: "answer",
  text: JSON.stringify({
    intent: "the question's intent",
    match: "how the passage matches",
    score: scriptedGrade(req.prompt),
  }),
});

/** `modelsRedirect`: GET /models answers with this redirect (a test of where the key goes). */
export async function startFakeLlm(
  opts: {
    port?: number;
    models?: string[];
    latencyMs?: number;
    script?: TFakeScript;
    rejectStructured?: boolean;
    modelsRedirect?: { status: 301 | 302 | 307 | 308; location: string };
  } = {},
): Promise<TFakeLlm> {
  const models = opts.models ?? ["fake-judge"];
  let script = opts.script ?? defaultScript;
  let latency = opts.latencyMs ?? 0;
  const requests: TFakeRequest[] = [];
  const seen: TFakeLlm["seen"] = [];
  const attempts = new Map<string, number>();
  const sockets = new Set<import("node:net").Socket>();

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(text),
      ...headers,
    });
    res.end(text);
  };
  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      const parts: Buffer[] = [];
      req.on("data", (c: Buffer) => parts.push(c));
      req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
      req.on("error", reject);
    });

  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? "").replace(/\?.*$/, "");
      seen.push({ method: req.method ?? "", path, headers: req.headers });
      if (req.method === "GET" && path.endsWith("/models") && opts.modelsRedirect) {
        res.writeHead(opts.modelsRedirect.status, { location: opts.modelsRedirect.location, "content-length": 0 });
        return res.end();
      }
      if (req.method === "GET" && path.endsWith("/models"))
        return send(res, 200, {
          object: "list",
          data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "fake" })),
        });
      if (req.method !== "POST" || !path.endsWith("/chat/completions"))
        return send(res, 404, { error: { message: `no route ${req.method} ${path}`, type: "invalid_request_error" } });
      const body = JSON.parse(await readBody(req)) as {
        model: string;
        messages: { role: string; content: string }[];
        response_format?: unknown;
      };
      if (!models.includes(body.model))
        return send(res, 404, {
          error: {
            message: `The model \`${body.model}\` does not exist`,
            type: "invalid_request_error",
            code: "model_not_found",
          },
        });
      if (opts.rejectStructured && body.response_format)
        return send(res, 400, {
          error: { message: "response_format is not supported by this server", type: "invalid_request_error" },
        });
      const prompt = body.messages.map((m) => m.content).join("\n");
      const r: TFakeRequest = {
        n: requests.length + 1,
        prompt,
        model: body.model,
        structured: body.response_format !== undefined,
        at: Date.now(),
      };
      requests.push(r);
      const attempt = (attempts.get(prompt) ?? 0) + 1;
      attempts.set(prompt, attempt);
      const action = script(r, attempt);
      if (latency > 0) await new Promise((ok) => setTimeout(ok, latency));
      if (action.kind === "hang") {
        await new Promise((ok) => setTimeout(ok, action.ms));
        if (res.destroyed) return;
        return send(res, 500, { error: { message: "hung" } });
      }
      if (action.kind === "redirect") {
        res.writeHead(action.status, { location: action.location, "content-length": 0 });
        return res.end();
      }
      if (action.kind === "status") {
        return send(
          res,
          action.status,
          { error: { message: action.message ?? `injected ${action.status}`, type: "server_error" } },
          {
            ...(action.retryAfter !== undefined ? { "retry-after": String(action.retryAfter) } : {}),
            "x-should-retry": action.status === 429 || action.status >= 500 ? "true" : "false",
          },
        );
      }
      const promptTokens = action.promptTokens ?? Math.ceil(prompt.length / 4);
      const completionTokens = action.completionTokens ?? Math.ceil((action.text ?? "").length / 4);
      send(res, 200, {
        id: `chatcmpl-${r.n}`,
        object: "chat.completion",
        created: Math.floor(r.at / 1000),
        model: body.model,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: action.text, ...action.message },
            finish_reason: action.finishReason ?? "stop",
          },
        ],
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
        },
      });
    })().catch((e: unknown) => {
      if (!res.headersSent) send(res, 500, { error: { message: String(e) } });
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((ok) => server.listen(opts.port ?? 0, "127.0.0.1", ok));
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    seen,
    countByPrompt: () => {
      const m = new Map<string, number>();
      for (const r of requests) m.set(r.prompt, (m.get(r.prompt) ?? 0) + 1);
      return m;
    },
    setScript: (s) => {
      script = s;
    },
    setLatency: (ms) => {
      latency = ms;
    },
    close: () =>
      new Promise<void>((ok) => {
        for (const s of sockets) s.destroy();
        server.close(() => ok());
      }),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const fake = await startFakeLlm({
    port: Number(arg("--port") ?? 8099),
    models: [arg("--model") ?? "fake-judge"],
    latencyMs: Number(arg("--latency") ?? 0),
  });
  process.stdout.write(
    `fake OpenAI-compatible server (a test double, not a model) at ${fake.url}, model ${arg("--model") ?? "fake-judge"}\n`,
  );
}
