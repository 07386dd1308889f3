/**
 * The Teams upload reply kept current while the passages are embedded: progress at most once per
 * interval (coalesced to the latest), the outcome at once and last, and nothing more after stop().
 */
import { describe, expect, it } from "vitest";
import { createMeaningFollower } from "../../adapters/teams/teams-meaning-follower.js";
import { buildIngestResultText } from "../../adapters/teams/teams-message-format.js";
import type { IngestResult, MeaningUpdate } from "../../src/ingest/ingest-result.js";

const describeUpdate = (update: MeaningUpdate) =>
  update.state === "embedding" ? `${update.done}/${update.total}` : update.state;

describe("Teams meaning follower", () => {
  it("edits with the first progress, skips progress within the interval, and ends with the outcome", async () => {
    const follower = createMeaningFollower();
    const edits: string[] = [];
    let firstEdit: () => void = () => {};
    const edited = new Promise<void>((resolve) => {
      firstEdit = resolve;
    });
    const following = follower.follow({
      edit: async (update) => {
        edits.push(describeUpdate(update));
        firstEdit();
      },
      intervalMs: 3_600_000,
      stop: new AbortController().signal,
    });
    follower.onMeaning({ state: "embedding", done: 32, total: 310 });
    await edited;
    follower.onMeaning({ state: "embedding", done: 64, total: 310 });
    follower.onMeaning({ state: "embedding", done: 96, total: 310 });
    follower.onMeaning({ state: "ready" });
    await following;
    expect(edits).toEqual(["32/310", "ready"]);
  });

  it("shows an outcome reported before following began, and lets go when stopped", async () => {
    const early = createMeaningFollower();
    const edits: string[] = [];
    early.onMeaning({ state: "failed" });
    await early.follow({
      edit: async (update) => {
        edits.push(describeUpdate(update));
      },
      intervalMs: 0,
      stop: new AbortController().signal,
    });
    expect(edits).toEqual(["failed"]);

    const stopped = createMeaningFollower();
    const stop = new AbortController();
    const following = stopped.follow({
      edit: async (update) => {
        edits.push(describeUpdate(update));
      },
      intervalMs: 0,
      stop: stop.signal,
    });
    stop.abort();
    await following;
    stopped.onMeaning({ state: "ready" });
    expect(edits).toEqual(["failed"]);
  });

  it("words the reply as the embedding goes", () => {
    const result: IngestResult = {
      file: "10-K.pdf",
      documentId: "d",
      status: "ingested",
      pages: 83,
      chunks: 195,
      searchableBy: "keywords",
      meaningPending: true,
    };
    expect(buildIngestResultText(result, null, { state: "embedding", done: 120, total: 195 })).toBe(
      "Indexed 10-K.pdf: 83 pages, 195 chunks. Searchable by keywords now; embedding 120/195 passages for search by meaning…",
    );
    expect(buildIngestResultText(result, "General", { state: "ready" })).toBe(
      "Indexed 10-K.pdf for General: 83 pages, 195 chunks. Searchable by keywords and by meaning.",
    );
  });
});
