/**
 * The local language model: a GGUF file run in-process by node-llama-cpp. One context holds N
 * sequences so concurrent questions decode together in one batch; each request borrows a sequence
 * from a bounded pool, runs a fresh chat (the model's own chat template) on it, and hands it back
 * cleared down to the system rules, whether it finished, timed out or was aborted: the rules are the
 * same text for every asker, and keeping them read saves their prefill on the next request (on a CPU,
 * seconds).
 */
import { access } from "node:fs/promises";
import path from "node:path";
import {
  type ChatHistoryItem,
  getLlama,
  type Llama,
  LlamaChat,
  type LlamaContextSequence,
  LlamaLogLevel,
  type LlamaModel,
} from "node-llama-cpp";
import { FolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import { createChunkChannel } from "./chunk-channel.js";
import {
  type ChatMessage,
  type FinishReason,
  type LanguageModel,
  LLM_ERROR_CODES,
  type StreamOptions,
} from "./language-model.js";
import type { LlamaGpuSetting } from "./llama-gpu-setting.js";
import { createRequestDeadline } from "./request-deadline.js";
import { createSequencePool } from "./sequence-pool.js";

export const DEFAULT_LLM_TIMEOUT_MS = 120_000;
export const DEFAULT_LLM_QUEUE_LIMIT = 16;
/** Enough for a question, five 512-token sources and an answer; the model's own limit caps it. */
export const DEFAULT_LLM_CONTEXT_TOKENS = 8192;

/** A GGUF model loaded once; several language models (contexts) may share it. */
export type LoadedLlamaModel = {
  readonly llama: Llama;
  readonly model: LlamaModel;
  /** The file name, for logs. */
  readonly name: string;
  dispose(): Promise<void>;
};

export type LoadLlamaModelOptions = {
  modelPath: string;
  gpu?: LlamaGpuSetting;
  /** CPU threads; 0 leaves the choice to node-llama-cpp. */
  threads?: number;
  logger: Logger;
};

export async function loadLlamaModelFile(options: LoadLlamaModelOptions): Promise<LoadedLlamaModel> {
  const name = path.basename(options.modelPath);
  try {
    await access(options.modelPath);
  } catch (error) {
    throw new FolioError(
      "llm_model_not_found",
      `The language model file ${options.modelPath} does not exist; set FOLIO_LLM_MODEL to a GGUF file or run \`folio models pull llm\`.`,
      { cause: error },
    );
  }
  const gpuSetting = options.gpu ?? "auto";
  const threads = options.threads ?? 0;
  let llama: Llama;
  try {
    llama = await getLlama({
      gpu: gpuSetting === "cpu" ? false : gpuSetting,
      // Never compile or download at run time: only the prebuilt binaries that came with npm install.
      build: "never",
      ...(threads > 0 ? { maxThreads: threads } : {}),
      logLevel: LlamaLogLevel.warn,
      logger: (level, message) => logLlamaMessage(options.logger, level, message),
    });
  } catch (error) {
    throw new FolioError(
      LLM_ERROR_CODES.unavailable,
      `node-llama-cpp could not start with FOLIO_LLM_GPU=${gpuSetting}: ${errorMessage(error)}`,
      { cause: error },
    );
  }
  let model: LlamaModel;
  try {
    model = await llama.loadModel({ modelPath: options.modelPath });
  } catch (error) {
    await llama.dispose();
    throw new FolioError(LLM_ERROR_CODES.error, `Could not load ${name}: ${errorMessage(error)}`, { cause: error });
  }
  options.logger.info(
    { gpu: llama.gpu || "cpu", model: name, gpuLayers: model.gpuLayers, trainContextSize: model.trainContextSize },
    "language model loaded",
  );
  return {
    llama,
    model,
    name,
    async dispose() {
      await model.dispose();
      await llama.dispose();
    },
  };
}

export type LlamaCppModelOptions = {
  loaded: LoadedLlamaModel;
  /** Sequences decoded together; null: 4 on a GPU, 1 on the CPU (where parallel decoding gains little). */
  parallel?: number | null;
  /** Requests that may wait for a free sequence; more are refused with `llm_busy`. */
  queueLimit?: number;
  /** CPU threads for this context; 0 leaves the choice to node-llama-cpp. */
  threads?: number;
  /** Tokens per sequence (prompt and answer); capped by the model's training context. */
  contextTokens?: number;
  /** Generation time allowed once a request has its sequence (time in line is not counted). */
  timeoutMs?: number;
  /** Dispose the loaded model on close(); true when this model loaded it. */
  ownsModel?: boolean;
  logger: Logger;
};

export async function createLlamaCppModel(options: LlamaCppModelOptions): Promise<LanguageModel> {
  const { loaded, logger } = options;
  const parallel = options.parallel ?? (loaded.llama.gpu ? 4 : 1);
  const queueLimit = options.queueLimit ?? DEFAULT_LLM_QUEUE_LIMIT;
  const threads = options.threads ?? 0;
  const defaultTimeoutMs = options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
  const requestedContext = Math.min(options.contextTokens ?? DEFAULT_LLM_CONTEXT_TOKENS, loaded.model.trainContextSize);
  const context = await loaded.model
    .createContext({
      sequences: parallel,
      contextSize: requestedContext,
      ...(threads > 0 ? { threads } : {}),
    })
    .catch((error: unknown) => {
      throw new FolioError(
        LLM_ERROR_CODES.error,
        `Could not create a ${requestedContext}-token context with ${parallel} sequence(s) for ${loaded.name}: ${errorMessage(error)}; lower FOLIO_LLM_PARALLEL`,
        { cause: error },
      );
    });
  const sequences: LlamaContextSequence[] = Array.from({ length: parallel }, () => context.getSequence());
  const pool = createSequencePool(sequences, { queueLimit });
  let closed = false;
  logger.info(
    {
      gpu: loaded.llama.gpu || "cpu",
      model: loaded.name,
      contextTokens: context.contextSize,
      parallel,
      queueLimit,
      threads: context.idealThreads,
    },
    "language model ready",
  );

  async function* stream(messages: ChatMessage[], streamOptions: StreamOptions = {}): AsyncGenerator<string> {
    if (closed) throw closedError();
    const history = toChatHistory(messages);
    const sequence = await pool.acquire({ signal: streamOptions.signal, onQueued: streamOptions.onQueued });
    const deadline = createRequestDeadline({
      signal: streamOptions.signal,
      timeoutMs: streamOptions.timeoutMs ?? defaultTimeoutMs,
    });
    const chat = new LlamaChat({ contextSequence: sequence });
    const keepTokens = sharedPrefixTokens(chat, history);
    const channel = createChunkChannel<string>();
    let finishReason: FinishReason = "stop";
    const generation = Promise.resolve()
      .then(() =>
        chat.generateResponse(history, {
          signal: deadline.signal,
          maxTokens: answerTokenLimit(chat, history, context.contextSize, streamOptions.maxTokens),
          temperature: streamOptions.temperature ?? 0,
          ...(streamOptions.stop?.length ? { customStopTriggers: streamOptions.stop } : {}),
          // The chat wrapper already removes the template's end-of-turn text; empty chunks carry nothing.
          onTextChunk: (text) => {
            if (text) channel.push(text);
          },
        }),
      )
      .then(
        (response) => {
          if (response.metadata.stopReason === "maxTokens") finishReason = "length";
          channel.close();
        },
        (error: unknown) => channel.fail(deadline.stoppedError() ?? toLlmError(error)),
      );
    let completed = false;
    try {
      yield* channel;
      completed = true;
    } finally {
      // A reader that stopped early or an error: stop decoding before the sequence goes back.
      if (!completed) deadline.cancel();
      await generation;
      deadline.dispose();
      chat.dispose();
      await releaseSequence(sequence, keepTokens);
    }
    streamOptions.onFinish?.({ finishReason });
  }

  async function releaseSequence(sequence: LlamaContextSequence, keepTokens: number): Promise<void> {
    try {
      // Every request starts from the system rules alone, so one asker's sources never leak into
      // another's answer; the rules (the same text for everyone) stay read, and the next request whose
      // prompt starts with them skips reading them again (node-llama-cpp reuses a matching prefix).
      if (keepTokens > 0 && keepTokens < sequence.nextTokenIndex)
        await sequence.eraseContextTokenRanges([{ start: keepTokens, end: sequence.nextTokenIndex }]);
      else if (keepTokens === 0) await sequence.clearHistory();
      pool.release(sequence);
    } catch (error) {
      // A sequence that cannot be cleared is not handed out again; the pool shrinks rather than leaks state.
      logger.error({ error: errorMessage(error) }, "could not clear a language model sequence; it is retired");
    }
  }

  return {
    name: loaded.name,
    capabilities: { parallelSequences: parallel, exactTokenCounts: true, cpuPrefill: !loaded.llama.gpu },
    contextTokens: context.contextSize,
    stream,
    countTokens: (text) => loaded.model.tokenize(text).length,
    async close() {
      if (closed) return;
      closed = true;
      pool.rejectWaiting(closedError());
      await context.dispose();
      if (options.ownsModel) await loaded.dispose();
    },
  };
}

/** Loads the GGUF file and builds the model on it; close() also unloads the file. */
export async function loadLlamaCppModel(
  options: LoadLlamaModelOptions & Omit<LlamaCppModelOptions, "loaded" | "ownsModel">,
): Promise<LanguageModel> {
  const loaded = await loadLlamaModelFile(options);
  try {
    return await createLlamaCppModel({ ...options, loaded, ownsModel: true });
  } catch (error) {
    await loaded.dispose();
    throw error;
  }
}

function closedError(): FolioError {
  return new FolioError(LLM_ERROR_CODES.unavailable, "The language model has been closed.", { retryable: true });
}

function toChatHistory(messages: ChatMessage[]): ChatHistoryItem[] {
  if (messages.length === 0) throw new FolioError(LLM_ERROR_CODES.error, "A chat needs at least one message.");
  return messages.map((message): ChatHistoryItem => {
    if (message.role === "assistant") return { type: "model", response: [message.content] };
    return { type: message.role, text: message.content };
  });
}

/**
 * How many tokens at the start of this prompt are the system message alone (with the chat template's
 * opening of the next turn): the part every request with the same rules shares. 0 without a system
 * message.
 */
function sharedPrefixTokens(chat: LlamaChat, history: ChatHistoryItem[]): number {
  const [first] = history;
  if (first?.type !== "system") return 0;
  const tokenize = (items: ChatHistoryItem[]) =>
    chat.chatWrapper.generateContextState({ chatHistory: items }).contextText.tokenize(chat.model.tokenizer);
  const prompt = tokenize(history);
  const rules = tokenize([first, { type: "user", text: "" }]);
  let shared = 0;
  while (shared < prompt.length && shared < rules.length && prompt[shared] === rules[shared]) shared += 1;
  return shared;
}

/**
 * The answer's token budget: what the caller asked for, cut to the room the prompt leaves in the
 * sequence. Past that room node-llama-cpp would shift the context, silently dropping the start of the
 * prompt (the sources), so a prompt that leaves no room fails instead.
 */
function answerTokenLimit(
  chat: LlamaChat,
  history: ChatHistoryItem[],
  contextTokens: number,
  maxTokens: number | undefined,
): number {
  const prompt = chat.chatWrapper.generateContextState({ chatHistory: history }).contextText;
  const promptTokens = prompt.tokenize(chat.model.tokenizer).length;
  const room = contextTokens - promptTokens;
  if (room < 1) {
    throw new FolioError(
      LLM_ERROR_CODES.error,
      `The prompt takes ${promptTokens} tokens and leaves no room for an answer in the model's ${contextTokens}-token context; send fewer or shorter sources.`,
      { details: { promptTokens, contextTokens } },
    );
  }
  return Math.min(maxTokens ?? room, room);
}

function toLlmError(error: unknown): FolioError {
  if (error instanceof FolioError) return error;
  return new FolioError(LLM_ERROR_CODES.error, `The language model failed: ${errorMessage(error)}`, { cause: error });
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function logLlamaMessage(logger: Logger, level: LlamaLogLevel, message: string): void {
  const fields = { source: "llama.cpp" };
  if (level === LlamaLogLevel.error || level === LlamaLogLevel.fatal) logger.error(fields, message.trim());
  else if (level === LlamaLogLevel.warn) logger.warn(fields, message.trim());
  else logger.debug(fields, message.trim());
}
