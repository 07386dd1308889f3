/**
 * Watches a language model from the outside: how many questions wait in line for it (from its
 * `onQueued` calls) and how fast it writes (tokens of each finished stream over the time from its
 * first text to its end). The model implementations know nothing of metrics.
 */
import type { ChatMessage, LanguageModel, StreamOptions } from "../llm/language-model.js";
import type { FolioMetrics } from "./metrics.js";

export function observeLanguageModel(model: LanguageModel, metrics: FolioMetrics): LanguageModel {
  const waiting = new Set<object>();
  const setWaiting = (request: object, isWaiting: boolean) => {
    const changed = isWaiting ? !waiting.has(request) : waiting.has(request);
    if (!changed) return;
    if (isWaiting) waiting.add(request);
    else waiting.delete(request);
    metrics.languageModelQueueDepth(waiting.size);
  };

  async function* stream(messages: ChatMessage[], options: StreamOptions = {}): AsyncGenerator<string> {
    const request = {};
    let text = "";
    let firstTextAt: number | undefined;
    let finished = false;
    try {
      for await (const chunk of model.stream(messages, {
        ...options,
        onQueued(position) {
          setWaiting(request, true);
          options.onQueued?.(position);
        },
      })) {
        if (firstTextAt === undefined) {
          firstTextAt = performance.now();
          setWaiting(request, false);
        }
        text += chunk;
        yield chunk;
      }
      finished = true;
    } finally {
      setWaiting(request, false);
      if (finished && firstTextAt !== undefined) {
        const durationMs = performance.now() - firstTextAt;
        const tokens = await Promise.resolve(model.countTokens(text)).catch(() => 0);
        metrics.languageModelGenerated({ tokens, durationMs });
      }
    }
  }

  return {
    get name() {
      return model.name;
    },
    get capabilities() {
      return model.capabilities;
    },
    get contextTokens() {
      return model.contextTokens;
    },
    stream,
    countTokens: (text) => model.countTokens(text),
    close: () => model.close(),
  };
}
