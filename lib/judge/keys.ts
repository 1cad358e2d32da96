/**
 * Which environment variable's value the judge may send to a model endpoint as its API key.
 *
 * The lead names a variable (never the key itself), and its value goes as the bearer token to the
 * base URL the lead typed. So the name must be one that holds a model key, never one of the
 * server's own secrets. The rule, in this order:
 *
 * 1. Never (the operator's list cannot allow them): Assessor's and its database's settings —
 *    `NEXTAUTH_*`, `AUTH_*`, `DATABASE_*`, `*DATABASE_URL`, `PG*` (libpq's PGPASSWORD and the like),
 *    and `ASSESSOR_JUDGE_KEY_VARS` itself.
 * 2. Allowed: the names the operator lists in `ASSESSOR_JUDGE_KEY_VARS` (comma-separated; the only
 *    way to allow an `ASSESSOR_*` name or any other name outside the patterns).
 * 3. Other `ASSESSOR_*` names: refused, even when they end in `_API_KEY` (they are the app's settings).
 * 4. Allowed: names ending in `_API_KEY`, or starting with `OPENAI_`.
 * 5. Anything else: refused.
 *
 * Names are compared case-insensitively for the refusals (an environment may hold `nextauth_secret`
 * too). An empty name means "no key": nothing is read and no Authorization header is sent (a local
 * server such as Ollama, vLLM or llama.cpp without keys).
 */
import { AppError } from "../errors.ts";
import { field, inWords, type Surface } from "../terms.ts";

export type TSurface = Surface;
type TEnv = Readonly<Record<string, string | undefined>>;

export const KEY_VARS_SETTING = "ASSESSOR_JUDGE_KEY_VARS";
const RESERVED = [/^NEXTAUTH_/, /^AUTH_/, /^DATABASE_/, /DATABASE_URL$/, /^PG/, new RegExp(`^${KEY_VARS_SETTING}$`)];

/** The operator's list of allowed names (ASSESSOR_JUDGE_KEY_VARS, comma-separated). */
export function operatorKeyVars(env: TEnv): Set<string> {
  return new Set(
    (env[KEY_VARS_SETTING] ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

/** How the page and the CLI name the key setting in their messages (lib/terms.ts). */
const words = (surface: TSurface) => ({
  setting: inWords([field("apiKeyEnv", "NAME")], surface),
  noKey: inWords([field("noApiKey")], surface),
});

/** Why a variable's name may not be used as the judge's key variable, or null when it may. */
export function keyVarProblem(name: string, env: TEnv, surface: TSurface = "cli"): string | null {
  if (name === "") return null;
  const upper = name.toUpperCase();
  const w = words(surface);
  const rule = `the judge sends only a variable whose name ends in _API_KEY or starts with OPENAI_, or one the server's operator lists in ${KEY_VARS_SETTING} (comma-separated)`;
  if (RESERVED.some((re) => re.test(upper)) || (upper.startsWith("ASSESSOR_") && !operatorKeyVars(env).has(name))) {
    return `the API key variable ${name} is one of the server's own settings (NEXTAUTH_*, AUTH_*, DATABASE_*, PG*, ASSESSOR_*): its value is never sent to a model endpoint. Name the variable that holds the endpoint's key in ${w.setting} (${rule}), or use ${w.noKey} for a server without keys.`;
  }
  if (operatorKeyVars(env).has(name) || upper.endsWith("_API_KEY") || upper.startsWith("OPENAI_")) return null;
  return `the API key variable ${name} is not allowed: ${rule}. Name another variable in ${w.setting}, ask the operator to list this one, or use ${w.noKey} for a server without keys.`;
}

/** The API key from the variable the settings name ("" for no key); a clear error when the name is not allowed or the variable is unset. */
export function apiKeyFrom(env: TEnv, varName: string, surface: TSurface = "cli"): string {
  const problem = keyVarProblem(varName, env, surface);
  if (problem) throw new AppError("bad_input", problem, { field: "apiKeyEnv" });
  if (varName === "") return "";
  const key = env[varName];
  if (key === undefined || key === "") {
    throw new AppError(
      "bad_input",
      `the API key variable ${varName} is not set on the ${surface === "cli" ? "machine running this command" : "server"}. Set it in the environment, name another variable in ${words(surface).setting}, or use ${words(surface).noKey} for a server without keys (Ollama, vLLM, llama.cpp).`,
      { field: "apiKeyEnv" },
    );
  }
  return key;
}
