import { beforeAll, describe, expect, it } from "vitest";
import { useAgreementProject, type AgreementProject } from "../helpers/agreement-project.ts";
import { runCliOk as cli } from "../helpers/cli.ts";

/**
 * Acceptance: a human label set and a judge label set imported as TREC qrels give, on
 * the dashboard's judge-vs-human panel, exactly the figures `assessor agreement HUMAN JUDGE
 * --format json` prints for the same two files (same bootstrap: 1,000 resamples, seed 1). The
 * reference tool here is the CLI itself: every number of its JSON must be equal, intervals too.
 * The HTTP endpoint serving the same panel is compared in tests/e2e/dashboard-api.test.ts.
 */
const project = useAgreementProject("assessor-dash-agreement-");
let files: AgreementProject["files"];

beforeAll(async () => {
  files = project.files;
});

describe("judge vs human panel equals `assessor agreement`", () => {
  it("every figure, with the same bootstrap intervals", async () => {
    const expected: unknown = JSON.parse(
      cli(["agreement", files.human, files.judge, "--format", "json", "--bootstrap", "1000", "--seed", "1"]),
    );
    const { getDb } = await import("../../lib/db/client.ts");
    const { getAgreement } = await import("../../lib/dashboard/panels.ts");
    const db = await getDb();
    const project = await db.project.findUniqueOrThrow({ where: { name: "agree" } });
    const panel = await getAgreement(db, project.id, { source: "human", gain: "exponential" });
    expect(panel.judges.map((j) => j.name)).toEqual(["llm-a"]);
    // JSON round trip: the endpoint sends exactly this (undefined fields dropped, numbers as JSON).
    const actual: unknown = JSON.parse(JSON.stringify(panel.judges[0].report));
    expect(actual).toEqual(expected);
    // Not a vacuous comparison: the files align 237 pairs with one unmatched on the human side and
    // two on the judge side (see tests/fixtures/dashboard/agreement-files.ts), and intervals exist.
    expect(actual).toMatchObject({ n: 237, unmatched: { reference_only: 2, other_only: 1 } });
    expect((actual as { ci: { bootstrap: { resamples: number } } }).ci.bootstrap.resamples).toBe(1000);
  });
});
