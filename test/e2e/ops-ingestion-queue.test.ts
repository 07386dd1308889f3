/**
 * The upload queue's bookkeeping (pure logic: the ingestion behind it is a stand-in whose files finish
 * when the test says): concurrency is never exceeded, waiting uploads hear "queued" and run in order,
 * one past the depth is refused with `ingestion_busy`, and a cancelled waiter leaves the line.
 */
import { describe, expect, it } from "vitest";
import { isFolioError } from "../../src/errors.js";
import type { IngestionService } from "../../src/ingest/ingest-file.js";
import type { IngestInput, IngestResult, IngestStage } from "../../src/ingest/ingest-result.js";
import { createIngestionQueue } from "../../src/ingest/ingestion-queue.js";

function controllableIngestion() {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  let concurrent = 0;
  let peak = 0;
  const service: IngestionService = {
    ingestFile(input: IngestInput) {
      started.push(input.fileName);
      concurrent += 1;
      peak = Math.max(peak, concurrent);
      return new Promise<IngestResult>((resolve) => {
        finishers.set(input.fileName, () => {
          concurrent -= 1;
          resolve({ file: input.fileName, documentId: null, status: "ingested", pages: 1, chunks: 1 });
        });
      });
    },
  };
  return {
    service,
    started,
    peak: () => peak,
    finish(fileName: string) {
      const finish = finishers.get(fileName);
      if (!finish) throw new Error(`${fileName} has not started`);
      finish();
    },
  };
}

function input(fileName: string, stages: IngestStage[] = [], signal?: AbortSignal): IngestInput {
  return {
    bytes: new Uint8Array([1]),
    fileName,
    spaceId: "space",
    uploader: null,
    onProgress: (stage) => stages.push(stage),
    ...(signal ? { signal } : {}),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("ingestion queue", () => {
  it("runs at most `concurrency` files, queues the rest in order and refuses one past the depth", async () => {
    const ingestion = controllableIngestion();
    const queue = createIngestionQueue(ingestion.service, { concurrency: 2, maxQueued: 2 });
    const thirdStages: IngestStage[] = [];
    const results = [
      queue.ingestFile(input("a")),
      queue.ingestFile(input("b")),
      queue.ingestFile(input("c", thirdStages)),
      queue.ingestFile(input("d")),
    ];
    await settle();
    expect(ingestion.started).toEqual(["a", "b"]);
    expect(thirdStages).toEqual(["queued"]);
    expect(queue.depth()).toEqual({ running: 2, waiting: 2 });

    const refused = await queue.ingestFile(input("e")).catch((error: unknown) => error);
    expect(isFolioError(refused) && refused.code).toBe("ingestion_busy");
    expect((refused as Error).message).toContain("send e again in a few minutes");

    ingestion.finish("a");
    await settle();
    expect(ingestion.started).toEqual(["a", "b", "c"]);
    // A newcomer joins the back of the line.
    const late = queue.ingestFile(input("f"));
    await settle();
    expect(ingestion.started).toEqual(["a", "b", "c"]);
    for (const name of ["b", "c", "d", "f"]) {
      ingestion.finish(name);
      await settle();
    }
    expect((await Promise.all([...results, late])).map((result) => result.file)).toEqual(["a", "b", "c", "d", "f"]);
    expect(ingestion.started).toEqual(["a", "b", "c", "d", "f"]);
    expect(ingestion.peak()).toBe(2);
    expect(queue.depth()).toEqual({ running: 0, waiting: 0 });
  });

  it("takes a cancelled upload out of the line without running it", async () => {
    const ingestion = controllableIngestion();
    const queue = createIngestionQueue(ingestion.service, { concurrency: 1, maxQueued: 4 });
    const running = queue.ingestFile(input("a"));
    const controller = new AbortController();
    const cancelled = queue.ingestFile(input("b", [], controller.signal)).catch((error: unknown) => error);
    const next = queue.ingestFile(input("c"));
    await settle();
    controller.abort(new Error("uploader went away"));
    expect(((await cancelled) as Error).message).toBe("uploader went away");
    expect(queue.depth()).toEqual({ running: 1, waiting: 1 });
    ingestion.finish("a");
    await settle();
    ingestion.finish("c");
    expect((await running).file).toBe("a");
    expect((await next).file).toBe("c");
    expect(ingestion.started).toEqual(["a", "c"]);
  });
});
