import { describe, expect, it } from "vitest";
import { clientAddress, trustedProxyHops, untrustedForwardingWarning } from "../../lib/auth/address.ts";
import { readClaims, sessionEndsAt, sessionLifetime } from "../../lib/auth/lifetime.ts";

const env = (vars: Record<string, string>): NodeJS.ProcessEnv => ({ NODE_ENV: "test", ...vars });

/** The client address of a sign-in attempt (lib/auth/address.ts) and the session limits (lib/auth/lifetime.ts). */
describe("clientAddress", () => {
  const direct = env({});
  const behindOne = env({ ASSESSOR_TRUSTED_PROXY_HOPS: "1" });
  const behindTwo = env({ ASSESSOR_TRUSTED_PROXY_HOPS: "2" });

  it("without a trusted proxy: the socket's address written by lib/auth/peer.ts; X-Forwarded-For is ignored", () => {
    expect(clientAddress({ "x-assessor-peer": "::ffff:10.0.0.1", "x-forwarded-for": "1.2.3.4" }, direct)).toBe(
      "10.0.0.1",
    );
    expect(clientAddress(new Headers({ "x-assessor-peer": "2001:DB8::1" }), direct)).toBe("2001:db8::1");
    // No peer header (a server started without instrumentation.ts): one shared address.
    expect(clientAddress({ "x-forwarded-for": "1.2.3.4" }, direct)).toBe("unknown");
  });

  it("behind N trusted proxies: the N-th address from the right of X-Forwarded-For", () => {
    const xff = { "x-forwarded-for": "6.6.6.6, 203.0.113.7, 10.0.0.2", "x-assessor-peer": "10.0.0.3" };
    // The client wrote 6.6.6.6; proxy 1 appended 203.0.113.7 (the client it saw), proxy 2 appended 10.0.0.2.
    expect(clientAddress(xff, behindOne)).toBe("10.0.0.2");
    expect(clientAddress(xff, behindTwo)).toBe("203.0.113.7");
    expect(clientAddress({ "x-forwarded-for": "203.0.113.7" }, behindTwo)).toBe("203.0.113.7");
    expect(clientAddress({}, behindOne)).toBe("unknown");
  });

  it("refuses a malformed setting with a clear message", () => {
    expect(() => trustedProxyHops(env({ ASSESSOR_TRUSTED_PROXY_HOPS: "yes" }))).toThrow(
      'ASSESSOR_TRUSTED_PROXY_HOPS must be a whole number of proxies from 0 to 10, not "yes"',
    );
    expect(() => trustedProxyHops(env({ ASSESSOR_TRUSTED_PROXY_HOPS: "-1" }))).toThrow(/whole number/);
    expect(trustedProxyHops(env({ ASSESSOR_TRUSTED_PROXY_HOPS: " 0 " }))).toBe(0);
  });
});

describe("untrustedForwardingWarning", () => {
  it("names the forwarding headers a server without a trusted proxy receives, at most once an hour", () => {
    const t = 1_000_000_000;
    expect(
      untrustedForwardingWarning({ "x-forwarded-for": "10.0.0.1" }, env({ ASSESSOR_TRUSTED_PROXY_HOPS: "1" }), t),
    ).toBeNull();
    expect(untrustedForwardingWarning({ "x-assessor-peer": "10.0.0.1" }, env({}), t)).toBeNull();
    const line = untrustedForwardingWarning(
      new Headers({ "X-Forwarded-For": "10.0.0.1", Forwarded: "for=10.0.0.1" }),
      env({}),
      t,
    );
    expect(line).toMatch(/^\[auth\] requests carry x-forwarded-for, forwarded but ASSESSOR_TRUSTED_PROXY_HOPS is 0/);
    expect(line).toContain("set ASSESSOR_TRUSTED_PROXY_HOPS to the number of proxies");
    expect(untrustedForwardingWarning({ "x-real-ip": "10.0.0.1" }, env({}), t + 59 * 60_000)).toBeNull();
    expect(untrustedForwardingWarning({ "x-real-ip": "10.0.0.1" }, env({}), t + 60 * 60_000)).toMatch(
      /carry x-real-ip but/,
    );
  });

  it("cuts a client-written address to 64 characters (it is part of the throttle's keys)", () => {
    expect(clientAddress({ "x-forwarded-for": "a".repeat(5000) }, env({ ASSESSOR_TRUSTED_PROXY_HOPS: "1" }))).toBe(
      "a".repeat(64),
    );
  });
});

describe("sessionLifetime", () => {
  it("defaults: 12 h absolute, 120 min idle, renewed every 5 min", () => {
    expect(sessionLifetime(env({}))).toEqual({ maxSeconds: 43_200, idleSeconds: 7_200, renewAfterSeconds: 300 });
  });
  it("decimals; the idle limit never exceeds the absolute one; renewal at a quarter of a short idle limit", () => {
    expect(sessionLifetime(env({ ASSESSOR_SESSION_MAX_HOURS: "0.5", ASSESSOR_SESSION_IDLE_MINUTES: "600" }))).toEqual({
      maxSeconds: 1800,
      idleSeconds: 1800,
      renewAfterSeconds: 300,
    });
    expect(sessionLifetime(env({ ASSESSOR_SESSION_IDLE_MINUTES: "0.1" }))).toEqual({
      maxSeconds: 43_200,
      idleSeconds: 6,
      renewAfterSeconds: 1.5,
    });
  });
  it("refuses a value that is not a positive number", () => {
    expect(() => sessionLifetime(env({ ASSESSOR_SESSION_MAX_HOURS: "0" }))).toThrow(
      'ASSESSOR_SESSION_MAX_HOURS must be a positive number, not "0"',
    );
    expect(() => sessionLifetime(env({ ASSESSOR_SESSION_IDLE_MINUTES: "two hours" }))).toThrow(
      /ASSESSOR_SESSION_IDLE_MINUTES must be a positive number/,
    );
  });
  it("a token ends at its idle expiry or at sign-in + the absolute limit, whichever is first", () => {
    const lifetime = sessionLifetime(env({}));
    expect(sessionEndsAt({ sat: 1000, exp: 2000 }, lifetime)).toBe(2_000_000);
    expect(sessionEndsAt({ sat: 1000, exp: 1000 + 50_000 }, lifetime)).toBe((1000 + 43_200) * 1000);
  });
  it("reads only well-formed claims", () => {
    expect(readClaims({ uid: "u1", sv: 2, sat: 10, iat: 11, exp: 12 })).toEqual({
      uid: "u1",
      sv: 2,
      sat: 10,
      iat: 11,
      exp: 12,
    });
    expect(readClaims({ uid: "u1", sat: 10, iat: 11, exp: 12 })).toBeNull(); // a token from before session versions
    expect(readClaims({ uid: "", sv: 0, sat: 10, iat: 11, exp: 12 })).toBeNull();
    expect(readClaims(null)).toBeNull();
  });
});
