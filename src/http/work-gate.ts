/**
 * Admission for the HTTP server: counts requests in progress, bounds how many questions are answered
 * at once (more are refused with "busy", so overload is back-pressure rather than failure), and on
 * shutdown turns new work away while what was admitted finishes (`startDraining`, `whenIdle`). A
 * receive gate (`createReceiveGate`) bounds the large bodies held in memory at once — questionnaire
 * files, from the first byte received until the file is read.
 */
import type { ServerResponse } from "node:http";
import { FolioError } from "../errors.js";

export type Admission = { admitted: true } | { admitted: false; reason: "busy" | "draining" };

export type WorkGate = {
  /** Admits one request until its response closes; refuses every new one while draining. */
  admit(response: ServerResponse, kind: "question" | "other"): Admission;
  startDraining(): void;
  readonly draining: boolean;
  /** Requests admitted and not yet finished (questions included). */
  readonly inFlight: number;
  readonly questionsInFlight: number;
  readonly maxConcurrentQuestions: number;
  /** Resolves once nothing admitted is still running (at once when idle). */
  whenIdle(): Promise<void>;
};

export function createWorkGate(options: { maxConcurrentQuestions: number }): WorkGate {
  let draining = false;
  let inFlight = 0;
  let questionsInFlight = 0;
  let idleWaiters: Array<() => void> = [];

  const finishOne = (kind: "question" | "other") => {
    inFlight -= 1;
    if (kind === "question") questionsInFlight -= 1;
    if (inFlight === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  };

  return {
    admit(response, kind) {
      if (draining) return { admitted: false, reason: "draining" };
      if (kind === "question" && questionsInFlight >= options.maxConcurrentQuestions) {
        return { admitted: false, reason: "busy" };
      }
      inFlight += 1;
      if (kind === "question") questionsInFlight += 1;
      // "close" fires once, whether the response finished or the client went away.
      response.once("close", () => finishOne(kind));
      return { admitted: true };
    },
    startDraining() {
      draining = true;
    },
    get draining() {
      return draining;
    },
    get inFlight() {
      return inFlight;
    },
    get questionsInFlight() {
      return questionsInFlight;
    },
    get maxConcurrentQuestions() {
      return options.maxConcurrentQuestions;
    },
    whenIdle() {
      if (inFlight === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
}

/** Seconds a refused client should wait: a busy server frees up within an answer or two; a draining one is going away. */
const RETRY_AFTER_SECONDS = { busy: 2, draining: 5 } as const;

/** The refusal body and headers: 429 while busy, 503 while shutting down, both with Retry-After. */
export function sendRefusal(response: ServerResponse, reason: "busy" | "draining", gate: WorkGate): void {
  const body =
    reason === "busy"
      ? {
          error: {
            code: "busy",
            message: `Folio is answering ${gate.questionsInFlight} questions, its limit; ask again in a few seconds.`,
          },
        }
      : {
          error: { code: "shutting_down", message: "This Folio server is shutting down; try again in a few seconds." },
        };
  const text = JSON.stringify(body);
  response.writeHead(reason === "busy" ? 429 : 503, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
    "Retry-After": String(RETRY_AFTER_SECONDS[reason]),
    ...(reason === "draining" ? { Connection: "close" } : {}),
  });
  response.end(text);
}

/** Waits for every piece of work, or until `limitMs` passes; true when everything finished in time. */
export async function settleWithin(work: Array<Promise<unknown>>, limitMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), limitMs);
  });
  try {
    return await Promise.race([Promise.allSettled(work).then(() => true as const), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** Bodies being received and read now, out of `limit`; `tryEnter` gives the function that ends one, or null when full. */
export type ReceiveGate = {
  tryEnter(): (() => void) | null;
  readonly receiving: number;
  readonly limit: number;
};

/** The default of FOLIO_QUESTIONNAIRE_MAX_RECEIVING, as uploads' own cap (console-api.ts). */
export const DEFAULT_MAX_RECEIVING = 4;

export function createReceiveGate(limit: number = DEFAULT_MAX_RECEIVING): ReceiveGate {
  let receiving = 0;
  return {
    tryEnter() {
      if (receiving >= limit) return null;
      receiving += 1;
      let left = false;
      return () => {
        if (left) return;
        left = true;
        receiving -= 1;
      };
    },
    get receiving() {
      return receiving;
    },
    get limit() {
      return limit;
    },
  };
}

/** The refusal when the receive gate is full (429, retry in a few seconds); `Connection: close` stops the unread body. */
export function refuseReceiving(response: ServerResponse, gate: ReceiveGate): FolioError {
  response.setHeader("Connection", "close");
  response.setHeader("Retry-After", "5");
  return new FolioError(
    "questionnaire_busy",
    `Folio is receiving ${gate.limit} questionnaire file${gate.limit === 1 ? "" : "s"} already — try again in a few seconds.`,
    { retryable: true, details: { status: 429 } },
  );
}
