/**
 * Questionnaire jobs past the caps wait in line (issue #30): on a real catalog (PGlite), with a scripted
 * pipeline that answers a question only when the test lets it, two jobs run at once (one per space),
 * the rest are queued in order and say how many wait ahead of them ("queued, 1 ahead"), a freed slot goes
 * to the next job its space allows, a queued job can be cancelled without ever being asked, and one left
 * queued by a stopping process stays queued for the next start.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Answer, AnswerContext, AnswerEvent } from "../../src/answer/answer-events.js";
import { silentLogger } from "../../src/logger.js";
import { createInteractivePriority } from "../../src/questionnaire/jobs/interactive-priority.js";
import { createQuestionnaireJobStore } from "../../src/questionnaire/jobs/questionnaire-job-store.js";
import { describeProgress, type QuestionnaireProgress } from "../../src/questionnaire/jobs/questionnaire-progress.js";
import {
  createQuestionnaireService,
  DEFAULT_QUESTIONNAIRE_SETTINGS,
  type QuestionnaireService,
} from "../../src/questionnaire/questionnaire-service.js";
import { migrateDatabase } from "../../src/stores/migrations.js";
import { openPgliteClient } from "../../src/stores/pglite-client.js";
import type { SqlClient } from "../../src/stores/sql-client.js";

function answerTo(question: string): Answer {
  return {
    requestId: "r",
    answer: `About ${question} [1]`,
    noContext: false,
    citations: [
      {
        n: 1,
        documentId: "0b3c2f9e-0000-4000-8000-000000000001",
        title: "Policy",
        file: "policy.pdf",
        pageStart: 3,
        pageEnd: 3,
        quote: `The policy covers ${question}`,
        url: "http://folio.test/files/x#page=3",
      },
    ],
    timingsMs: {},
  };
}

/** A pipeline that answers a question only once the test releases it; `asked` resolves when it is asked. */
function heldPipeline() {
  const releases = new Map<string, () => void>();
  const askedWaiters = new Map<string, Array<() => void>>();
  const asked: string[] = [];
  async function* answerQuestion(question: string, context: AnswerContext): AsyncIterable<AnswerEvent> {
    asked.push(question);
    for (const wake of askedWaiters.get(question) ?? []) wake();
    // Like the real pipeline, a stopping job's question ends with its signal.
    await new Promise<void>((resolve) => {
      releases.set(question, resolve);
      context.signal?.addEventListener("abort", () => resolve(), { once: true });
    });
    if (context.signal?.aborted) {
      yield { type: "error", code: "aborted", message: "stopped", requestId: context.requestId };
      return;
    }
    yield { type: "done", answer: answerTo(question) };
  }
  return {
    answerQuestion,
    asked,
    whenAsked: (question: string) =>
      asked.includes(question)
        ? Promise.resolve()
        : new Promise<void>((resolve) => askedWaiters.set(question, [...(askedWaiters.get(question) ?? []), resolve])),
    release: (question: string) => releases.get(question)?.(),
  };
}

const csv = (question: string) => new TextEncoder().encode(`Question\n${question}\n`);

describe("questionnaire job limits", () => {
  let client: SqlClient;
  const services: QuestionnaireService[] = [];
  beforeEach(async () => {
    client = await openPgliteClient("memory://");
    await migrateDatabase(client, { denseDimensions: 4, logger: silentLogger });
  });
  afterEach(async () => {
    for (const service of services.splice(0)) await service.close();
    await client.close();
  });

  function serviceWith(
    pipeline: ReturnType<typeof heldPipeline>,
    priority = createInteractivePriority({ maxWaitMs: 60_000 }),
  ) {
    const service = createQuestionnaireService({
      client,
      answerQuestion: pipeline.answerQuestion,
      priority,
      settings: { ...DEFAULT_QUESTIONNAIRE_SETTINGS, maxRunningJobs: 2, maxRunningJobsPerSpace: 1 },
      logger: silentLogger,
    });
    services.push(service);
    return service;
  }

  it("runs two jobs at once, one per space, queues the rest saying how many wait ahead, and starts each as a slot frees", async () => {
    const pipeline = heldPipeline();
    const service = serviceWith(pipeline);
    const submit = (name: string, spaceId: string) =>
      service.submit({ bytes: csv(`Is ${name} encrypted?`), fileName: `${name}.csv`, spaceId });
    const a1 = await submit("a1", "space-a");
    const a2 = await submit("a2", "space-a");
    const b1 = await submit("b1", "space-b");
    const c1 = await submit("c1", "space-c");
    await Promise.all([pipeline.whenAsked("Is a1 encrypted?"), pipeline.whenAsked("Is b1 encrypted?")]);

    const line = async (id: string) => {
      const progress = await service.progress(id);
      return progress ? describeProgress(progress) : null;
    };
    expect(await line(a2.id)).toBe("queued, next in line · 0/1 done");
    expect(await line(c1.id)).toBe("queued, 1 ahead · 0/1 done");
    expect((await service.progress(c1.id))?.ahead).toBe(1);

    const heardByA2: QuestionnaireProgress[] = [];
    service.onProgress(a2.id, (progress) => heardByA2.push(progress));

    // b1 ends: c1 takes its slot (a2 still waits for a1, its space's one slot).
    pipeline.release("Is b1 encrypted?");
    expect((await service.whenSettled(b1.id))?.status).toBe("succeeded");
    await pipeline.whenAsked("Is c1 encrypted?");
    expect(await line(a2.id)).toBe("queued, next in line · 0/1 done");
    expect(pipeline.asked).toEqual(["Is a1 encrypted?", "Is b1 encrypted?", "Is c1 encrypted?"]);

    pipeline.release("Is a1 encrypted?");
    await pipeline.whenAsked("Is a2 encrypted?");
    pipeline.release("Is a2 encrypted?");
    pipeline.release("Is c1 encrypted?");
    const settled = await Promise.all([a1, a2, c1].map((job) => service.whenSettled(job.id)));
    expect(settled.map((job) => job?.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    // a2's follower heard it wait, start and end.
    expect(heardByA2.map((progress) => progress.status)).toContain("queued");
    expect(heardByA2.at(-1)).toMatchObject({ status: "succeeded", ahead: null, done: 1 });
  });

  it("cancels a queued job without asking it, and leaves one queued on shutdown for the next start", async () => {
    const pipeline = heldPipeline();
    const service = serviceWith(pipeline);
    const first = await service.submit({ bytes: csv("Is it first?"), fileName: "first.csv", spaceId: "s" });
    const second = await service.submit({ bytes: csv("Is it second?"), fileName: "second.csv", spaceId: "s" });
    const third = await service.submit({ bytes: csv("Is it third?"), fileName: "third.csv", spaceId: "s" });
    await pipeline.whenAsked("Is it first?");
    expect(await service.cancel(second.id)).toBe(true);
    expect((await service.getJob(second.id))?.status).toBe("cancelled");
    expect((await service.progress(third.id))?.ahead).toBe(0);

    await service.close();
    const store = createQuestionnaireJobStore(client);
    expect([(await store.getJob(first.id))?.status, (await store.getJob(third.id))?.status]).toEqual([
      "running",
      "queued",
    ]);
    expect(pipeline.asked).toEqual(["Is it first?"]);
    // The next start claims both and answers them, one at a time for this space.
    const next = heldPipeline();
    const resumed = serviceWith(next);
    expect((await resumed.resumeInterrupted(0)).sort()).toEqual([first.id, third.id].sort());
    await next.whenAsked("Is it first?");
    next.release("Is it first?");
    await next.whenAsked("Is it third?");
    next.release("Is it third?");
    const ends = await Promise.all([first, third].map((job) => resumed.whenSettled(job.id)));
    expect(ends.map((job) => job?.status)).toEqual(["succeeded", "succeeded"]);
  });

  it("stops a row in flight when a person's question begins, and asks it again once the question is answered", async () => {
    const pipeline = heldPipeline();
    const priority = createInteractivePriority({ maxWaitMs: 60_000 });
    const service = serviceWith(pipeline, priority);
    const job = await service.submit({ bytes: csv("Are backups encrypted?"), fileName: "b.csv", spaceId: "s" });
    await pipeline.whenAsked("Are backups encrypted?");
    const endQuestion = priority.begin();
    // The row gave way: asked once so far, waiting for its turn again.
    await new Promise((resolve) => setImmediate(resolve));
    expect(pipeline.asked).toEqual(["Are backups encrypted?"]);
    endQuestion();
    await new Promise<void>((resolve) => {
      const check = () => (pipeline.asked.length === 2 ? resolve() : setImmediate(check));
      check();
    });
    pipeline.release("Are backups encrypted?");
    const settled = await service.whenSettled(job.id);
    expect(settled?.counts).toEqual({ answered: 1, not_found: 0, needs_review: 0, error: 0, pending: 0 });
    const [row] = await createQuestionnaireJobStore(client).listRows(job.id);
    expect([row?.status, row?.failures, row?.attempts]).toEqual(["answered", 0, 2]);
  });
});
