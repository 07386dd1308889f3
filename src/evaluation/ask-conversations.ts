/**
 * Asks each conversation's questions in order, the way a chat thread does: every question goes to the
 * answer service with the thread's earlier turns as history (so "And the year before?" means something),
 * then each answer is checked against its turn's expectation. Takes the answer call as a port, so the
 * scoring is tested with a fake service and run for real by `folio eval conversations`.
 */
import { randomUUID } from "node:crypto";
import type { Answer, AnswerContext, AnswerEvent, ConversationTurn } from "../answer/answer-events.js";
import type { ConversationCase, TurnExpectation, TurnKind } from "./conversation-dataset.js";
import { type LatencySummary, summarizeLatency } from "./latency.js";
import { checkTurn } from "./turn-check.js";

export type AnswerService = {
  answerQuestion(question: string, context: AnswerContext): AsyncIterable<AnswerEvent>;
};

export type TurnFailure = {
  conversation: string;
  /** 1-based position of the turn in its conversation. */
  turn: number;
  kind: TurnKind;
  question: string;
  expect: TurnExpectation;
  /** The first characters of the answer, enough to see what went wrong. */
  answer: string;
  reasons: string[];
};

export type ConversationEvaluationReport = {
  conversations: number;
  questions: number;
  correct: number;
  correctRate: number;
  byKind: Partial<Record<TurnKind, { questions: number; correct: number }>>;
  latencyMs: LatencySummary;
  failures: TurnFailure[];
};

export const ANSWER_EXCERPT_LENGTH = 300;

/** The answer object, or an empty refusal-free answer carrying the error, so one failure costs one turn. */
export async function collectAnswer(service: AnswerService, question: string, context: AnswerContext): Promise<Answer> {
  let answer: Answer | null = null;
  let error = "";
  for await (const event of service.answerQuestion(question, context)) {
    if (event.type === "done") answer = event.answer;
    if (event.type === "error") error = `[error ${event.code}: ${event.message}]`;
  }
  return (
    answer ?? {
      requestId: context.requestId,
      answer: error || "[no answer]",
      noContext: false,
      citations: [],
      timingsMs: {},
    }
  );
}

export async function askConversations(
  service: AnswerService,
  options: {
    spaceId: string;
    conversations: readonly ConversationCase[];
    onProgress?: (message: string) => void;
    /** Wall-clock source; a test passes a fake to get exact latencies. */
    now?: () => number;
  },
): Promise<ConversationEvaluationReport> {
  const now = options.now ?? (() => performance.now());
  const byKind: ConversationEvaluationReport["byKind"] = {};
  const failures: TurnFailure[] = [];
  const latencies: number[] = [];
  let questions = 0;
  let correct = 0;
  for (const conversation of options.conversations) {
    const history: ConversationTurn[] = [];
    for (const [index, turn] of conversation.turns.entries()) {
      const started = now();
      const answer = await collectAnswer(service, turn.question, {
        spaceIds: [options.spaceId],
        // A copy: the service may keep the context while this loop appends to the thread.
        history: [...history],
        requestId: randomUUID(),
      });
      latencies.push(now() - started);
      history.push({ role: "user", text: turn.question }, { role: "assistant", text: answer.answer });
      const check = checkTurn(answer, turn.expect);
      const tally = byKind[turn.kind] ?? { questions: 0, correct: 0 };
      tally.questions += 1;
      questions += 1;
      if (check.correct) {
        tally.correct += 1;
        correct += 1;
      } else {
        failures.push({
          conversation: conversation.id,
          turn: index + 1,
          kind: turn.kind,
          question: turn.question,
          expect: turn.expect,
          answer: answer.answer.slice(0, ANSWER_EXCERPT_LENGTH),
          reasons: check.reasons,
        });
      }
      byKind[turn.kind] = tally;
    }
    options.onProgress?.(`asked conversation ${conversation.id}: ${conversation.turns.length} questions`);
  }
  return {
    conversations: options.conversations.length,
    questions,
    correct,
    correctRate: questions === 0 ? 0 : Math.round((correct / questions) * 1000) / 1000,
    byKind,
    latencyMs: summarizeLatency(latencies),
    failures,
  };
}
