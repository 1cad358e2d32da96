/**
 * Aligns two label sets on (query, chunk). Pairs keep their query so resampling can draw whole
 * queries (the pairs of one query are not independent).
 */
export type Label = { qid: string; docid: string; grade: number };
export type LabelPair = { qid: string; docid: string; reference: number; other: number };

export type Aligned = {
  pairs: LabelPair[];
  /** Labelled in the reference only / in the other set only. */
  referenceOnly: number;
  otherOnly: number;
};

export function alignLabels(reference: Iterable<Label>, other: Iterable<Label>): Aligned {
  const key = (l: Label) => `${l.qid}\u0000${l.docid}`;
  const ref = new Map<string, Label>();
  for (const l of reference) ref.set(key(l), l);
  const pairs: LabelPair[] = [];
  let otherOnly = 0;
  const matched = new Set<string>();
  for (const l of other) {
    const k = key(l);
    const r = ref.get(k);
    if (!r) {
      otherOnly++;
      continue;
    }
    matched.add(k);
    pairs.push({ qid: l.qid, docid: l.docid, reference: r.grade, other: l.grade });
  }
  return { pairs, referenceOnly: ref.size - matched.size, otherOnly };
}
