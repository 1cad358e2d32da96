/** A failed API call, with the server's error code and details (e.g. located import errors). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export async function parseApiResponse<T>(status: number, text: string): Promise<T> {
  let data: unknown = undefined;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (status >= 200 && status < 300) return data as T;
  const err = (data as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error;
  throw new ApiError(
    status,
    err?.code ?? "http_error",
    err?.message ?? `request failed (HTTP ${status})`,
    err?.details,
  );
}

/** fetch for our route handlers: JSON in and out, errors as ApiError. */
export async function apiFetch<T>(url: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
  const res = await fetch(url, {
    method: init.method ?? (init.json === undefined ? "GET" : "POST"),
    credentials: "same-origin",
    headers: init.json === undefined ? undefined : { "Content-Type": "application/json" },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  return parseApiResponse<T>(res.status, await res.text());
}
