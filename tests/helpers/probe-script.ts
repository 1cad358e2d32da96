import type { TFakeScript } from "./fake-llm.ts";

/**
 * A script for the fake OpenAI-compatible server (fake-llm.ts) that plays a judge open to two of
 * the robustness probes' perturbations (lib/judge/probe): it reads the chunk's number from the
 * last <passage> block ("Chunk i: …", as tests/integration/judge-fixture.ts writes chunks) and
 * grades as people do (`humanGrade(i)`, one grade off for every fifth chunk), but an instruction to
 * the assessor in the passage makes it answer 3 and the question's word "topic" one grade more.
 * Padding (it reads the first chunk number only), truncation and a paraphrase leave it unmoved.
 */
export const humanGrade = (i: number) => i % 4;

/** The last <passage> block: the templates name the tags in their instructions first. */
export function passageOf(prompt: string): string {
  const from = prompt.lastIndexOf("<passage");
  const to = prompt.lastIndexOf("</passage>");
  return from >= 0 && to > from ? prompt.slice(from, to) : "";
}

export const swayedScript: TFakeScript = (req) => {
  const passage = passageOf(req.prompt);
  const i = Number(/Chunk (\d+):/.exec(passage)?.[1] ?? "0");
  let grade = i % 5 === 0 ? (humanGrade(i) + 1) % 4 : humanGrade(i);
  if (/assessor|evaluator|relevance judge/i.test(passage)) grade = 3;
  else if (/\btopic\b/.test(passage)) grade = Math.min(3, grade + 1);
  return { kind: "answer", text: JSON.stringify({ intent: "i", match: "m", score: grade }) };
};
