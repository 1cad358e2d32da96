import { describe, expect, it } from "vitest";
import { apiKeyFrom, keyVarProblem } from "../../lib/judge/keys.ts";

/** lib/judge/keys.ts: which environment variables the judge may send as its API key. */
const env = {
  OPENAI_API_KEY: "sk-a",
  GROQ_API_KEY: "gsk-b",
  NEXTAUTH_SECRET: "s3cret",
  DATABASE_URL: "postgresql://u:p@h/db",
  MY_TOKEN: "t",
  ASSESSOR_JUDGE_KEY_VARS: "MY_TOKEN, ASSESSOR_LLM_KEY,NEXTAUTH_SECRET",
  ASSESSOR_LLM_KEY: "k",
  ASSESSOR_OTHER_API_KEY: "x",
};

describe("keyVarProblem", () => {
  it.each(["OPENAI_API_KEY", "GROQ_API_KEY", "OPENAI_KEY", "MY_TOKEN", "ASSESSOR_LLM_KEY", "together_api_key", ""])(
    "allows %s",
    (name) => expect(keyVarProblem(name, env)).toBeNull(),
  );

  it.each([
    ["NEXTAUTH_SECRET", /one of the server's own settings/],
    ["NEXTAUTH_URL", /own settings/],
    ["nextauth_secret", /own settings/],
    ["DATABASE_URL", /own settings/],
    ["TEST_DATABASE_URL", /own settings/],
    ["DATABASE_API_KEY", /own settings/],
    ["PGPASSWORD", /own settings/],
    ["AUTH_SECRET", /own settings/],
    ["ASSESSOR_OTHER_API_KEY", /own settings/],
    ["ASSESSOR_JUDGE_KEY_VARS", /own settings/],
    ["HOME", /is not allowed: the judge sends only a variable whose name ends in _API_KEY or starts with OPENAI_/],
    ["AWS_SECRET_ACCESS_KEY", /is not allowed/],
  ])("refuses %s", (name, message) => expect(keyVarProblem(name, env)).toMatch(message));

  it("the operator's list cannot allow the server's own secrets", () => {
    expect(env.ASSESSOR_JUDGE_KEY_VARS).toContain("NEXTAUTH_SECRET");
    expect(keyVarProblem("NEXTAUTH_SECRET", env)).toMatch(/own settings/);
  });

  it("speaks the CLI's terms on the command line and the page's on the page", () => {
    expect(keyVarProblem("HOME", env, "cli")).toMatch(/--api-key-env NAME.*--no-api-key/);
    const page = keyVarProblem("HOME", env, "page") ?? "";
    expect(page).toMatch(/the “no key” choice/);
    expect(page).not.toMatch(/--/);
    expect(keyVarProblem("NEXTAUTH_SECRET", env, "page")).toMatch(/in the “API key variable” field/);
  });
});

describe("apiKeyFrom", () => {
  it("reads an allowed variable, and nothing for no key", () => {
    expect(apiKeyFrom(env, "GROQ_API_KEY")).toBe("gsk-b");
    expect(apiKeyFrom(env, "")).toBe("");
  });
  it("refuses before reading: the message never holds the value", () => {
    expect(() => apiKeyFrom(env, "NEXTAUTH_SECRET", "page")).toThrow(/own settings/);
    try {
      apiKeyFrom(env, "DATABASE_URL");
    } catch (e) {
      expect(String(e)).not.toContain("postgresql://");
    }
  });
  it("an unset allowed variable: a clear error in each surface's terms", () => {
    expect(() => apiKeyFrom(env, "MISTRAL_API_KEY")).toThrow(
      /MISTRAL_API_KEY is not set on the machine running this command.*--api-key-env NAME/,
    );
    expect(() => apiKeyFrom(env, "MISTRAL_API_KEY", "page")).toThrow(
      /is not set on the server.*“API key variable” field/,
    );
  });
});
