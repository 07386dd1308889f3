/**
 * The language-model port: chat messages in, streamed answer text out, plus token counting so callers
 * can fit sources into the prompt. Implementations (node-llama-cpp, OpenAI-compatible HTTP) translate
 * their failures into FolioError with one of LLM_ERROR_CODES; core code never imports a provider.
 */

export type ChatRole = "system" | "user" | "assistant";

export type ChatMessage = { role: ChatRole; content: string };

/** Why generation ended: the model finished (or hit a stop string), or it reached maxTokens. */
export type FinishReason = "stop" | "length";

export type StreamOptions = {
  /** Aborting ends the stream with `llm_aborted` and frees the model for the next question. */
  signal?: AbortSignal;
  /** Upper bound on generated tokens. */
  maxTokens?: number;
  /** 0 (the default) is greedy decoding: the same prompt gives the same answer. */
  temperature?: number;
  /** Generation ends before any of these strings; the stop string itself is not streamed. */
  stop?: string[];
  /** Overrides the model's default per-request timeout; past it the stream ends with `llm_timeout`. */
  timeoutMs?: number;
  /**
   * Called when the request has to wait for the model, with its 1-based place in line, and again each
   * time it moves up; adapters use it to tell the asker "busy, you are in line".
   */
  onQueued?: (position: number) => void;
  /** Called once when the stream ends normally, before the iterator completes. */
  onFinish?: (result: { finishReason: FinishReason }) => void;
};

/** What an implementation can do, declared so callers need not know which one they hold. */
export type LanguageModelCapabilities = {
  /** Requests decoded together; more concurrent requests wait in line (or are refused when it is full). */
  parallelSequences: number;
  /** True when countTokens uses the model's own tokenizer rather than an estimate. */
  exactTokenCounts: boolean;
  /**
   * True when the prompt is read on a CPU: tens of tokens a second, so callers keep prompts short
   * (fit-sources.ts). Absent or false: a GPU or a server, where a longer prompt costs little.
   */
  cpuPrefill?: boolean;
};

export interface LanguageModel {
  /** The model's name for logs and `/readyz` (a GGUF file name or the server's model id). */
  readonly name: string;
  readonly capabilities: LanguageModelCapabilities;
  /** Tokens one request may hold, prompt and answer together. */
  readonly contextTokens: number;
  /**
   * Streams the reply to the last message. Errors are FolioError with a code from LLM_ERROR_CODES;
   * text already streamed stays valid when a later error ends the stream. Stopping the iteration
   * early (break) cancels the generation like an abort.
   */
  stream(messages: ChatMessage[], options?: StreamOptions): AsyncIterable<string>;
  countTokens(text: string): Promise<number> | number;
  close(): Promise<void>;
}

export const LLM_ERROR_CODES = {
  /** Every sequence is busy and the waiting line is full; retryable, the asker should ask again shortly. */
  busy: "llm_busy",
  timeout: "llm_timeout",
  aborted: "llm_aborted",
  /** The model cannot be reached or dropped the connection; retryable. */
  unavailable: "llm_unavailable",
  /** The model or server refused the request (bad request, bad key, model error); not retryable. */
  error: "llm_error",
} as const;

export type LlmErrorCode = (typeof LLM_ERROR_CODES)[keyof typeof LLM_ERROR_CODES];
