import { describe, expect, it, vi } from "vitest";
import {
  answerQuestionnaireInThread,
  findLatestSharedFile,
  isQuestionnaireCancel,
  isQuestionnaireRequest,
} from "../../adapters/slack/slack-questionnaire.js";
import { silentLogger } from "../../src/logger.js";
import type { QuestionnaireProgress } from "../../src/questionnaire/jobs/questionnaire-progress.js";

describe("isQuestionnaireRequest", () => {
  it("recognises asks to answer or fill a questionnaire, not questions that mention one", () => {
    for (const text of [
      "<@U0FOLIO> answer this questionnaire",
      "please fill in the questionnaire",
      "can you complete this RFP?",
      "Fill out the security review",
    ]) {
      expect(isQuestionnaireRequest(text), text).toBe(true);
    }
    for (const text of ["What does the questionnaire ask about backups?", "answer this question", "questionnaire"]) {
      expect(isQuestionnaireRequest(text), text).toBe(false);
    }
  });
});

describe("findLatestSharedFile", () => {
  it("takes the newest file a person shared, never Folio's own uploads", () => {
    const found = findLatestSharedFile([
      { ts: "100.000001", files: [{ id: "F_OLD" }] },
      { ts: "300.000001", bot_id: "B0FOLIO", files: [{ id: "F_FILLED" }] },
      { ts: "200.000001", thread_ts: "100.000001", files: [{ id: "F_NEW" }] },
      { ts: "250.000001" },
    ]);
    expect(found?.file.id).toBe("F_NEW");
    expect(found?.message.thread_ts).toBe("100.000001");
    expect(findLatestSharedFile([{ ts: "1.0" }])).toBeNull();
  });
});

describe("answerQuestionnaireInThread (Slack and the job service faked)", () => {
  const progressAt = (done: number, status: QuestionnaireProgress["status"]): QuestionnaireProgress => ({
    jobId: "job-1",
    status,
    fileName: "review.csv",
    total: 10,
    done,
    answered: done,
    notFound: 0,
    needsReview: 0,
    errors: 0,
    pending: 10 - done,
    elapsedMs: 2_000,
    secondsLeft: status === "running" ? 10 - done : 0,
    errorCode: null,
    errorMessage: null,
    ahead: null,
  });

  it("edits the progress message at most once per interval, always ending on the final count", async () => {
    const updates: string[] = [];
    const posts: string[] = [];
    const hooks: { listener: ((progress: QuestionnaireProgress) => void) | null; settle: (() => void) | null } = {
      listener: null,
      settle: null,
    };
    const client = {
      chat: {
        postMessage: async (args: { text: string }) => {
          posts.push(args.text);
          return { ok: true, ts: `1.${posts.length}` };
        },
        update: async (args: { text: string }) => {
          updates.push(args.text);
          return { ok: true };
        },
      },
      files: {
        getUploadURLExternal: async () => ({
          ok: true,
          upload_url: "https://files.slack.com/upload/v1/x",
          file_id: "F1",
        }),
        completeUploadExternal: async () => ({ ok: true }),
      },
    };
    const questionnaires = {
      submit: async () => ({ id: "job-1" }),
      setDestination: async () => {},
      markReported: async () => {},
      onProgress: (_id: string, callback: (progress: QuestionnaireProgress) => void) => {
        hooks.listener = callback;
        return () => {
          hooks.listener = null;
        };
      },
      whenSettled: () => new Promise((resolve) => (hooks.settle = () => resolve({ status: "succeeded" }))),
      progress: async () => progressAt(10, "succeeded"),
      filledCopy: async () => ({
        bytes: new Uint8Array([1, 2, 3]),
        fileName: "review (filled).csv",
        mediaType: "text/csv",
      }),
    };
    const realFetch = globalThis.fetch;
    const uploaded: string[] = [];
    globalThis.fetch = (async (url: string | URL) => {
      uploaded.push(String(url));
      return new Response("OK");
    }) as typeof fetch;
    try {
      const running = answerQuestionnaireInThread(
        {
          client: client as never,
          questionnaires: questionnaires as never,
          botToken: "xoxb",
          apiOrigin: null,
          maxBytes: 1_000_000,
          logger: silentLogger,
          progressIntervalMs: 60_000,
          createRequestId: () => "req-1",
          download: async () => new TextEncoder().encode("Question\nA?\n"),
        },
        {
          file: { id: "F0", name: "review.csv", url_private: "https://files.slack.com/f" },
          conversation: { teamId: "T", channelId: "C", userId: "U", isDirectMessage: false },
          threadTs: "1.0",
        },
      );
      await vi.waitFor(() => expect(hooks.listener).not.toBeNull());
      for (let done = 1; done <= 9; done += 1) hooks.listener?.(progressAt(done, "running"));
      hooks.settle?.();
      await running;
    } finally {
      globalThis.fetch = realFetch;
    }
    // The first row's progress, then nothing within the interval, then the final count.
    expect(updates).toHaveLength(2);
    expect(updates[0]).toBe("Answering *review.csv*: 1/10 done · 1 answered · 9 s left");
    expect(updates[1]).toMatch(/^Answering \*review\.csv\*: 10\/10 done · 10 answered · took 2 s$/);
    expect(uploaded).toEqual(["https://files.slack.com/upload/v1/x"]);
    expect(posts.at(-1)).toContain("*review.csv* — 10 questions in 2 s:");
  });

  it("says how many jobs wait before a queued one, then follows it once it runs", async () => {
    const updates: string[] = [];
    const hooks: { listener: ((progress: QuestionnaireProgress) => void) | null; settle: (() => void) | null } = {
      listener: null,
      settle: null,
    };
    let current: QuestionnaireProgress = { ...progressAt(0, "queued"), ahead: 3 };
    const client = {
      chat: {
        postMessage: async () => ({ ok: true, ts: "1.1" }),
        update: async (args: { text: string }) => {
          updates.push(args.text);
          return { ok: true };
        },
      },
    };
    const questionnaires = {
      submit: async () => ({ id: "job-1" }),
      setDestination: async () => {},
      markReported: async () => {},
      onProgress: (_id: string, callback: (progress: QuestionnaireProgress) => void) => {
        hooks.listener = callback;
        return () => {
          hooks.listener = null;
        };
      },
      whenSettled: () => new Promise((resolve) => (hooks.settle = () => resolve({ status: "cancelled" }))),
      progress: async () => current,
    };
    const running = answerQuestionnaireInThread(
      {
        client: client as never,
        questionnaires: questionnaires as never,
        botToken: "xoxb",
        apiOrigin: null,
        maxBytes: 1_000_000,
        logger: silentLogger,
        progressIntervalMs: 0,
        createRequestId: () => "req-1",
        download: async () => new TextEncoder().encode("Question\nA?\n"),
      },
      {
        file: { id: "F0", name: "review.csv", url_private: "https://files.slack.com/f" },
        conversation: { teamId: "T", channelId: "C", userId: "U", isDirectMessage: false },
        threadTs: "1.0",
      },
    );
    await vi.waitFor(() => expect(updates).toHaveLength(1));
    expect(updates[0]).toBe("Answering *review.csv*: queued, 3 ahead · 0/10 done");
    current = { ...progressAt(0, "queued"), ahead: 0 };
    hooks.listener?.(current);
    hooks.listener?.(progressAt(1, "running"));
    current = progressAt(1, "cancelled");
    hooks.settle?.();
    await running;
    expect(updates.slice(0, 3)).toEqual([
      "Answering *review.csv*: queued, 3 ahead · 0/10 done",
      "Answering *review.csv*: queued, next in line · 0/10 done",
      "Answering *review.csv*: 1/10 done · 1 answered · 9 s left",
    ]);
  });
});

describe("isQuestionnaireCancel", () => {
  it("takes a bare cancel or stop of the questionnaire, not a question about cancelling", () => {
    for (const text of ["cancel", "stop", "Stop.", "please cancel the questionnaire", "<@U0FOLIO> stop this RFP"]) {
      expect(isQuestionnaireCancel(text), text).toBe(true);
    }
    for (const text of ["How do I cancel my subscription?", "cancel the meeting"]) {
      expect(isQuestionnaireCancel(text), text).toBe(false);
    }
  });
});
