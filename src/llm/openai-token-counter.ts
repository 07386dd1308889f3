/**
 * Token counts from an OpenAI-compatible server: POST /tokenize as llama.cpp server and vLLM take it;
 * where the server has no such endpoint (learned once), an estimate of about four characters a token.
 */
import type { Logger } from "../logger.js";

/** Characters per token for the estimate when the server cannot count: English text averages about 4. */
const CHARACTERS_PER_TOKEN = 4;
const TOKENIZE_TIMEOUT_MS = 5000;

export type ServerTokenCounter = {
  count(text: string): Promise<number>;
  /** Whether counts come from the server (true once it has answered a count). */
  readonly exact: boolean;
};

export function createServerTokenCounter(options: {
  tokenizeUrl: string;
  headers: Record<string, string>;
  model: string;
  logger: Logger;
}): ServerTokenCounter {
  const { tokenizeUrl, headers, logger } = options;
  /** null until the first count: then whether the server answers POST /tokenize. */
  let tokenizeSupported: boolean | null = null;

  async function countTokens(text: string): Promise<number> {
    if (tokenizeSupported !== false) {
      const counted = await countWithServer(text);
      if (counted !== null) return counted;
    }
    return Math.ceil(text.length / CHARACTERS_PER_TOKEN);
  }

  /** POST /tokenize as llama.cpp server (`content` → `tokens`) and vLLM (`prompt` → `count`) take it. */
  async function countWithServer(text: string): Promise<number | null> {
    try {
      const response = await fetch(tokenizeUrl, {
        method: "POST",
        headers,
        body: JSON.stringify({ model: options.model, content: text, prompt: text, add_special: false }),
        signal: AbortSignal.timeout(TOKENIZE_TIMEOUT_MS),
      });
      if (!response.ok) {
        await response.body?.cancel();
        // Only an answer that says "no such endpoint" settles it; a busy server may count next time.
        if ([400, 404, 405, 501].includes(response.status)) tokenizeSupported = false;
        return null;
      }
      const payload = (await response.json()) as { tokens?: unknown; count?: unknown };
      const count = Array.isArray(payload.tokens)
        ? payload.tokens.length
        : typeof payload.count === "number"
          ? payload.count
          : null;
      tokenizeSupported = count !== null;
      return count;
    } catch (error) {
      logger.debug(
        { error: error instanceof Error ? error.message : String(error) },
        "token count from the server failed",
      );
      return null;
    }
  }

  return {
    count: countTokens,
    get exact() {
      return tokenizeSupported === true;
    },
  };
}
