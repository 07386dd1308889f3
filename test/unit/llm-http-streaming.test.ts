import { describe, expect, it } from "vitest";
import { backoffDelay, parseRetryAfter } from "../../src/llm/retry-delay.js";
import { readServerSentEvents } from "../../src/llm/server-sent-events.js";

async function eventsOf(parts: string[]): Promise<string[]> {
  const encoder = new TextEncoder();
  async function* body() {
    for (const part of parts) yield encoder.encode(part);
  }
  const events: string[] = [];
  for await (const data of readServerSentEvents(body())) events.push(data);
  return events;
}

describe("readServerSentEvents", () => {
  it("yields each event's data across arbitrary byte splits, CRLF and comments", async () => {
    expect(
      await eventsOf([
        ": keep-alive\r\n\r\nda",
        'ta: {"a":1}\r',
        "\n\r\ndata: first\ndata:second\nevent: ignored\n\n",
        "data: [DONE]\n\n",
      ]),
    ).toEqual(['{"a":1}', "first\nsecond", "[DONE]"]);
  });

  it("keeps complete data lines at the end without a blank line but drops an unterminated one", async () => {
    expect(await eventsOf(["data: one\n\ndata: [DONE]\n"])).toEqual(["one", "[DONE]"]);
    expect(await eventsOf(['data: one\n\ndata: {"cho'])).toEqual(["one"]);
  });

  it("decodes a multi-byte character split between chunks", async () => {
    const bytes = new TextEncoder().encode("data: café\n\n");
    async function* body() {
      yield bytes.slice(0, 10);
      yield bytes.slice(10);
    }
    const events: string[] = [];
    for await (const data of readServerSentEvents(body())) events.push(data);
    expect(events).toEqual(["café"]);
  });
});

describe("retry delays", () => {
  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("2", now)).toBe(2000);
    expect(parseRetryAfter("0.5", now)).toBe(500);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:03 GMT", now)).toBe(3000);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });

  it("doubles the backoff per retry up to the cap, jittered within its upper half", () => {
    const options = { baseMs: 100, maxMs: 300 };
    expect(backoffDelay(1, { ...options, random: () => 0 })).toBe(50);
    expect(backoffDelay(1, { ...options, random: () => 1 })).toBe(100);
    expect(backoffDelay(2, { ...options, random: () => 0.5 })).toBe(150);
    expect(backoffDelay(5, { ...options, random: () => 1 })).toBe(300);
  });
});
