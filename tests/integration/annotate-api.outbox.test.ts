import { afterEach, describe, expect, it } from "vitest";
import { Outbox, type TOutboxResult, type TStorage } from "../../lib/offline/outbox.ts";

/**
 * The client's outbox (lib/offline/outbox.ts) with an in-memory storage and a scripted fetch: a
 * submission is stored before any network, kept on network errors, 502–504, 401, 408 and 429 (with
 * backoff, everything waiting), removed on an answer, sent oldest first, and found again by a new
 * outbox on the same storage (a reload); a refused grade (other 4xx) is never retried and a grade the
 * server fails on does not hold the others back. The browser-level version of this is tests/e2e/offline.test.ts.
 */
function memoryStorage(): TStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

type TScript = (url: string, body: unknown) => Promise<Response>;
const outboxes: Outbox[] = [];
afterEach(() => outboxes.splice(0).forEach((o) => o.stop()));

function make(storage: TStorage, script: TScript, clock: { t: number }, results: TOutboxResult[] = []) {
  const sent: { key: string; body: unknown }[] = [];
  const fetch = (async (url: string, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body));
    sent.push({ key: new Headers(init?.headers).get("Idempotency-Key") ?? "", body });
    return script(url, body);
  }) as typeof globalThis.fetch;
  const outbox = new Outbox({
    storage,
    storageKey: "k",
    fetch,
    now: () => clock.t,
    onResult: (r) => results.push(r),
    baseDelayMs: 1000,
    maxDelayMs: 8000,
  });
  outboxes.push(outbox);
  return { outbox, sent, results };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
const entry = (n: number) => ({ key: `key-${n}`, url: "/api/annotate/judgements", itemId: `item-${n}`, body: { n } });
const stored = (s: ReturnType<typeof memoryStorage>) =>
  JSON.parse(s.data.get("k") ?? "[]") as { key: string; attempts: number; nextAttemptAt: number }[];

describe("Outbox", () => {
  it("stores a submission before sending it and removes it once answered", async () => {
    const storage = memoryStorage();
    const clock = { t: 1000 };
    let release: (r: Response) => void = () => undefined;
    const { outbox, results } = make(storage, () => new Promise((r) => (release = r)), clock);
    outbox.enqueue(entry(1));
    expect(stored(storage).map((e) => e.key)).toEqual(["key-1"]);
    release(json(200, { applied: true }));
    await outbox.flush();
    await new Promise((r) => setTimeout(r, 0));
    expect(stored(storage)).toEqual([]);
    expect(results.map((r) => r.ok)).toEqual([true]);
  });

  it("keeps entries on network errors, 5xx, 401 and 429 with doubling backoff; sends oldest first", async () => {
    const storage = memoryStorage();
    const clock = { t: 0 };
    const answers: (Response | Error)[] = [
      new Error("offline"),
      json(503, {}),
      json(401, {}),
      json(429, {}),
      json(200, { applied: true }),
      json(200, { applied: false }),
    ];
    const { outbox, sent, results } = make(
      storage,
      async () => {
        const a = answers.shift()!;
        if (a instanceof Error) throw new TypeError("Failed to fetch");
        return a;
      },
      clock,
    );
    outbox.enqueue(entry(1));
    outbox.enqueue(entry(2));
    await outbox.flush();
    // One failed attempt: backoff 1000 ms ± 25 % jitter; the second entry waits behind the first.
    let [first] = stored(storage);
    expect(first.attempts).toBe(1);
    expect(first.nextAttemptAt).toBeGreaterThanOrEqual(750);
    expect(first.nextAttemptAt).toBeLessThanOrEqual(1250);
    expect(sent.map((s) => s.key)).toEqual(["key-1"]);
    // Not due yet: nothing is sent.
    await outbox.flush();
    expect(sent.length).toBe(1);
    for (const [attempt, base] of [
      [2, 2000],
      [3, 4000],
      [4, 8000],
    ] as const) {
      clock.t = first.nextAttemptAt;
      const at = clock.t;
      await outbox.flush();
      [first] = stored(storage);
      expect(first.attempts).toBe(attempt);
      expect(first.nextAttemptAt - at).toBeGreaterThanOrEqual(base * 0.75);
      expect(first.nextAttemptAt - at).toBeLessThanOrEqual(base * 1.25);
    }
    clock.t = first.nextAttemptAt;
    await outbox.flush();
    expect(stored(storage)).toEqual([]);
    expect(sent.map((s) => s.key)).toEqual(["key-1", "key-1", "key-1", "key-1", "key-1", "key-2"]);
    expect(results.map((r) => r.entry.key)).toEqual(["key-1", "key-2"]);
  });

  it("says it is signed out from a 401 on, keeps the entries, and not after the next answer", async () => {
    const storage = memoryStorage();
    const clock = { t: 0 };
    const answers = [json(401, {}), json(503, {}), json(401, {}), json(200, { applied: true })];
    const states: boolean[] = [];
    const fetch = (async () => answers.shift()!) as typeof globalThis.fetch;
    const outbox = new Outbox({
      storage,
      storageKey: "k",
      fetch,
      now: () => clock.t,
      onChange: (_p, _f, state) => states.push(state.signedOut),
    });
    outboxes.push(outbox);
    expect(outbox.signedOut()).toBe(false);
    outbox.enqueue(entry(1));
    await outbox.flush();
    expect(outbox.signedOut()).toBe(true);
    expect(stored(storage).map((e) => e.key)).toEqual(["key-1"]);
    // A 503 is not about the session: signed out no longer holds (the server did not say so).
    await outbox.flush(true);
    expect(outbox.signedOut()).toBe(false);
    await outbox.flush(true);
    expect(outbox.signedOut()).toBe(true);
    // Signed in again: the forced flush sends the entry, and the state clears.
    await outbox.flush(true);
    expect(outbox.signedOut()).toBe(false);
    expect(stored(storage)).toEqual([]);
    expect(states.at(-1)).toBe(false);
    expect(states).toContain(true);
  });

  it("never retries a refused submission (4xx): it leaves the queue, stays in the failed list until dismissed, and the others go on", async () => {
    const storage = memoryStorage();
    const clock = { t: 0 };
    const refusal = {
      error: {
        code: "bad_input",
        message: "invalid request body",
        details: [{ path: "notes", message: "notes: must not contain a NUL character" }],
      },
    };
    const { outbox, sent, results } = make(
      storage,
      async (_url, body) => ((body as { n: number }).n === 1 ? json(422, refusal) : json(200, { applied: true })),
      clock,
    );
    outbox.enqueue(entry(1));
    outbox.enqueue(entry(2));
    outbox.enqueue(entry(3));
    await outbox.flush();
    expect(stored(storage)).toEqual([]);
    expect(sent.map((s) => s.key)).toEqual(["key-1", "key-2", "key-3"]);
    expect(results[0]).toEqual({
      entry: expect.objectContaining({ key: "key-1" }),
      ok: false,
      status: 422,
      code: "bad_input",
      message: "invalid request body",
      details: refusal.error.details,
    });
    expect(results.slice(1).map((r) => [r.entry.key, r.ok])).toEqual([
      ["key-2", true],
      ["key-3", true],
    ]);
    expect(outbox.failed()).toEqual([
      {
        entry: expect.objectContaining({ key: "key-1", itemId: "item-1", body: { n: 1 } }),
        status: 422,
        code: "bad_input",
        message: "invalid request body",
        failedAt: 0,
      },
    ]);
    // The failed list survives a reload, and a flush never sends it again.
    outbox.stop();
    const again = make(storage, async () => json(200, { applied: true }), clock);
    expect(again.outbox.failed().map((f) => f.entry.key)).toEqual(["key-1"]);
    await again.outbox.flush(true);
    expect(again.sent).toEqual([]);
    again.outbox.dismiss("key-1");
    expect(again.outbox.failed()).toEqual([]);
    expect(JSON.parse(storage.data.get("k.failed") ?? "null")).toEqual([]);
  });

  it("a grade the server fails on (500) is retried with backoff while the others are sent, then given up after five attempts", async () => {
    const storage = memoryStorage();
    const clock = { t: 0 };
    const { outbox, sent, results } = make(
      storage,
      async (_url, body) =>
        (body as { n: number }).n === 1
          ? json(500, { error: { code: "internal", message: "internal error (reference x)" } })
          : json(200, { applied: true }),
      clock,
    );
    outbox.enqueue(entry(1));
    outbox.enqueue(entry(2));
    outbox.enqueue({ ...entry(3), itemId: "item-1" }); // a later edit of item 1 waits behind the first
    await outbox.flush();
    expect(sent.map((s) => s.key)).toEqual(["key-1", "key-2"]);
    expect(stored(storage).map((e) => [e.key, e.attempts])).toEqual([
      ["key-1", 1],
      ["key-3", 0],
    ]);
    for (let attempt = 2; attempt <= 5; attempt++) {
      clock.t = stored(storage)[0].nextAttemptAt;
      await outbox.flush();
    }
    // Five attempts of key-1 in all; then it is failed and the later edit of the same item is sent.
    expect(sent.map((s) => s.key)).toEqual(["key-1", "key-2", "key-1", "key-1", "key-1", "key-1", "key-3"]);
    expect(stored(storage)).toEqual([]);
    expect(outbox.failed().map((f) => [f.entry.key, f.status, f.code, f.entry.attempts])).toEqual([
      ["key-1", 500, "internal", 5],
    ]);
    expect(results.map((r) => [r.entry.key, r.ok])).toEqual([
      ["key-2", true],
      ["key-1", false],
      ["key-3", true],
    ]);
  });

  it("on an answer that would fail every grade (401, 408, 429, 503, no network) nothing else is sent until the backoff ends", async () => {
    for (const answer of [401, 408, 429, 502, 503, 504, "offline"] as const) {
      const storage = memoryStorage();
      const clock = { t: 0 };
      const { outbox, sent } = make(
        storage,
        async () => {
          if (answer === "offline") throw new TypeError("Failed to fetch");
          return json(answer, {});
        },
        clock,
      );
      outbox.enqueue(entry(1));
      outbox.enqueue(entry(2));
      await outbox.flush();
      expect(sent.map((s) => s.key)).toEqual(["key-1"]);
      expect(outbox.failed()).toEqual([]);
      expect(stored(storage).map((e) => e.key)).toEqual(["key-1", "key-2"]);
    }
  });

  it("finds unsent entries again after a reload and sends them with their original keys", async () => {
    const storage = memoryStorage();
    const clock = { t: 0 };
    const before = make(
      storage,
      async () => {
        throw new TypeError("Failed to fetch");
      },
      clock,
    );
    before.outbox.enqueue(entry(1));
    before.outbox.enqueue(entry(2));
    await before.outbox.flush();
    before.outbox.stop();
    const after = make(storage, async () => json(200, { applied: true }), clock);
    expect(after.outbox.pending().map((e) => e.key)).toEqual(["key-1", "key-2"]);
    await after.outbox.flush(true);
    expect(after.sent.map((s) => [s.key, s.body])).toEqual([
      ["key-1", { n: 1 }],
      ["key-2", { n: 2 }],
    ]);
    expect(stored(storage)).toEqual([]);
  });
});
