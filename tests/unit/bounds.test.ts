import { describe, expect, it } from "vitest";
import { INT32_MAX, jsonTooDeep, MAX_JSON_DEPTH, nulPath, zInt32 } from "../../lib/bounds.ts";
import { decodablePath } from "../../lib/http/url.ts";
import { SIGN_IN_ERRORS, GENERIC_SIGN_IN_ERROR, signInErrorMessage } from "../../lib/auth/messages.ts";

/** The shared input bounds (lib/bounds.ts) and what the second outside security test added to them. */
const nest = (n: number, open: string, close: string, inner = "1") =>
  JSON.parse(open.repeat(n) + inner + close.repeat(n)) as unknown;

describe("nulPath", () => {
  it("names the first string with a NUL, keys included, in document order", () => {
    expect(nulPath({ a: "ok", b: ["x", "y\u0000"], c: "z\u0000" })).toBe("b.1");
    expect(nulPath({ "k\u0000": 1 })).toBe("k\\u0000");
    expect(nulPath("a\u0000")).toBe("(body)");
    expect(nulPath({ a: [{ b: "c" }] })).toBeNull();
  });

  it("walks 20,000 levels without overflowing the stack (it recursed before)", () => {
    expect(nulPath(nest(20_000, "[", "]", '"\\u0000"'))).toBe(Array(20_000).fill("0").join("."));
    expect(nulPath(nest(20_000, '{"a":', "}"))).toBeNull();
  });
});

describe("jsonTooDeep", () => {
  it("counts arrays and objects; MAX_JSON_DEPTH levels pass, one more does not", () => {
    expect(jsonTooDeep(nest(MAX_JSON_DEPTH, "[", "]"))).toBe(false);
    expect(jsonTooDeep(nest(MAX_JSON_DEPTH + 1, "[", "]"))).toBe(true);
    expect(jsonTooDeep(nest(MAX_JSON_DEPTH + 1, '{"a":', "}"))).toBe(true);
    expect(jsonTooDeep(nest(10_000, '{"a":', "}"))).toBe(true);
    expect(jsonTooDeep({ a: [1, 2, { b: "c" }], d: null })).toBe(false);
    expect(jsonTooDeep("text")).toBe(false);
  });
});

describe("zInt32", () => {
  it("whole numbers from min to 2^31 − 1", () => {
    const z = zInt32(1, "v: expected a whole number ≥ 1");
    expect(z.safeParse(INT32_MAX).success).toBe(true);
    for (const bad of [INT32_MAX + 1, Number.MAX_SAFE_INTEGER, 0, 1.5]) expect(z.safeParse(bad).success).toBe(false);
    expect(z.safeParse(2 ** 31).error?.issues[0].message).toBe(`expected at most ${INT32_MAX}`);
    expect(z.safeParse(0).error?.issues[0].message).toBe("v: expected a whole number ≥ 1");
  });
});

describe("decodablePath", () => {
  it("leaves a decodable target alone, query included", () => {
    for (const t of ["/api/media/12", "/lead/projects/3?tab=%FF", "/a%20b/c%2Fd", "/", "*"])
      expect(decodablePath(t)).toBe(t);
  });

  it("makes an undecodable segment literal, so that it decodes to its own text", () => {
    expect(decodablePath("/api/annotate/items/%FF")).toBe("/api/annotate/items/%25FF");
    expect(decodablePath("/api/dashboard/%ED%A0%80/systems?x=%FF")).toBe(
      "/api/dashboard/%25ED%25A0%2580/systems?x=%FF",
    );
    expect(decodablePath("/a%20b/%E0%A4%A/%")).toBe("/a%20b/%25E0%25A4%25A/%25");
    expect(decodeURIComponent(decodablePath("/x/%FF"))).toBe("/x/%FF");
  });
});

describe("signInErrorMessage", () => {
  it("shows the table's message for a code, the wait for Locked, and never the parameter's own text", () => {
    expect(signInErrorMessage("CredentialsSignin")).toBe(SIGN_IN_ERRORS.CredentialsSignin);
    expect(signInErrorMessage("Locked", 128)).toBe("Too many failed sign-in attempts. Try again in 3 minutes.");
    expect(signInErrorMessage("Locked", 1)).toBe("Too many failed sign-in attempts. Try again in 1 second.");
    expect(signInErrorMessage("Locked")).toBe(SIGN_IN_ERRORS.Locked);
    for (const text of [
      "Your password expired. Sign in at https://evil.example instead",
      "constructor",
      "__proto__",
      "toString",
    ])
      expect(signInErrorMessage(text)).toBe(GENERIC_SIGN_IN_ERROR);
    expect(signInErrorMessage(null)).toBeNull();
    expect(signInErrorMessage("")).toBeNull();
  });
});
