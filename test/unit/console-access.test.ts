import { describe, expect, it } from "vitest";
import { cameThroughProxy, consoleRefusal, isLoopbackAddress } from "../../src/http/console-access.js";

const fromThisMachine = {
  method: "GET",
  remoteAddress: "127.0.0.1",
  host: "localhost:3000",
  hasConsoleHeader: false,
  viaProxy: false,
};

describe("console access", () => {
  it("recognises loopback addresses, IPv4-mapped ones included", () => {
    expect(["127.0.0.1", "127.0.1.1", "::1", "::ffff:127.0.0.1"].map(isLoopbackAddress)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(["10.0.0.5", "::ffff:192.168.1.4", "fe80::1", undefined].map(isLoopbackAddress)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it("serves this machine by default, under a loopback host name", () => {
    expect(consoleRefusal("local", fromThisMachine)).toBeNull();
    expect(consoleRefusal("local", { ...fromThisMachine, host: "127.0.0.1:3000" })).toBeNull();
    expect(consoleRefusal("local", { ...fromThisMachine, remoteAddress: "::1", host: "[::1]:3000" })).toBeNull();
  });

  it("refuses other machines, and a page that rebinds its own host name to 127.0.0.1", () => {
    expect(consoleRefusal("local", { ...fromThisMachine, remoteAddress: "10.1.2.3" })?.code).toBe("console_local_only");
    expect(consoleRefusal("local", { ...fromThisMachine, host: "attacker.example:3000" })?.code).toBe(
      "console_local_only",
    );
  });

  it("refuses requests relayed by a proxy on this machine", () => {
    expect(consoleRefusal("local", { ...fromThisMachine, host: "127.0.0.1:3000", viaProxy: true })?.code).toBe(
      "console_local_only",
    );
    expect(cameThroughProxy({ "x-forwarded-for": "203.0.113.9" })).toBe(true);
    expect(cameThroughProxy({ forwarded: "for=203.0.113.9" })).toBe(true);
    expect(cameThroughProxy({ host: "localhost:3000" })).toBe(false);
  });

  it("serves everyone when open, and nobody when off", () => {
    expect(consoleRefusal("open", { ...fromThisMachine, remoteAddress: "10.1.2.3", host: "folio.corp" })).toBeNull();
    expect(consoleRefusal("off", fromThisMachine)).toMatchObject({ status: 404, code: "console_off" });
  });

  it("requires the console header on calls that change something, whatever the access mode", () => {
    for (const access of ["local", "open"] as const) {
      expect(consoleRefusal(access, { ...fromThisMachine, method: "POST" })).toMatchObject({
        status: 403,
        code: "console_header_missing",
      });
      expect(consoleRefusal(access, { ...fromThisMachine, method: "POST", hasConsoleHeader: true })).toBeNull();
    }
  });
});
