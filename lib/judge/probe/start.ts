import "server-only";
/**
 * Probes started from the lead's page: made (or found) as `assessor judge probe` makes them, then
 * each unfinished probe worked in the background of this server (lib/judge/background.ts), as a
 * run started from the page is. The page follows them in the judge runs' list and the card.
 */
import type { Db } from "../../db/client.ts";
import { workInBackground } from "../background.ts";
import { paramsOf } from "../create.ts";
import { checkedClient } from "../endpoint.ts";
import { apiKeyFrom } from "../keys.ts";
import { findRun } from "../store.ts";
import { createProbes } from "./create.ts";
import type { TProbeKind } from "./perturb.ts";

export type TProbeStart = {
  source: { id: number; judge: string };
  pairs: number;
  runs: { kind: TProbeKind; id: number; judge: string; status: string; created: boolean }[];
  skipped: { kind: TProbeKind; reason: string }[];
};

export async function startProbes(
  db: Db,
  projectId: number,
  body: { run: string; sample: number; seed?: number; kinds?: TProbeKind[]; template?: string },
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<TProbeStart> {
  const apiKey = apiKeyFrom(env, (await findRun(db, projectId, body.run)).apiKeyEnv, "page");
  const set = await createProbes(
    db,
    projectId,
    body.run,
    { sample: body.sample, seed: body.seed, kinds: body.kinds, template: body.template, templateFile: "paraphrase" },
    async (source) => {
      await checkedClient(source.baseUrl, apiKey, source.model, paramsOf(source).timeoutMs);
    },
  );
  for (const r of set.runs)
    if (r.run.status !== "completed" && r.run.status !== "cancelled") await workInBackground(db, r.run.id, env);
  return {
    source: { id: set.source.id, judge: set.source.judge },
    pairs: set.pairs,
    runs: set.runs.map((r) => ({
      kind: r.kind,
      id: r.run.id,
      judge: r.run.judge,
      status: r.run.status,
      created: r.created,
    })),
    skipped: set.skipped,
  };
}
