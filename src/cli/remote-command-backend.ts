/**
 * The command backend that works through a running `folio serve` on this machine (its local API,
 * src/http/local-cli-api.ts), used while that server holds the embedded store.
 */
import type { AnswerEvent } from "../answer/answer-events.js";
import type { AddQuestionnaireResult } from "../answer-library/approved-answer-library.js";
import type { ApprovedAnswerJson, ApprovedAnswers } from "../answer-library/approved-answers.js";
import type { SearchResult } from "../domain/types.js";
import { FolioError } from "../errors.js";
import type { IngestResult } from "../ingest/ingest-result.js";
import type { CommandBackend } from "./command-backend.js";
import type { ServerAddress } from "./server-address-file.js";

/** Whether the server in the address file answers; a stale file (a crashed server, a reused pid) does not. */
export async function serverAnswers(address: ServerAddress): Promise<boolean> {
  try {
    const response = await fetch(`${address.url}/healthz`, { signal: AbortSignal.timeout(2_000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

export function createRemoteCommandBackend(address: ServerAddress): CommandBackend {
  const headers = { Authorization: `Bearer ${address.token}` };

  const call = async (path: string, init: RequestInit): Promise<Response> => {
    let response: Response;
    try {
      response = await fetch(`${address.url}/api/local/${path}`, {
        ...init,
        headers: { ...headers, ...(init.headers as Record<string, string> | undefined) },
      });
    } catch (error) {
      throw new FolioError(
        "server_unreachable",
        `The running folio serve (pid ${address.pid}, ${address.url}) stopped answering — try again, or stop it to work on the store directly.`,
        { cause: error },
      );
    }
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
      throw new FolioError(
        body.error?.code ?? "server_error",
        `The running folio serve refused the command: ${body.error?.message ?? `HTTP ${response.status}`}`,
      );
    }
    return response;
  };
  const postJson = (path: string, body: unknown) =>
    call(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

  const approvedAnswers: ApprovedAnswers = {
    async addQuestionnaire(request) {
      const query = new URLSearchParams({ space: request.spaceId, file: request.fileName });
      if (request.addedBy !== null) query.set("addedBy", request.addedBy);
      if (request.columns?.questionColumn !== undefined) query.set("questionColumn", request.columns.questionColumn);
      if (request.columns?.answerColumn !== undefined) query.set("answerColumn", request.columns.answerColumn);
      if (request.columns?.sheet !== undefined) query.set("sheet", request.columns.sheet);
      const response = await call(`answers?${query}`, {
        method: "POST",
        headers: { "Content-Type": "application/octet-stream" },
        body: request.bytes,
      });
      return (await response.json()) as AddQuestionnaireResult;
    },
    async list(spaceId) {
      const response = await call(`answers?${new URLSearchParams({ space: spaceId })}`, { method: "GET" });
      const { approvedAnswers: listed } = (await response.json()) as { approvedAnswers: ApprovedAnswerJson[] };
      return listed.map((record) => ({ ...record, addedAt: new Date(record.addedAt) }));
    },
    async remove(spaceId, id) {
      const response = await call(`answers/${encodeURIComponent(id)}?${new URLSearchParams({ space: spaceId })}`, {
        method: "DELETE",
      });
      return ((await response.json()) as { removed: boolean }).removed;
    },
  };

  return {
    approvedAnswers,
    async ingestFile(input) {
      const query = new URLSearchParams({ space: input.spaceId, file: input.fileName, sameName: input.sameName });
      const response = await call(`ingest?${query}`, {
        method: "POST",
        headers: { "Content-Type": "application/octet-stream" },
        body: input.bytes,
      });
      return (await response.json()) as IngestResult;
    },
    async finishIngest(spaceId) {
      await (await postJson("ingest-finished", { space: spaceId })).body?.cancel();
    },
    async search(request) {
      const response = await postJson("search", {
        query: request.query,
        space: request.spaceId,
        limit: request.limit,
        mode: request.mode,
      });
      return ((await response.json()) as { results: SearchResult[] }).results;
    },
    async *answerQuestion(question, context) {
      const response = await postJson("ask", { question, space: context.spaceIds[0] });
      if (!response.body) return;
      const decoder = new TextDecoder();
      let buffered = "";
      for await (const part of response.body) {
        buffered += decoder.decode(part as Uint8Array, { stream: true });
        let newline = buffered.indexOf("\n");
        while (newline !== -1) {
          const line = buffered.slice(0, newline).trim();
          buffered = buffered.slice(newline + 1);
          if (line) yield JSON.parse(line) as AnswerEvent;
          newline = buffered.indexOf("\n");
        }
      }
    },
  };
}
