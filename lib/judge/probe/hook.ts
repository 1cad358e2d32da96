/**
 * The runner's hook for probe runs (lib/judge/kinds.ts chunkKind): given a run's params, the
 * change to make to each pair's view before its prompt is rendered; null for an ordinary run, whose
 * prompts are built exactly as before. Padding's transcript is read per claimed batch (the fillers'
 * chunk texts, kept once read), like the pair views themselves.
 */
import type { Db } from "../../db/client.ts";
import type { TPairView } from "../template.ts";
import { perturbView } from "./perturb.ts";
import type { TProbeSpec } from "./spec.ts";

type TPairRef = { queryId: number; chunkId: number };
export type TPerturber = (pairs: readonly TPairRef[]) => Promise<(view: TPairView, pair: TPairRef) => TPairView>;

export function probePerturber(db: Db, probe: TProbeSpec | undefined): TPerturber | null {
  if (!probe) return null;
  const texts = new Map<number, string>();
  const fillers = probe.fillers ?? {};
  return async (pairs) => {
    if (probe.kind === "padding") {
      const wanted = [
        ...new Set(pairs.map((p) => fillers[`${p.queryId}:${p.chunkId}`]).filter((id) => id !== undefined)),
      ].filter((id) => !texts.has(id));
      for (let i = 0; i < wanted.length; i += 5000)
        for (const c of await db.chunk.findMany({
          where: { id: { in: wanted.slice(i, i + 5000) } },
          select: { id: true, text: true },
        }))
          texts.set(c.id, c.text);
    }
    return (view, p) => {
      const filler = fillers[`${p.queryId}:${p.chunkId}`];
      return perturbView(view, {
        kind: probe.kind,
        seed: probe.seed,
        queryId: p.queryId,
        chunkId: p.chunkId,
        filler: filler === undefined ? undefined : texts.get(filler),
      });
    };
  };
}
