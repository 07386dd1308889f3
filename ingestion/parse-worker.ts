/**
 * Worker-thread entry point: parses and chunks the files it is sent, one at a time, posting each result
 * (or the ParseError's code and message) back. Runs inside a thread with a heap cap, so a hostile file
 * can only kill this thread, never the bot. See run-in-worker.ts.
 */
import { parentPort } from "node:worker_threads";
import { isFolioError } from "../src/errors.js";
import { chunkDocument } from "./chunker.js";
import { parseDocument } from "./parse-document.js";
import type { ParseJob, ParseReply } from "./parse-protocol.js";
import { loadTokenCounter } from "./token-counter.js";

async function run(job: ParseJob): Promise<ParseReply> {
  try {
    const document = await parseDocument(job.bytes, job.fileName, job.limits);
    const tokenCounter = await loadTokenCounter(job.chunking.tokenizerDirectory);
    const chunks = chunkDocument(document, { ...job.chunking, tokenCounter });
    return { ok: true, document, chunks };
  } catch (error) {
    if (isFolioError(error)) {
      const page = (error as { page?: number }).page;
      return {
        ok: false,
        error: { code: error.code, message: error.message, page: page ?? null, parse: error.name === "ParseError" },
      };
    }
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: {
        code: "parse_failed",
        message:
          "Folio could not read this file (the parser failed) — save it again in its original program and re-upload.",
        page: null,
        parse: true,
        reason,
      },
    };
  }
}

parentPort?.on("message", async (message: { id: number; job: ParseJob }) => {
  parentPort?.postMessage({ id: message.id, reply: await run(message.job) });
});
