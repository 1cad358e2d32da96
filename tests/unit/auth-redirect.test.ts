import { describe, expect, it } from "vitest";
import { safeCallback, sameOriginUrl } from "../../lib/auth/redirect.ts";

/**
 * The callback URL after sign-in. Expected values follow the WHATWG URL
 * standard's basic URL parser, which is what a browser applies to `location.assign(value)`:
 * leading/trailing C0 controls and spaces are stripped, TAB/LF/CR removed anywhere, `\` read as
 * `/` in http(s) URLs, and `//host` after the scheme-relative start names another host.
 */
const ORIGIN = "https://assessor.example.org";

describe("safeCallback: leaves the origin → null", () => {
  const offsite = [
    "/\t/evil.example/phish", // the reported case, `/%09/…` once the query string is decoded
    "/\n/evil.example/phish",
    "/\r/evil.example/phish",
    "\t//evil.example",
    " //evil.example",
    "\u0000//evil.example",
    "\u001f/\\evil.example",
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "\\/evil.example",
    "/\t\\evil.example",
    "/.//evil.example", // the path normalises to //evil.example
    "/./\t/evil.example",
    "https://evil.example/",
    "http:evil.example", // another scheme is not relative: http://evil.example/
    "http://assessor.example.org/", // same host, other scheme: another origin
    "https://assessor.example.org:8443/",
    "https://assessor.example.org@evil.example/",
    "https://user:pw@assessor.example.org/", // credentials in the URL
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "",
    "   ",
  ];
  for (const value of offsite) it(JSON.stringify(value), () => expect(safeCallback(value, ORIGIN)).toBeNull());
  it("null and undefined", () => {
    expect(safeCallback(null, ORIGIN)).toBeNull();
    expect(safeCallback(undefined, ORIGIN)).toBeNull();
  });
});

describe("safeCallback: same-origin paths, normalised as the browser would", () => {
  const cases: [string, string][] = [
    ["/lead", "/lead"],
    ["/annotate?item=3#notes", "/annotate?item=3#notes"],
    ["/%09/evil.example/phish", "/%09/evil.example/phish"], // still encoded: a path on this origin
    ["/%2F%2Fevil.example", "/%2F%2Fevil.example"],
    ["/lead\t/users", "/lead/users"],
    ["/a/../lead", "/lead"],
    ["lead", "/lead"],
    ["https://assessor.example.org/dashboard?p=1", "/dashboard?p=1"],
    ["https:evil.example", "/evil.example"], // the origin's own scheme: a path relative to the origin
    ["\\lead", "/lead"],
  ];
  for (const [value, expected] of cases)
    it(`${JSON.stringify(value)} → ${expected}`, () => expect(safeCallback(value, ORIGIN)).toBe(expected));
});

describe("sameOriginUrl", () => {
  it("gives the absolute URL next-auth's redirect callback returns", () => {
    expect(sameOriginUrl("/lead?x=1", ORIGIN)?.href).toBe("https://assessor.example.org/lead?x=1");
    expect(sameOriginUrl("/\t/evil.example", ORIGIN)).toBeNull();
  });
  it("refuses everything when the origin itself is not a URL", () => {
    expect(sameOriginUrl("/lead", "not a url")).toBeNull();
  });
  it("without an origin, a relative path is kept and an absolute URL is refused", () => {
    expect(safeCallback("/lead")).toBe("/lead");
    expect(safeCallback("https://evil.example/")).toBeNull();
    expect(safeCallback("/\t/evil.example")).toBeNull();
  });
});
