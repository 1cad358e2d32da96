/**
 * log2(i + 2), the discount of the chunk at 0-based rank i in DCG and its relatives, from a table
 * that grows as rankings get longer: the gain measures read it a few times per rank, and the
 * values are Math.log2's, so results are the same as computing it each time.
 */
let table = new Float64Array(0);

export function discounts(n: number): Float64Array {
  if (table.length < n) {
    const t = new Float64Array(Math.max(n, table.length * 2, 1024));
    for (let i = 0; i < t.length; i++) t[i] = Math.log2(i + 2);
    table = t;
  }
  return table;
}
