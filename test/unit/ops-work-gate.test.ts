/**
 * Admission for the HTTP server: questions beyond the limit are refused as busy while other requests
 * pass, nothing new is admitted once draining, and `whenIdle` waits for what was admitted; the receive
 * gate holds questionnaire bodies to its limit.
 */
import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { createReceiveGate, createWorkGate, settleWithin } from "../../src/http/work-gate.js";

/** Stands in for a response: the gate only listens for its "close". */
const response = () => new EventEmitter() as unknown as ServerResponse;

describe("work gate", () => {
  it("refuses questions past the limit as busy, and admits again when one closes", () => {
    const gate = createWorkGate({ maxConcurrentQuestions: 2 });
    const first = response();
    expect(gate.admit(first, "question")).toEqual({ admitted: true });
    expect(gate.admit(response(), "question")).toEqual({ admitted: true });
    expect(gate.admit(response(), "question")).toEqual({ admitted: false, reason: "busy" });
    expect(gate.admit(response(), "other")).toEqual({ admitted: true });
    expect([gate.inFlight, gate.questionsInFlight]).toEqual([3, 2]);
    first.emit("close");
    expect(gate.questionsInFlight).toBe(1);
    expect(gate.admit(response(), "question")).toEqual({ admitted: true });
  });

  it("admits nothing while draining and resolves whenIdle when the last admitted request closes", async () => {
    const gate = createWorkGate({ maxConcurrentQuestions: 4 });
    const running = [response(), response()];
    for (const item of running) gate.admit(item, "other");
    gate.startDraining();
    expect(gate.admit(response(), "other")).toEqual({ admitted: false, reason: "draining" });
    let idle = false;
    const waiting = gate.whenIdle().then(() => {
      idle = true;
    });
    running[0]?.emit("close");
    await Promise.resolve();
    expect(idle).toBe(false);
    running[1]?.emit("close");
    await waiting;
    expect(gate.inFlight).toBe(0);
  });

  it("settleWithin says whether the work finished before the limit", async () => {
    expect(await settleWithin([Promise.resolve(1), Promise.reject(new Error("failed, but settled"))], 100)).toBe(true);
    expect(await settleWithin([new Promise(() => {})], 20)).toBe(false);
  });
});

describe("receive gate", () => {
  it("lets `limit` bodies in at once, refuses the next, and frees a place once (leaving twice frees one)", () => {
    const gate = createReceiveGate(2);
    const first = gate.tryEnter();
    const second = gate.tryEnter();
    expect([first === null, second === null, gate.tryEnter()]).toEqual([false, false, null]);
    expect([gate.receiving, gate.limit]).toEqual([2, 2]);
    first?.();
    first?.();
    expect(gate.receiving).toBe(1);
    expect(gate.tryEnter()).not.toBeNull();
    expect(gate.tryEnter()).toBeNull();
  });
});
