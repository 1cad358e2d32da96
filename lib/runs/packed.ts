import { compareEvaluated } from "../stats/order.ts";

/**
 * A run's rankings in the evaluated order (lib/stats/order.ts compareEvaluated: score descending,
 * ties by docid descending), packed into one byte string so that the dashboard reads one row per
 * run instead of one row per run entry (stored in the RunRanking table, see docs/ARCHITECTURE.md).
 *
 * Layout: 32-bit signed integers, little-endian, no padding.
 *   header:     MAGIC, VERSION, number of queries Q, number of entries N
 *   Q × query:  queryId, count, chunkId × count   (queries by id ascending; chunk ids in the
 *               evaluated order; count ≥ 1: a query without entries is left out)
 * Total length: 4 × (4 + 2Q + N) bytes. Scores and docids are not kept: the order is all the
 * dashboard needs, and docids come from the chunk ids.
 */
const MAGIC = 0x4b4e5252; // "RRNK" read as little-endian bytes
const VERSION = 1;
const HEADER = 4;

/** Entries of one run as columns (lib/imports/run.ts EntryColumns has this shape). */
export type TRunEntryColumns = {
  readonly length: number;
  readonly query: ArrayLike<number>;
  readonly chunk: ArrayLike<number>;
  readonly score: ArrayLike<number>;
};

const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Entry indices grouped by query (queries by id ascending; file order within a query). */
function groupByQuery(entries: TRunEntryColumns): { queryIds: number[]; from: Int32Array; order: Uint32Array } {
  const n = entries.length;
  const { query } = entries;
  // Counting sort on the query ids: stable within a query.
  const counts = new Map<number, number>();
  for (let i = 0; i < n; i++) counts.set(query[i], (counts.get(query[i]) ?? 0) + 1);
  const queryIds = [...counts.keys()].sort((a, b) => a - b);
  const from = new Int32Array(queryIds.length + 1);
  const next = new Map<number, number>();
  queryIds.forEach((q, k) => {
    next.set(q, from[k]);
    from[k + 1] = from[k] + counts.get(q)!;
  });
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const at = next.get(query[i])!;
    order[at] = i;
    next.set(query[i], at + 1);
  }
  return { queryIds, from, order };
}

/**
 * Sorts each query's entries in the evaluated order and packs them. `docid(chunkId)` names a
 * chunk (its external id, as the dashboard's chunk map has it); it is called only to break a score
 * tie. Nothing is allocated per entry: the entries' indices are sorted with
 * compareEvaluated applied to two reused views. Memory: the output and one index array.
 */
export function encodeRanking(entries: TRunEntryColumns, docid: (chunkId: number) => string): Uint8Array<ArrayBuffer> {
  const n = entries.length;
  const { chunk } = entries;
  const { queryIds, from, order } = groupByQuery(entries);
  const a = new EntryView(entries, docid);
  const b = new EntryView(entries, docid);
  const compare = (i: number, j: number) => compareEvaluated(a.at(i), b.at(j));
  const out = new Int32Array(HEADER + 2 * queryIds.length + n);
  out[0] = MAGIC;
  out[1] = VERSION;
  out[2] = queryIds.length;
  out[3] = n;
  let w = HEADER;
  for (let k = 0; k < queryIds.length; k++) {
    const group = order.subarray(from[k], from[k + 1]).sort(compare);
    out[w++] = queryIds[k];
    out[w++] = group.length;
    for (let j = 0; j < group.length; j++) out[w++] = chunk[group[j]];
  }
  const bytes = new Uint8Array(out.buffer);
  if (!littleEndian) swapBytes(bytes);
  return bytes;
}

/** One entry as compareEvaluated sees it; the docid is looked up only when it is read. */
class EntryView {
  score = 0;
  private i = 0;
  constructor(
    private readonly entries: TRunEntryColumns,
    private readonly name: (chunkId: number) => string,
  ) {}
  at(i: number): this {
    this.i = i;
    this.score = this.entries.score[i];
    return this;
  }
  get docid(): string {
    return this.name(this.entries.chunk[this.i]);
  }
}

/**
 * Each query's chunk ids in the evaluated order. The arrays are views into one buffer (a copy of
 * `bytes` only when it is not 4-byte aligned or the machine is big-endian): do not write to them.
 * Throws on bytes that are not a packed ranking.
 */
export function decodeRanking(bytes: Uint8Array): Map<number, Int32Array> {
  if (bytes.byteLength % 4 !== 0 || bytes.byteLength < 4 * HEADER)
    throw new Error(`packed ranking: ${bytes.byteLength} bytes is not a packed ranking`);
  let ints: Int32Array;
  if (littleEndian && bytes.byteOffset % 4 === 0)
    ints = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  else {
    const copy = new Uint8Array(bytes);
    if (!littleEndian) swapBytes(copy);
    ints = new Int32Array(copy.buffer);
  }
  if (ints[0] !== MAGIC || ints[1] !== VERSION) throw new Error(`packed ranking: unknown header ${ints[0]}/${ints[1]}`);
  const queries = ints[2];
  const total = ints[3];
  if (queries < 0 || total < 0 || ints.length !== HEADER + 2 * queries + total)
    throw new Error(`packed ranking: length ${ints.length} does not match ${queries} queries and ${total} entries`);
  const out = new Map<number, Int32Array>();
  let r = HEADER;
  for (let k = 0; k < queries; k++) {
    const q = ints[r];
    const count = ints[r + 1];
    r += 2;
    if (count < 1 || r + count > ints.length) throw new Error(`packed ranking: query ${q} has a bad count ${count}`);
    out.set(q, ints.subarray(r, r + count));
    r += count;
  }
  return out;
}

function swapBytes(b: Uint8Array): void {
  for (let i = 0; i < b.length; i += 4) {
    const b0 = b[i];
    const b1 = b[i + 1];
    b[i] = b[i + 3];
    b[i + 1] = b[i + 2];
    b[i + 2] = b1;
    b[i + 3] = b0;
  }
}
