import { describe, expect, it } from "vitest";
import { checkSlackTimestamp } from "../../adapters/slack/slack-request-freshness.js";

describe("Slack request timestamps", () => {
  const now = 1_790_000_000;

  it("accepts five minutes either way and refuses past it, in the past and in the future", () => {
    expect(
      [now, now - 300, now + 300, now - 301, now + 301].map((timestamp) => checkSlackTimestamp(String(timestamp), now)),
    ).toEqual(["fresh", "fresh", "fresh", "stale", "future"]);
  });

  it("treats a missing or malformed header as missing", () => {
    expect([undefined, "", "12a", "-5", "1e9"].map((header) => checkSlackTimestamp(header, now))).toEqual([
      "missing",
      "missing",
      "missing",
      "missing",
      "missing",
    ]);
    expect(checkSlackTimestamp([String(now)], now)).toBe("fresh");
  });
});
