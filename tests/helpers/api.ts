import { apiSession } from "./login.ts";

/** A response with its JSON body parsed (`body` is null when the answer is not JSON). */
export type TJsonResponse<T> = { status: number; headers: Headers; body: T };

/**
 * A signed-in (or anonymous) user of a running server: `fetch` for pages and route handlers with
 * the session's cookie, and JSON helpers for the API. Paths are relative to the server's origin.
 */
export type ApiClient = {
  /** The Cookie header of the session ("" when anonymous). */
  cookie: string;
  fetch: (path: string, init?: RequestInit) => Promise<Response>;
  getJson: <T = unknown>(path: string) => Promise<TJsonResponse<T>>;
  /** Sends `body` as JSON with `method` (POST unless given). */
  sendJson: <T = unknown>(path: string, body: unknown, method?: string) => Promise<TJsonResponse<T>>;
};

async function asJson<T>(res: Response): Promise<TJsonResponse<T>> {
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: res.status, headers: res.headers, body: body as T };
}

export function apiClient(baseUrl: string, cookie = ""): ApiClient {
  const send = (path: string, init: RequestInit = {}) =>
    fetch(`${baseUrl}${path}`, {
      redirect: "manual",
      ...init,
      headers: { ...(cookie ? { Cookie: cookie } : {}), ...(init.headers as Record<string, string> | undefined) },
    });
  return {
    cookie,
    fetch: send,
    getJson: async (path) => asJson(await send(path)),
    sendJson: async (path, body, method = "POST") =>
      asJson(await send(path, { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })),
  };
}

/** Signs in through next-auth's endpoints (throws with the server's reason when it refuses). */
export async function loginClient(baseUrl: string, email: string, password: string): Promise<ApiClient> {
  return apiClient(baseUrl, await apiSession(baseUrl, email, password));
}
