/**
 * The client's queue of unacknowledged submissions ("outbox"). A grade is written here first
 * (localStorage, so it survives a reload or a crash of the tab) and removed only when the server
 * has answered it. What each answer does (one bad grade never blocks the others):
 *
 * - 2xx (applied, or already applied: the idempotency key makes a retry harmless): removed.
 * - Not the grade's fault, so retried with exponential backoff and every other entry waits too
 *   (sending them would fail the same way): no answer (network error), 401 (signed out: it is sent
 *   once the annotator signs in again), 408 (request timeout), 429 (too many submissions), 502,
 *   503 and 504 (a proxy or the database unreachable). Also at once when the browser says it is
 *   online again, or on "Retry now".
 * - Any other 4xx (422 bad input, 403, 404, 409, 413, …): the grade itself was refused, and a
 *   retry would be refused again: never retried. It leaves the queue at once, is kept in the
 *   failed list (stored too) with its item and the server's reason until the annotator dismisses
 *   it, and the entries behind it go on.
 * - 500 and other 5xx (a server error on this very grade): retried with backoff while the others
 *   go on, at most `maxServerErrors` times in all, then moved to the failed list.
 *
 * Entries are sent oldest first; an entry waits while an older entry for the same item is still
 * queued, so two edits of one item reach the server in the order they were made.
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

export type TOutboxResult =
  | { entry: TOutboxEntry; ok: true; data: unknown }
  | { entry: TOutboxEntry; ok: false; status: number; code: string; message: string; details?: unknown };
/** A grade the server refused (or failed on `maxServerErrors` times): kept for the annotator until dismissed. */
export type TOutboxFailure = { entry: TOutboxEntry; status: number; code: string; message: string; failedAt: number };

export type TStorage = Pick<Storage, "getItem" | "setItem">;

export type TOutboxOptions = {
  storage: TStorage;
  storageKey: string;
  fetch?: typeof fetch;
  /** Called after every change of the pending or the failed list, or of `signedOut`. */
  onChange?: (
    pending: readonly TOutboxEntry[],
    failed: readonly TOutboxFailure[],
    state: { signedOut: boolean },
  ) => void;
  /** Called once per entry when it leaves the outbox. */
  onResult?: (result: TOutboxResult) => void;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Attempts answered 500 (or another 5xx not listed below) before the entry counts as failed. */
  maxServerErrors?: number;
  now?: () => number;
};

/** Answers that are not the grade's fault and would fail every other entry too: wait, then retry. */
const PAUSE_STATUSES = new Set([401, 408, 429, 502, 503, 504]);

type TAnswer =
  | { kind: "ok"; data: unknown }
  | { kind: "pause"; error: string; status?: number }
  | { kind: "server_error"; status: number; code: string; message: string }
  | { kind: "refused"; status: number; code: string; message: string; details?: unknown };

/** What one HTTP answer means for the entry (see the file's comment). */
export function classifyAnswer(status: number, text: string): TAnswer {
  let data: unknown = undefined;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = text;
  }
  if (status >= 200 && status < 300) return { kind: "ok", data };
  if (PAUSE_STATUSES.has(status)) return { kind: "pause", error: `HTTP ${status}`, status };
  const err = (data as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error;
  const code = err?.code ?? "http_error";
  const message = err?.message ?? `HTTP ${status}`;
  if (status >= 500) return { kind: "server_error", status, code, message };
  return { kind: "refused", status, code, message, details: err?.details };
}

export class Outbox {
  private entries: TOutboxEntry[];
  private failures: TOutboxFailure[];
  /** Until when nothing is sent (an answer that would fail every entry, PAUSE_STATUSES). */
  private pausedUntil = 0;
  /** The last answer was 401: the session ended, the entries wait for a new sign-in. */
  private authNeeded = false;
  private flushing: Promise<void> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  private readonly opts: Required<Omit<TOutboxOptions, "onChange" | "onResult" | "fetch">> &
    Pick<TOutboxOptions, "onChange" | "onResult" | "fetch">;

  constructor(options: TOutboxOptions) {
    this.opts = { baseDelayMs: 500, maxDelayMs: 15_000, maxServerErrors: 5, now: () => Date.now(), ...options };
    this.entries = this.load(this.opts.storageKey).filter((e): e is TOutboxEntry => isEntry(e));
    this.failures = this.load(this.failedKey()).filter(
      (f): f is TOutboxFailure => typeof f === "object" && f !== null && isEntry((f as TOutboxFailure).entry),
    );
  }

  pending(): readonly TOutboxEntry[] {
    return this.entries;
  }

  /** Grades that will not be sent again (refused, or failing on the server), newest last. */
  failed(): readonly TOutboxFailure[] {
    return this.failures;
  }

  /**
   * Whether the server's last answer said the session has ended (401): the entries are kept and
   * sent once the annotator signs in again (then `flush(true)`); cleared by the next accepted answer.
   */
  signedOut(): boolean {
    return this.authNeeded;
  }

  /** The annotator has seen a failed grade: forget it. */
  dismiss(key: string): void {
    this.failures = this.failures.filter((f) => f.entry.key !== key);
    this.save();
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
    if (force) {
      this.entries = this.entries.map((e) => ({ ...e, nextAttemptAt: 0 }));
      this.pausedUntil = 0;
    }
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
      const now = this.opts.now();
      if (now < this.pausedUntil) return;
      const entry = this.sendable().find((e) => e.nextAttemptAt <= now);
      if (!entry) return;
      let answer: TAnswer;
      try {
        const res = await doFetch(entry.url, {
          method: "POST",
          headers: { "Content-Type": "application/json", "Idempotency-Key": entry.key },
          body: JSON.stringify(entry.body),
          credentials: "same-origin",
        });
        answer = classifyAnswer(res.status, await res.text());
      } catch (e) {
        answer = { kind: "pause", error: e instanceof Error ? e.message : String(e) };
      }
      if (answer.kind === "pause") {
        this.authNeeded = answer.status === 401;
        this.pausedUntil = this.retryLater(entry, answer.error);
        return;
      }
      if (answer.kind === "server_error" && entry.attempts + 1 < this.opts.maxServerErrors) {
        this.retryLater(entry, `HTTP ${answer.status}: ${answer.message}`);
        continue;
      }
      this.entries = this.entries.filter((e) => e.key !== entry.key);
      // Any answer from the application (not a pause) means the session is good.
      this.authNeeded = false;
      if (answer.kind === "ok") {
        this.save();
        this.opts.onResult?.({ entry, ok: true, data: answer.data });
      } else {
        const { status, code, message } = answer;
        this.failures = [
          ...this.failures,
          { entry: { ...entry, attempts: entry.attempts + 1 }, status, code, message, failedAt: this.opts.now() },
        ];
        this.save();
        this.opts.onResult?.({
          entry,
          ok: false,
          status,
          code,
          message,
          details: answer.kind === "refused" ? answer.details : undefined,
        });
      }
    }
  }

  /** The entries that may be sent now or after their backoff: the oldest queued one of each item. */
  private sendable(): TOutboxEntry[] {
    const seen = new Set<string>();
    return this.entries.filter((e) => !seen.has(e.itemId) && (seen.add(e.itemId), true));
  }

  /** Backs the entry off; returns when it is due again. */
  private retryLater(entry: TOutboxEntry, error: string): number {
    const attempts = entry.attempts + 1;
    const delay = Math.min(this.opts.maxDelayMs, this.opts.baseDelayMs * 2 ** (attempts - 1));
    // Jitter spreads the retries of many annotators coming back online at once.
    const due = this.opts.now() + delay * (0.75 + Math.random() * 0.5);
    this.entries = this.entries.map((e) =>
      e.key === entry.key ? { ...e, attempts, nextAttemptAt: due, lastError: error } : e,
    );
    this.save();
    return due;
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.stopped || this.entries.length === 0) return;
    const due = Math.max(this.pausedUntil, Math.min(...this.sendable().map((e) => e.nextAttemptAt)));
    const wait = Math.max(0, due - this.opts.now());
    this.timer = setTimeout(() => void this.flush(), wait);
  }

  private failedKey(): string {
    return `${this.opts.storageKey}.failed`;
  }

  private load(key: string): unknown[] {
    try {
      const raw = this.opts.storage.getItem(key);
      const parsed: unknown = raw ? JSON.parse(raw) : [];
      return Array.isArray(parsed) ? parsed : [];
    } catch {
      return [];
    }
  }

  private save(): void {
    try {
      this.opts.storage.setItem(this.opts.storageKey, JSON.stringify(this.entries));
      this.opts.storage.setItem(this.failedKey(), JSON.stringify(this.failures));
    } catch {
      // Storage full or unavailable: the entries stay in memory and are still retried.
    }
    this.opts.onChange?.(this.entries, this.failures, { signedOut: this.authNeeded });
  }
}

function isEntry(e: unknown): e is TOutboxEntry {
  return (
    typeof e === "object" &&
    e !== null &&
    typeof (e as TOutboxEntry).key === "string" &&
    typeof (e as TOutboxEntry).url === "string" &&
    typeof (e as TOutboxEntry).itemId === "string"
  );
}
