import { AppError } from "../errors.ts";

/**
 * The judge's messages in the page's own terms: the domain functions speak of
 * the CLI's options (`--base-url`, `--api-key-env`); on the page those are the form's fields.
 * Messages made for the page already (lib/judge/keys.ts with surface "page") pass unchanged.
 */
const TERMS: [RegExp, string][] = [
  [/--api-key-env(?: NAME)?/g, "the “API key variable” field"],
  [/--no-api-key/g, "the “no key” choice"],
  [/--base-url/g, "the “Base URL” field"],
  [/--model/g, "the “Model” field"],
  [/--judge(?: NAME)?/g, "the “Judge name” field"],
  [/--only/g, "the “Pairs” field"],
  [/--subset/g, "the “Answers” field"],
  [/--samples/g, "the “Samples” field"],
  [/--temperature/g, "the “Temperature” field"],
  [/--concurrency/g, "the “Concurrency” field"],
  [/--limit/g, "the “Limit (pairs)” field"],
  [/--max-cost/g, "the “Max cost” field"],
  [/--price-in/g, "the “Price in” field"],
  [/--price-out/g, "the “Price out” field"],
  [/--template(?:-file)?/g, "the prompt template"],
  [/\(npx assessor pool\)/g, "(Pool on this page)"],
  [/start one with: npx assessor judge run[^;)]*/g, "start one with the form above"],
  [/Ctrl\+C or judge cancel/g, "Cancel on the page"],
  [/ \(Ctrl\+C or stop\)/g, ""],
];

export function inPageTerms(message: string): string {
  return TERMS.reduce((m, [re, words]) => m.replace(re, words), message);
}

/** Runs `fn`; an AppError it throws comes back with its message in the page's terms. */
export async function withPageTerms<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof AppError) throw new AppError(e.code, inPageTerms(e.message), e.details);
    throw e;
  }
}
