import { afterEach, describe, expect, it } from "vitest";
import { Outbox, type TOutboxResult, type TStorage } from "../../lib/offline/outbox.ts";

/**
 * The client's outbox (lib/offline/outbox.ts) with an in-memory storage and a scripted fetch: a
 * submission is stored before any network, kept on network errors, 5xx, 401 and 429 (with backoff),
 * removed on an answer, sent oldest first, and found again by a new outbox on the same storage
 * (a reload). The browser-level version of this is tests/e2e/offline.test.ts.
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
  const outbox = new Outbox({ storage, storageKey: "k", fetch, now: () => clock.t, onResult: (r) => results.push(r), baseDelayMs: 1000, maxDelayMs: 8000 });
  outboxes.push(outbox);
  return { outbox, sent, results };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
const entry = (n: number) => ({ key: `key-${n}`, url: "/api/annotate/judgements", itemId: `item-${n}`, body: { n } });
const stored = (s: ReturnType<typeof memoryStorage>) => JSON.parse(s.data.get("k") ?? "[]") as { key: string; attempts: number; nextAttemptAt: number }[];

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
    const answers: (Response | Error)[] = [new Error("offline"), json(503, {}), json(401, {}), json(429, {}), json(200, { applied: true }), json(200, { applied: false })];
    const { outbox, sent, results } = make(storage, async () => {
      const a = answers.shift()!;
      if (a instanceof Error) throw new TypeError("Failed to fetch");
      return a;
    }, clock);
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
    for (const [attempt, base] of [[2, 2000], [3, 4000], [4, 8000]] as const) {
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

  it("drops a refused submission (4xx) and reports why", async () => {
    const storage = memoryStorage();
    const { outbox, results } = make(storage, async () => json(409, { error: { code: "conflict", message: "the annotators of this item agree: its label is final" } }), { t: 0 });
    outbox.enqueue(entry(1));
    await outbox.flush();
    expect(stored(storage)).toEqual([]);
    expect(results).toEqual([{ entry: expect.objectContaining({ key: "key-1" }), ok: false, status: 409, code: "conflict", message: "the annotators of this item agree: its label is final", details: undefined }]);
  });

  it("finds unsent entries again after a reload and sends them with their original keys", async () => {
    const storage = memoryStorage();
    const clock = { t: 0 };
    const before = make(storage, async () => {
      throw new TypeError("Failed to fetch");
    }, clock);
    before.outbox.enqueue(entry(1));
    before.outbox.enqueue(entry(2));
    await before.outbox.flush();
    before.outbox.stop();
    const after = make(storage, async () => json(200, { applied: true }), clock);
    expect(after.outbox.pending().map((e) => e.key)).toEqual(["key-1", "key-2"]);
    await after.outbox.flush(true);
    expect(after.sent.map((s) => [s.key, s.body])).toEqual([["key-1", { n: 1 }], ["key-2", { n: 2 }]]);
    expect(stored(storage)).toEqual([]);
  });
});
