/**
 * Gain values for trec_eval's gain-based measures (ndcg, ndcg_rel, Rndcg, G, rbp), as
 * trec_eval 10.0's gain_init.c sets them up: every relevance level from 0 to the highest judged
 * level gains its own value unless a `level=gain` parameter (`-m ndcg.1=3,2=9`) says otherwise;
 * parameters whose name is not an integer (rbp's `p=0.95`) are not gains. The levels are sorted
 * by increasing gain with trec_eval's comparator, which truncates the difference to an integer
 * (so gains less than 1 apart keep their order: a stable sort, as glibc's qsort is for these sizes).
 * A relevance value without an entry (unjudged, or a level no chunk has) gains 0.
 */
export type GainPair = { name: string; value: number };
export type GainLevel = { level: number; count: number; gain: number };
/** `table[rel + 2]`: the gain of relevance value rel (−2 … 127), for a lookup per rank. */
export type Gains = { levels: GainLevel[]; total: number; table: Float64Array };

const TABLE_SIZE = 130;

function gainTable(levels: readonly GainLevel[]): Float64Array {
  const table = new Float64Array(TABLE_SIZE);
  // the first level in sorted order wins, as trec_eval's get_gain scans them
  for (let k = levels.length - 1; k >= 0; k--) {
    const i = levels[k].level + 2;
    if (i >= 0 && i < TABLE_SIZE) table[i] = levels[k].gain;
  }
  return table;
}

/** The same gains with new values (rbp's scaling). */
export function withGainValues(gains: Gains, value: (gain: number) => number): Gains {
  const levels = gains.levels.map((l) => ({ ...l, gain: value(l.gain) }));
  return { levels, total: gains.total, table: gainTable(levels) };
}

const isInteger = (s: string) => /^[+-]?\d+$/.test(s);

export function setupGains(pairs: readonly GainPair[], relLevels: readonly number[]): Gains {
  const levels: GainLevel[] = [];
  for (const p of pairs) if (isInteger(p.name)) levels.push({ level: parseInt(p.name, 10), gain: p.value, count: 0 });
  const given = levels.length;
  for (let i = 0; i < relLevels.length; i++) {
    let j = 0;
    while (j < given && levels[j].level !== i) j++;
    if (j < given) levels[j].count = relLevels[i];
    else levels.push({ level: i, gain: i, count: relLevels[i] });
  }
  levels.sort((a, b) => Math.trunc(a.gain - b.gain));
  let total = 0;
  for (const l of levels) total += l.count;
  return { levels, total, table: gainTable(levels) };
}

export function gainOfLevel(rel: number, gains: Gains): number {
  const i = rel + 2;
  return i >= 0 && i < TABLE_SIZE ? gains.table[i] : 0;
}

/**
 * Walks the ideal ranking of trec_eval's gain measures: the judged chunks from the highest gain
 * level down, one per rank; `next()` gives the gain at the next rank (0 once no level with a
 * positive gain is left, and from then on).
 */
export class IdealGains {
  private level: number;
  private atLevel = 0;
  gain: number;
  constructor(private readonly gains: Gains) {
    this.level = gains.levels.length - 1;
    this.gain = this.level >= 0 ? gains.levels[this.level].gain : 0;
  }
  next(): number {
    this.atLevel++;
    while (this.level >= 0 && this.atLevel > this.gains.levels[this.level].count) {
      this.atLevel = 1;
      this.level--;
      this.gain = this.level >= 0 ? this.gains.levels[this.level].gain : 0;
    }
    return this.gain;
  }
}
