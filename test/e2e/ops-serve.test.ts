/**
 * `folio serve` as an orchestrator runs it, in a real child process: /readyz reports each dependency,
 * /metrics counts what happened, every log line of a request names its request id, and SIGTERM stops
 * taking new work (503 with Retry-After, /readyz fails) while an upload in progress finishes — then the
 * process exits 0. A second run with a 1 s grace period cuts the upload off and still exits 0 promptly.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CONSOLE_HEADERS } from "../support/console-client.js";
import { type FolioProcess, startFolioServe } from "../support/ops-folio-process.js";
import { hasSharedData, sharedModel } from "../support/shared-paths.js";
import { sleep, waitFor } from "../support/wait-for.js";

if (!hasSharedData) console.warn("ops-serve: skipped — no shared models (../shared) for the embedder.");

const running: FolioProcess[] = [];
const dataDirs: string[] = [];
afterEach(async () => {
  for (const served of running.splice(0)) await served.kill();
  for (const dir of dataDirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function serve(environment: Record<string, string> = {}): Promise<FolioProcess> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "folio-ops-"));
  dataDirs.push(dataDir);
  const served = await startFolioServe({
    FOLIO_DATA_DIR: dataDir,
    FOLIO_MODELS_DIR: path.dirname(sharedModel("bge-small-en-v1.5")),
    ...environment,
  });
  running.push(served);
  return served;
}

/** A text long enough that embedding it takes several seconds on a CPU. */
function longDocument(paragraphs: number): string {
  const lines: string[] = ["# Operations handbook", ""];
  for (let index = 1; index <= paragraphs; index += 1) {
    lines.push(
      `Section ${index}. The rota for depot ${index} assigns shift lead number ${index * 7} to loading bay ${index % 13}. ` +
        `Forklift inspection ${index} is recorded by the supervisor before the morning briefing, and spare batteries ` +
        `for hall ${index % 9} are charged overnight so the ${index}th delivery leaves on time.`,
      "",
    );
  }
  return lines.join("\n");
}

/** Starts an upload and resolves when its first embedding progress line arrives; `done` is the whole body. */
async function startUpload(url: string, fileName: string, text: string) {
  const form = new FormData();
  form.append("file", new Blob([text]), fileName);
  // `meaning=wait`: the upload stays in progress while its passages are embedded (what these tests drain).
  const response = await fetch(`${url}/api/upload?meaning=wait`, {
    method: "POST",
    body: form,
    headers: CONSOLE_HEADERS,
  });
  expect(response.status).toBe(200);
  const requestId = response.headers.get("x-request-id") ?? "";
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let body = "";
  let embedding: () => void = () => {};
  const embeddingStarted = new Promise<void>((resolve) => {
    embedding = resolve;
  });
  const done = (async () => {
    for (;;) {
      const { value, done: finished } = await reader.read();
      if (finished) return body;
      body += decoder.decode(value, { stream: true });
      if (body.includes('"stage":"embedding"')) embedding();
    }
  })();
  return { requestId, embeddingStarted, done };
}

function logLines(stderr: string): Array<Record<string, unknown>> {
  return stderr
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe.skipIf(!hasSharedData)("folio serve in operation", () => {
  it("reports readiness per dependency, metrics, request ids, and drains on SIGTERM", async () => {
    // A grace period long enough for a loaded CI machine to finish the upload.
    const served = await serve({ FOLIO_SHUTDOWN_GRACE_SECONDS: "150" });
    const ready = await fetch(`${served.url}/readyz`);
    expect(await ready.json()).toMatchObject({
      ready: true,
      status: "ready",
      dependencies: {
        catalog: { status: "up" },
        vectorStore: { status: "up" },
        embedder: { status: "up", detail: "bge-small-en-v1.5" },
        languageModel: { status: "off" },
      },
    });

    const upload = await startUpload(served.url, "handbook.md", longDocument(150));
    await upload.embeddingStarted;
    served.child.kill("SIGTERM");
    await waitFor(
      async () => (await fetch(`${served.url}/readyz`)).status === 503,
      10_000,
      "/readyz to fail after SIGTERM",
    );
    const draining = await fetch(`${served.url}/readyz`);
    expect(await draining.json()).toEqual({ ready: false, status: "draining", dependencies: {} });
    const refused = await fetch(`${served.url}/api/documents`, { headers: CONSOLE_HEADERS });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("shutting_down");
    expect((await fetch(`${served.url}/healthz`)).status).toBe(200);
    const metrics = await (await fetch(`${served.url}/metrics`)).text();
    expect(metrics).toContain("folio_ingestion_jobs_in_flight 1");
    expect(metrics).toMatch(/folio_http_requests_refused_total\{reason="draining",route="other"\} 1\b/);

    // The upload admitted before SIGTERM finishes and is stored; then the process exits 0.
    const body = await upload.done;
    const result = body
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; result?: { status: string; chunks: number } })
      .find((line) => line.type === "result");
    expect(result?.result?.status).toBe("ingested");
    expect(result?.result?.chunks).toBeGreaterThan(10);
    expect(await served.exited).toEqual({ code: 0, signal: null });

    const lines = logLines(served.stderr());
    const messages = lines.map((line) => line.msg);
    expect(messages).toContain("work in progress finished");
    // Lines of the upload request — the HTTP line and ingestion's own, from a logger never given the id.
    const ofUpload = lines.filter((line) => line.requestId === upload.requestId).map((line) => line.msg);
    expect(ofUpload).toContain("http request");
    expect(ofUpload.some((message) => String(message).startsWith("file ingested"))).toBe(true);
  }, 180_000);

  it("cuts work off at the end of the grace period and still exits 0", async () => {
    const served = await serve({ FOLIO_SHUTDOWN_GRACE_SECONDS: "1" });
    const upload = await startUpload(served.url, "handbook.md", longDocument(1200));
    // The server cuts this upload's connection off; that is the expected end of its body.
    const cutOff = upload.done.then(
      () => "finished",
      () => "cut off",
    );
    await upload.embeddingStarted;
    served.child.kill("SIGTERM");
    // Exits after its grace period with the upload cut off, not after the whole upload (minutes here).
    expect(await served.exited).toEqual({ code: 0, signal: null });
    expect(await cutOff).toBe("cut off");
    const messages = logLines(served.stderr()).map((line) => line.msg);
    expect(messages).toContain("grace period over: requests still running are cut off");
  }, 180_000);

  it("answers /metrics in Prometheus text with the questions asked", async () => {
    const served = await serve();
    // A question about an empty console is answered without a search; give it something to search.
    const upload = await startUpload(served.url, "rota.md", longDocument(3));
    await upload.done;
    const asked = await fetch(`${served.url}/api/ask`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...CONSOLE_HEADERS },
      body: JSON.stringify({ question: "Who inspects the forklifts?" }),
    });
    expect(asked.status).toBe(200);
    await asked.text();
    const response = await fetch(`${served.url}/metrics`);
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = await response.text();
    expect(text).toMatch(/^folio_questions_total\{adapter="console",outcome="(answered|noContext)"\} 1$/m);
    expect(text).toMatch(/^folio_ingestion_jobs_total\{adapter="console",outcome="ingested"\} 1$/m);
    // Markdown has no pages (only PDFs and Office documents count them).
    expect(text).toMatch(/^folio_ingestion_pages_total 0$/m);
    expect(text).toContain("# TYPE folio_question_stage_duration_seconds histogram");
    expect(text).toContain("process_resident_memory_bytes");
    served.child.kill("SIGTERM");
    expect(await served.exited).toEqual({ code: 0, signal: null });
    await sleep(0);
  }, 120_000);
});
