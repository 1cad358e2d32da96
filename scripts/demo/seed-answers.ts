/**
 * The demo's generated answers with people's and the judge's labels (lib/answers/demo.ts):
 *
 *   node --import tsx scripts/demo/seed-answers.ts      (scripts/demo.mjs runs it after the sample labels)
 */
import { seedDemoAnswers } from "../../lib/answers/demo.ts";

if (import.meta.url === `file://${process.argv[1]}`) {
  const { getDb, closeDb } = await import("../../lib/db/client.ts");
  const r = await seedDemoAnswers(await getDb());
  console.log(
    r.skipped
      ? "the demo project already has answers: left as they are"
      : `${r.answers} generated answers of gen-a and gen-b (${r.claims} claims); ${r.labelled} labelled by ann1 and ann2 (${r.adjudicated} adjudicated), ${r.judged} by the answer judge gpt-judge`,
  );
  await closeDb();
}
