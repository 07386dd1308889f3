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
    const hosts = { publicHost: "folio.corp", allowedHosts: [] };
    expect(
      consoleRefusal("open", { ...fromThisMachine, remoteAddress: "10.1.2.3", host: "folio.corp" }, hosts),
    ).toBeNull();
    expect(consoleRefusal("off", fromThisMachine)).toMatchObject({ status: 404, code: "console_off" });
  });

  describe("open mode against DNS rebinding", () => {
    const hosts = { publicHost: "folio.corp.example", allowedHosts: ["folio", "kb.corp.example"] };
    const fromLan = { ...fromThisMachine, remoteAddress: "10.1.2.3" };

    it.each([
      "localhost:3000",
      "127.0.0.1:3000",
      "[::1]:3000",
      "folio.localhost:3000",
      "192.168.1.10:3000",
      "[fd00::5]:3000",
      "folio.corp.example",
      "FOLIO.corp.example.:443",
      "folio:3000",
      "kb.corp.example",
    ])("answers to Host %s", (host) => {
      expect(consoleRefusal("open", { ...fromLan, host }, hosts)).toBeNull();
    });

    it.each([
      "attacker.example:3000",
      "127.0.0.1.attacker.example",
      "folio.corp.example.attacker.example",
      "",
      undefined,
    ])("refuses Host %s, whatever address the request comes from", (host) => {
      for (const remoteAddress of ["127.0.0.1", "10.1.2.3"]) {
        expect(consoleRefusal("open", { ...fromLan, remoteAddress, host }, hosts)).toEqual({
          status: 403,
          code: "console_host_not_allowed",
          message:
            "The web console does not answer to this host name (a page that points its own name at Folio cannot use it) — open it by FOLIO_PUBLIC_URL, an IP address or localhost, or add the name to FOLIO_CONSOLE_ALLOWED_HOSTS.",
        });
      }
    });

    it("checks a browser's Origin on every call that changes something, in every mode", () => {
      const post = { ...fromThisMachine, method: "POST", hasConsoleHeader: true };
      for (const access of ["local", "open"] as const) {
        expect(consoleRefusal(access, { ...post, origin: "http://localhost:3000" }, hosts)).toBeNull();
        expect(consoleRefusal(access, { ...post, origin: "http://attacker.example" }, hosts)?.code).toBe(
          "console_origin_mismatch",
        );
        expect(consoleRefusal(access, { ...post, origin: "http://localhost:4000" }, hosts)?.code).toBe(
          "console_origin_mismatch",
        );
        expect(consoleRefusal(access, { ...post, origin: "null" }, hosts)?.code).toBe("console_origin_mismatch");
        expect(
          consoleRefusal(access, { ...post, method: "DELETE", origin: "http://attacker.example" }, hosts)?.code,
        ).toBe("console_origin_mismatch");
      }
      // A GET reads nothing a page could take: its answer is not readable cross-origin.
      expect(consoleRefusal("open", { ...fromThisMachine, origin: "http://attacker.example" }, hosts)).toBeNull();
    });
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
