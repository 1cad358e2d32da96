/**
 * What a probe run stores of itself (JudgeRun.params.probe) and how its judge is named: the
 * perturbation, the seed it was drawn with, the run it re-asks, and, for padding, which chunk's
 * transcript pads each pair. The runner (lib/judge/kinds.ts) reads this and nothing else to build a
 * probe's prompts, so a resumed or second worker makes exactly the same prompts.
 */
import { AppError } from "../../errors.ts";
import { PROBE_KINDS, type TProbeKind } from "./perturb.ts";

export type TProbeSpec = {
  kind: TProbeKind;
  seed: number;
  /** The run re-asked (its model, endpoint, parameters and, except for paraphrase, template). */
  sourceRunId: number;
  sourceJudge: string;
  /** The number of pairs asked for (the sample may hold fewer when fewer pairs are labelled). */
  sample: number;
  /** padding: the id of the chunk whose transcript pads each pair, keyed `queryId:chunkId`. */
  fillers?: Record<string, number>;
};

export const PROBE_SEPARATOR = "~probe:";

/** The judge name of a run's probe: `<judge>~probe:<kind>`. */
export const probeJudgeName = (sourceJudge: string, kind: TProbeKind): string =>
  `${sourceJudge}${PROBE_SEPARATOR}${kind}`;

/** The source judge and kind a probe judge's name says, or null for any other judge. */
export function parseProbeJudge(name: string): { source: string; kind: TProbeKind } | null {
  const at = name.lastIndexOf(PROBE_SEPARATOR);
  if (at <= 0) return null;
  const kind = name.slice(at + PROBE_SEPARATOR.length);
  return (PROBE_KINDS as readonly string[]).includes(kind)
    ? { source: name.slice(0, at), kind: kind as TProbeKind }
    : null;
}

/**
 * Where a judge is chosen to compare with people (the dashboard's judge, its Annotators card, its
 * trust-report download, decisions, `annotators report --judge`): a probe is refused, naming the
 * run it probes. A probe grades chunks changed on purpose, on a sample, so its labels say how far
 * the source run can be swayed (the Judge robustness card), not how relevant the pool's pairs are.
 */
export function refuseProbeJudge(name: string): void {
  const probe = parseProbeJudge(name);
  if (!probe) return;
  throw new AppError(
    "bad_input",
    `judge "${name}" is a robustness probe of run "${probe.source}" (its chunks changed on purpose: ${probe.kind}), not a judge to compare with people; its figures are on the Judge robustness card (and in npx assessor judge probe ${probe.source})`,
  );
}
