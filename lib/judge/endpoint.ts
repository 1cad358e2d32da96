/**
 * The model endpoint: any OpenAI-compatible chat-completions server (OpenAI, vLLM, Ollama,
 * llama.cpp's server, LiteLLM) through the official `openai` client. The client already retries
 * 408/409/429/5xx and connection errors with exponential backoff and jitter, honouring
 * `Retry-After` / `retry-after-ms` (openai/client.js retryRequest), and enforces the per-request
 * timeout; this module classifies what is left after those retries.
 *
 * The API key is read from the environment by the caller and given to the client only: it is
 * never stored, logged or put in an error message (`redact` removes it from server messages).
 */
import OpenAI from "openai";
import { AppError } from "../errors.ts";
import { agentFetch } from "./http-fetch.ts";
import { field, say } from "../terms.ts";

export type TEndpoint = {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  maxRetries: number;
  concurrency?: number;
};
/** `responseFormat`: the JSON schema asked for when `structured` (default: the chunk grade's, RESPONSE_FORMAT; answer runs give their own). */
export type TAsk = {
  model: string;
  prompt: string;
  temperature: number;
  maxTokens: number;
  structured: boolean;
  responseFormat?: Record<string, unknown>;
};
/**
 * One answer: `raw` is what is stored (JudgeTask.raw): the message's text, with a separate
 * reasoning field put in front of it as a `<think>` block (left open when the message has no text),
 * so the stored text is complete and the parser reads it as it read the live answer; or the
 * refusal field's text when the message has no text and a refusal.
 */
export type TAnswer = {
  raw: string;
  content: string;
  finishReason: string | null;
  refusal: string | null;
  promptTokens: number;
  completionTokens: number;
};

/** Why a request failed, after the client's own retries. */
export type TFailure =
  | { kind: "transient"; message: string } // network, timeout, 429/5xx: the task goes back to pending
  | { kind: "refused"; message: string } // another 4xx for this request: the task fails
  | { kind: "fatal"; message: string } // the key is refused or the model does not exist: the run stops
  | { kind: "structured_unsupported"; message: string };

export class EndpointError extends Error {
  constructor(readonly failure: TFailure) {
    super(failure.message);
    this.name = "EndpointError";
  }
}

/** The endpoint's URL as stored and shown: without user name, password or query string. */
export function publicBaseUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new AppError(
      "bad_input",
      say`${field("baseUrl")}: expected an http(s) URL such as http://localhost:11434/v1, got "${url}"`,
    );
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new AppError("bad_input", say`${field("baseUrl")}: expected an http(s) URL, got "${u.protocol}"`);
  u.username = "";
  u.password = "";
  u.search = "";
  u.hash = "";
  return u.toString().replace(/\/$/, "");
}

export function redact(message: string, apiKey: string): string {
  let m = message;
  if (apiKey.length >= 4) m = m.split(apiKey).join("[redacted]");
  return m.replace(/\b(sk|key|token)-[A-Za-z0-9_*.-]{6,}/gi, "$1-[redacted]");
}

/** The client; an empty key (a keyless local server) sends no Authorization header at all. */
export function makeClient(e: TEndpoint): OpenAI {
  return new OpenAI({
    apiKey: e.apiKey || "no-key",
    baseURL: e.baseUrl,
    timeout: e.timeoutMs,
    maxRetries: e.maxRetries,
    fetch: agentFetch(Math.max(1, e.concurrency ?? 8)),
    ...(e.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
  });
}

/** The text of a message's content: a string, or (some proxies) an array of parts whose text parts are joined. */
function textOf(v: unknown): string {
  if (typeof v === "string") return v;
  if (Array.isArray(v))
    return v
      .map((p) =>
        typeof p === "string"
          ? p
          : typeof p === "object" && p !== null && typeof (p as { text?: unknown }).text === "string"
            ? (p as { text: string }).text
            : "",
      )
      .join("");
  return "";
}

/**
 * What the parser needs from a chat.completions answer (lib/judge/parse.ts): the first choice's
 * text with its reasoning field (`reasoning_content`: vLLM, llama.cpp, LiteLLM, DeepSeek;
 * `reasoning`: Ollama, OpenRouter) kept apart as a `<think>` block, its finish reason and refusal.
 */
export function readCompletion(res: unknown): Omit<TAnswer, "promptTokens" | "completionTokens"> {
  const r = (typeof res === "object" && res !== null ? res : {}) as {
    choices?: { message?: Record<string, unknown>; finish_reason?: unknown }[];
  };
  const choice = r.choices?.[0];
  const m = choice?.message ?? {};
  const content = textOf(m.content);
  const reasoning = textOf(m.reasoning_content) || textOf(m.reasoning);
  const refusal = typeof m.refusal === "string" && m.refusal.trim() ? m.refusal : null;
  const finishReason = typeof choice?.finish_reason === "string" ? choice.finish_reason : null;
  const withReasoning = reasoning.trim() ? `<think>${reasoning}${content.trim() ? `</think>${content}` : ""}` : content;
  return { raw: content.trim() || !refusal ? withReasoning : refusal, content: withReasoning, finishReason, refusal };
}

/** The JSON schema asked for when `structured` (UMBRELA's steps as fields, then the score). */
const RESPONSE_FORMAT = {
  type: "json_schema",
  json_schema: {
    name: "relevance_judgement",
    strict: true,
    schema: {
      type: "object",
      properties: {
        intent: { type: "string" },
        match: { type: "string" },
        score: { type: "integer", enum: [0, 1, 2, 3] },
      },
      required: ["intent", "match", "score"],
      additionalProperties: false,
    },
  },
} as const;

/** The innermost cause's message (fetch wraps ECONNREFUSED and the like in "fetch failed"). */
function rootCause(e: unknown): string {
  let cur: unknown = e;
  let msg = e instanceof Error ? e.message : String(e);
  for (let depth = 0; depth < 5 && cur instanceof Error; depth++) {
    msg = cur.message || msg;
    cur = cur.cause;
  }
  return msg;
}

function classify(e: unknown, apiKey: string, baseUrl: string, model: string): TFailure {
  if (e instanceof OpenAI.APIConnectionTimeoutError) return { kind: "transient", message: "the request timed out" };
  if (e instanceof OpenAI.APIConnectionError)
    return { kind: "transient", message: `cannot reach ${baseUrl}: ${redact(rootCause(e), apiKey)}` };
  if (e instanceof OpenAI.APIError) {
    const msg = redact(e.message, apiKey);
    const status = e.status ?? 0;
    if (status === 401 || status === 403)
      return { kind: "fatal", message: `the endpoint refused the API key (${status}): ${msg}` };
    if (status === 404) return { kind: "fatal", message: `the endpoint has no model "${model}" (404): ${msg}` };
    if (status === 400 && /response_format|json_schema|structured/i.test(msg))
      return { kind: "structured_unsupported", message: msg };
    if (status === 429 || status >= 500 || status === 408 || status === 409)
      return { kind: "transient", message: `${status} after retries: ${msg}` };
    return { kind: "refused", message: `${status}: ${msg}` };
  }
  return { kind: "transient", message: redact(e instanceof Error ? e.message : String(e), apiKey) };
}

export async function ask(client: OpenAI, e: Pick<TEndpoint, "apiKey" | "baseUrl">, q: TAsk): Promise<TAnswer> {
  try {
    const res = await client.chat.completions.create({
      model: q.model,
      messages: [{ role: "user", content: q.prompt }],
      temperature: q.temperature,
      max_tokens: q.maxTokens,
      ...(q.structured ? { response_format: (q.responseFormat ?? RESPONSE_FORMAT) as typeof RESPONSE_FORMAT } : {}),
    });
    return {
      ...readCompletion(res),
      promptTokens: res.usage?.prompt_tokens ?? 0,
      completionTokens: res.usage?.completion_tokens ?? 0,
    };
  } catch (err) {
    throw new EndpointError(classify(err, e.apiKey, e.baseUrl, q.model));
  }
}

/**
 * Checks the endpoint before anything is written: that it answers, accepts the key, and serves
 * the model. It lists the models (/models, which OpenAI, vLLM, Ollama, llama.cpp and LiteLLM
 * serve); when an endpoint has no such list, one one-token request stands in.
 */
export async function preflight(
  client: OpenAI,
  e: Pick<TEndpoint, "apiKey" | "baseUrl">,
  model: string,
): Promise<void> {
  let ids: string[] | null = null;
  try {
    const page = await client.models.list();
    ids = page.data.map((m) => m.id);
  } catch (err) {
    const f = classify(err, e.apiKey, e.baseUrl, model);
    const status = err instanceof OpenAI.APIError ? err.status : undefined;
    if (status === 404 || status === 405) ids = null;
    else if (err instanceof OpenAI.APIConnectionError)
      throw new AppError(
        "bad_input",
        say`${f.message}. Is the server running, and does ${field("baseUrl")} end in /v1 (e.g. http://localhost:11434/v1 for Ollama)?`,
      );
    else if (status === 401 || status === 403) throw new AppError("bad_input", f.message);
    else throw new AppError("bad_input", `the endpoint ${e.baseUrl} failed to list its models: ${f.message}`);
  }
  if (ids !== null) {
    if (!ids.includes(model))
      throw new AppError(
        "bad_input",
        `the endpoint ${e.baseUrl} does not serve a model "${model}"; it serves: ${ids.length ? ids.slice(0, 30).join(", ") : "(none)"}`,
      );
    return;
  }
  try {
    await ask(client, e, { model, prompt: "Reply with 0.", temperature: 0, maxTokens: 1, structured: false });
  } catch (err) {
    if (err instanceof EndpointError) throw new AppError("bad_input", err.message);
    throw err;
  }
}

/**
 * A client for interactive checks (starting a run, trying a template): short timeout, one retry,
 * and the endpoint, key and model checked by `preflight` before it is handed back.
 */
export async function checkedClient(
  baseUrl: string,
  apiKey: string,
  model: string,
  timeoutMs: number,
): Promise<{ client: OpenAI; endpoint: TEndpoint }> {
  const endpoint: TEndpoint = { baseUrl, apiKey, timeoutMs: Math.min(timeoutMs, 30_000), maxRetries: 1 };
  const client = makeClient(endpoint);
  await preflight(client, endpoint, model);
  return { client, endpoint };
}
