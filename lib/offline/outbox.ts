/**
 * The client's queue of unacknowledged submissions ("outbox"). A grade is written here first
 * (localStorage, so it survives a reload or a crash of the tab) and removed only when the server
 * has answered it: 2xx (applied, or already applied: the idempotency key makes a retry harmless)
 * or a definite refusal (4xx other than 401/408/429, reported to the UI). Network errors, 5xx,
 * 401 (signed out), 408 and 429 are retried with exponential backoff, and at once when the
 * browser says it is online again. Entries are sent one at a time, oldest first, so two edits of
 * one item reach the server in the order they were made.
 *
 * No React, no DOM beyond an injectable storage and fetch: usable in tests and in the page.
 */

export type TOutboxEntry = {
  /** The idempotency key (crypto.randomUUID()), also the entry's identity. */
  key: string;
  url: string;
  body: unknown;
  /** What the entry is about, for the UI (e.g. the pool item id). */
  itemId: string;
  queuedAt: number;
  attempts: number;
  nextAttemptAt: number;
  lastError?: string;
};

export type TOutboxResult = { entry: TOutboxEntry; ok: true; data: unknown } | { entry: TOutboxEntry; ok: false; status: number; code: string; message: string; details?: unknown };

export type TStorage = Pick<Storage, "getItem" | "setItem">;

export type TOutboxOptions = {
  storage: TStorage;
  storageKey: string;
  fetch?: typeof fetch;
  /** Called after every change of the pending list. */
  onChange?: (pending: readonly TOutboxEntry[]) => void;
  /** Called once per entry when it leaves the outbox. */
  onResult?: (result: TOutboxResult) => void;
  baseDelayMs?: number;
  maxDelayMs?: number;
  now?: () => number;
};

const RETRY_STATUSES = new Set([401, 408, 425, 429]);

export class Outbox {
  private entries: TOutboxEntry[];
  private flushing: Promise<void> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  private readonly opts: Required<Omit<TOutboxOptions, "onChange" | "onResult" | "fetch">> & Pick<TOutboxOptions, "onChange" | "onResult" | "fetch">;

  constructor(options: TOutboxOptions) {
    this.opts = { baseDelayMs: 500, maxDelayMs: 15_000, now: () => Date.now(), ...options };
    this.entries = this.load();
  }

  pending(): readonly TOutboxEntry[] {
    return this.entries;
  }

  /** Stores the submission (synchronously, before any network), then tries to send it. */
  enqueue(entry: Pick<TOutboxEntry, "key" | "url" | "body" | "itemId">): void {
    const now = this.opts.now();
    this.entries = [...this.entries, { ...entry, queuedAt: now, attempts: 0, nextAttemptAt: now }];
    this.save();
    void this.flush();
  }

  /** Sends every due entry, oldest first; resolves when the pass is over. */
  flush(force = false): Promise<void> {
    if (this.flushing) return this.flushing;
    if (force) this.entries = this.entries.map((e) => ({ ...e, nextAttemptAt: 0 }));
    this.flushing = this.run().finally(() => {
      this.flushing = null;
      this.schedule();
    });
    return this.flushing;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private async run(): Promise<void> {
    const doFetch = this.opts.fetch ?? globalThis.fetch.bind(globalThis);
    while (!this.stopped) {
      const entry = this.entries[0];
      if (!entry || entry.nextAttemptAt > this.opts.now()) return;
      let status = 0;
      let text = "";
      try {
        const res = await doFetch(entry.url, { method: "POST", headers: { "Content-Type": "application/json", "Idempotency-Key": entry.key }, body: JSON.stringify(entry.body), credentials: "same-origin" });
        status = res.status;
        text = await res.text();
      } catch (e) {
        this.retryLater(entry, e instanceof Error ? e.message : String(e));
        return;
      }
      if (status >= 500 || RETRY_STATUSES.has(status)) {
        this.retryLater(entry, `HTTP ${status}`);
        return;
      }
      let data: unknown = undefined;
      try {
        data = text ? JSON.parse(text) : undefined;
      } catch {
        data = text;
      }
      this.entries = this.entries.filter((e) => e.key !== entry.key);
      this.save();
      if (status >= 200 && status < 300) this.opts.onResult?.({ entry, ok: true, data });
      else {
        const err = (data as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error;
        this.opts.onResult?.({ entry, ok: false, status, code: err?.code ?? "http_error", message: err?.message ?? `HTTP ${status}`, details: err?.details });
      }
    }
  }

  private retryLater(entry: TOutboxEntry, error: string): void {
    const attempts = entry.attempts + 1;
    const delay = Math.min(this.opts.maxDelayMs, this.opts.baseDelayMs * 2 ** (attempts - 1));
    // Jitter spreads the retries of many annotators coming back online at once.
    const jittered = delay * (0.75 + Math.random() * 0.5);
    this.entries = this.entries.map((e) => (e.key === entry.key ? { ...e, attempts, nextAttemptAt: this.opts.now() + jittered, lastError: error } : e));
    this.save();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.stopped || this.entries.length === 0) return;
    const wait = Math.max(0, this.entries[0].nextAttemptAt - this.opts.now());
    this.timer = setTimeout(() => void this.flush(), wait);
  }

  private load(): TOutboxEntry[] {
    try {
      const raw = this.opts.storage.getItem(this.opts.storageKey);
      const parsed: unknown = raw ? JSON.parse(raw) : [];
      return Array.isArray(parsed) ? (parsed as TOutboxEntry[]).filter((e) => typeof e?.key === "string" && typeof e.url === "string") : [];
    } catch {
      return [];
    }
  }

  private save(): void {
    try {
      this.opts.storage.setItem(this.opts.storageKey, JSON.stringify(this.entries));
    } catch {
      // Storage full or unavailable: the entries stay in memory and are still retried.
    }
    this.opts.onChange?.(this.entries);
  }
}
