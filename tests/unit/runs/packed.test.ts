import { describe, expect, it } from "vitest";
import { decodeRanking, encodeRanking } from "../../../lib/runs/packed.ts";
import { compareEvaluated } from "../../../lib/stats/order.ts";

type Entry = { queryId: number; chunkId: number; score: number };

/** The dashboard's loadRun before packed rankings (lib/dashboard/rankings.ts), kept as the reference. */
function loadRunBefore(
  entries: Entry[],
  docid: (chunkId: number) => string,
): Map<number, { chunkIds: Int32Array; docids: string[] }> {
  const byQuery = new Map<number, { docid: string; score: number; chunkId: number }[]>();
  for (const e of entries) {
    const row = { docid: docid(e.chunkId), score: e.score, chunkId: e.chunkId };
    const list = byQuery.get(e.queryId);
    if (list) list.push(row);
    else byQuery.set(e.queryId, [row]);
  }
  const out = new Map<number, { chunkIds: Int32Array; docids: string[] }>();
  for (const [queryId, rows] of byQuery) {
    rows.sort(compareEvaluated);
    out.set(queryId, { chunkIds: Int32Array.from(rows, (r) => r.chunkId), docids: rows.map((r) => r.docid) });
  }
  return out;
}

function columns(entries: Entry[]) {
  return {
    length: entries.length,
    query: Int32Array.from(entries, (e) => e.queryId),
    chunk: Int32Array.from(entries, (e) => e.chunkId),
    score: Float64Array.from(entries, (e) => e.score),
  };
}

const sorted = <V>(m: Map<number, V>) => new Map([...m].sort((a, b) => a[0] - b[0]));

describe("packed run rankings (lib/runs/packed.ts)", () => {
  // Docids whose byte order differs from locale order ("B" < "a" < "b", "b10" < "b9").
  const names = new Map<number, string>([
    [1, "a"],
    [2, "B"],
    [3, "b"],
    [4, "b10"],
    [5, "b9"],
    [6, "Z"],
    [7, "é"],
    [40, "x"],
  ]);
  const docid = (id: number) => names.get(id) ?? "";
  // Entries of three queries, interleaved and out of order, with score ties (also 0 and -0).
  const entries: Entry[] = [
    { queryId: 20, chunkId: 1, score: 1 },
    { queryId: 7, chunkId: 4, score: 0.5 },
    { queryId: 20, chunkId: 2, score: 1 },
    { queryId: 7, chunkId: 5, score: 0.5 },
    { queryId: 20, chunkId: 3, score: 1 },
    { queryId: 7, chunkId: 1, score: 2 },
    { queryId: 20, chunkId: 6, score: 3.25 },
    { queryId: 7, chunkId: 7, score: 0.5 },
    { queryId: 20, chunkId: 7, score: -1 },
    { queryId: 20, chunkId: 40, score: 1 },
    { queryId: 9, chunkId: 2, score: 0 },
    { queryId: 9, chunkId: 3, score: -0 },
    { queryId: 9, chunkId: 1, score: 0 },
    { queryId: 7, chunkId: 99, score: 0.5 }, // a chunk without a name sorts as ""
  ];

  it("decodes to exactly what the dashboard computed from the entries before", () => {
    const decoded = decodeRanking(encodeRanking(columns(entries), docid));
    const before = loadRunBefore(entries, docid);
    expect([...decoded.keys()]).toEqual([7, 9, 20]);
    expect(
      sorted(
        new Map(
          [...decoded].map(([q, ids]) => [q, { chunkIds: Int32Array.from(ids), docids: Array.from(ids, docid) }]),
        ),
      ),
    ).toEqual(sorted(before));
    expect(Array.from(decoded.get(20)!)).toEqual([6, 40, 3, 1, 2, 7]);
    expect(Array.from(decoded.get(7)!)).toEqual([1, 7, 5, 4, 99]);
  });

  it("round-trips a larger random run, whatever the order of the lines", () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const big: Entry[] = [];
    for (let q = 1; q <= 50; q++) {
      const used = new Set<number>();
      for (let k = 0; k < 100; k++) {
        let c: number;
        do c = 1 + Math.floor(rnd() * 3000);
        while (used.has(c));
        used.add(c);
        big.push({ queryId: q * 3, chunkId: c, score: Math.floor(rnd() * 20) / 4 });
      }
    }
    const shuffled = [...big].sort(() => rnd() - 0.5);
    const bigDocid = (id: number) => `d${(id * 7919) % 3001}`;
    const bytes = encodeRanking(columns(shuffled), bigDocid);
    expect(bytes.byteLength).toBe(4 * (4 + 2 * 50 + big.length));
    const decoded = decodeRanking(bytes);
    const before = loadRunBefore(big, bigDocid);
    expect(decoded.size).toBe(before.size);
    for (const [q, r] of before) expect(Array.from(decoded.get(q)!)).toEqual(Array.from(r.chunkIds));
    // The same bytes from a Buffer at an odd offset (copied before viewing) decode the same.
    const shifted = Buffer.alloc(bytes.byteLength + 1);
    shifted.set(bytes, 1);
    expect(decodeRanking(shifted.subarray(1))).toEqual(decoded);
  });

  it("packs an empty run and refuses bytes that are not a packed ranking", () => {
    expect(decodeRanking(encodeRanking(columns([]), docid)).size).toBe(0);
    expect(() => decodeRanking(new Uint8Array(3))).toThrow(/not a packed ranking/);
    expect(() => decodeRanking(new Uint8Array(16))).toThrow(/unknown header/);
    const bytes = encodeRanking(columns(entries), docid);
    expect(() => decodeRanking(bytes.subarray(0, bytes.length - 4))).toThrow(/does not match/);
  });

  it("lays out little-endian 32-bit integers: header, then queries by id with their chunk ids", () => {
    const bytes = encodeRanking(columns([{ queryId: 5, chunkId: 258, score: 1 }]), docid);
    expect(Array.from(bytes.subarray(8))).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0, 2, 1, 0, 0]);
  });
});
