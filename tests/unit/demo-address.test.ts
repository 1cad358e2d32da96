import { describe, expect, it } from "vitest";
import { demoAddress } from "../../scripts/demo/address.mjs";

/** `npm run demo` prints its passwords: it listens on this machine only unless DEMO_HOST says otherwise. */
describe("where the demo serves", () => {
  it("binds 127.0.0.1 by default (next start -H 127.0.0.1), not every interface", () => {
    expect(demoAddress({})).toEqual({
      host: "127.0.0.1",
      port: 3000,
      url: "http://127.0.0.1:3000",
      everyInterface: false,
      nextArgs: ["start", "-H", "127.0.0.1", "-p", "3000"],
    });
  });
  it("DEMO_HOST and DEMO_PORT choose the interface and the port", () => {
    expect(demoAddress({ DEMO_HOST: "0.0.0.0", DEMO_PORT: "3301" })).toMatchObject({
      host: "0.0.0.0",
      port: 3301,
      url: "http://127.0.0.1:3301",
      everyInterface: true,
      nextArgs: ["start", "-H", "0.0.0.0", "-p", "3301"],
    });
    expect(demoAddress({ DEMO_HOST: "::1" }).url).toBe("http://[::1]:3000");
  });
});
