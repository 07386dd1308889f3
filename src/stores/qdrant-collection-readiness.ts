/**
 * Start-up against a Qdrant cluster. A collection is created through the cluster's consensus, and for
 * a moment afterwards its shards are not yet active on every peer: reads answer HTTP 500 "0 of 0 read
 * operations failed", a peer that has not applied the creation answers 404 "Collection … doesn't
 * exist", and two replicas creating it at once see "already exists" (409, or 400 on older servers).
 * Every replica therefore retries those answers with a bounded exponential backoff, and waits until
 * each shard of the collection has an active replica and none is still initializing
 * (GET /collections/{name}/cluster) before it reads or writes. On one node the shards are active at
 * once, so this costs one request.
 */
import type { QdrantClient, Schemas } from "@qdrant/js-client-rest";
import { FolioError } from "../errors.js";
import type { Logger } from "../logger.js";

export type SettlingOptions = {
  /** Give up after this long (QDRANT_START_TIMEOUT_SECONDS); the error says what was still not ready. */
  timeoutMs: number;
  /** First pause between tries; doubled each try up to `maxDelayMs`. */
  initialDelayMs: number;
  maxDelayMs: number;
};

export const DEFAULT_SETTLING_OPTIONS: SettlingOptions = { timeoutMs: 60_000, initialDelayMs: 100, maxDelayMs: 2_000 };

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

function httpStatus(error: unknown): number | null {
  if (!(error instanceof FolioError)) return null;
  const status = error.details.status;
  return typeof status === "number" ? status : null;
}

/** "already exists": another replica created the collection (or the index) first. */
export function isAlreadyExists(error: unknown): boolean {
  const status = httpStatus(error);
  return (status === 409 || status === 400) && error instanceof Error && /already exists/i.test(error.message);
}

/**
 * Answers a collection gives while it settles on a cluster: any HTTP 500 (the shards are not active
 * yet), and a 404 naming the collection (this peer has not applied the creation yet). Connection
 * failures, auth errors and 503s are not retried here: they are not settling, and fail start-up at once.
 */
export function isSettlingError(error: unknown): boolean {
  const status = httpStatus(error);
  if (status === 500) return true;
  return status === 404 && error instanceof Error && /collection|not found/i.test(error.message);
}

function delays(options: SettlingOptions): () => number {
  let next = options.initialDelayMs;
  return () => {
    const current = next;
    next = Math.min(next * 2, options.maxDelayMs);
    return current;
  };
}

/** Runs `request` again while it fails with a settling answer, until it succeeds or the time is up. */
export async function retryWhileSettling<Result>(
  operation: string,
  request: () => Promise<Result>,
  context: { options: SettlingOptions; logger: Logger; collection: string },
): Promise<Result> {
  const deadline = Date.now() + context.options.timeoutMs;
  const nextDelay = delays(context.options);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await request();
    } catch (error) {
      const delay = nextDelay();
      if (!isSettlingError(error) || Date.now() + delay > deadline) throw error;
      context.logger.debug(
        { collection: context.collection, operation, attempt, delayMs: delay, error: (error as Error).message },
        "qdrant collection still settling; retrying",
      );
      await sleep(delay);
    }
  }
}

/** Shards with no active replica, and replicas still initializing, as "shard 0 (Initializing on peer 7)". */
export function inactiveShards(info: Schemas["CollectionClusterInfo"]): string[] {
  const replicas = [
    ...info.local_shards.map((shard) => ({ shardId: shard.shard_id, peerId: info.peer_id, state: shard.state })),
    ...info.remote_shards.map((shard) => ({ shardId: shard.shard_id, peerId: shard.peer_id, state: shard.state })),
  ];
  const problems: string[] = [];
  for (let shardId = 0; shardId < info.shard_count; shardId += 1) {
    const ofShard = replicas.filter((replica) => replica.shardId === shardId);
    const settling = ofShard.filter((replica) => replica.state === "Initializing");
    if (ofShard.some((replica) => replica.state === "Active") && settling.length === 0) continue;
    const states = ofShard.map((replica) => `${replica.state} on peer ${replica.peerId}`).join(", ");
    problems.push(`shard ${shardId} (${states || "no replica known yet"})`);
  }
  return problems;
}

/** Waits until every shard of the collection has an active replica and none is initializing. */
export async function waitForActiveShards(options: {
  client: QdrantClient;
  call: <Result>(operation: string, request: () => Promise<Result>) => Promise<Result>;
  collection: string;
  settling: SettlingOptions;
  logger: Logger;
}): Promise<void> {
  const { client, call, collection, settling, logger } = options;
  const deadline = Date.now() + settling.timeoutMs;
  const nextDelay = delays(settling);
  for (;;) {
    const info = await retryWhileSettling(
      "read collection shards",
      () => call("read collection shards", () => client.collectionClusterInfo(collection)),
      { options: { ...settling, timeoutMs: Math.max(0, deadline - Date.now()) }, logger, collection },
    );
    const problems = inactiveShards(info);
    if (problems.length === 0) return;
    const delay = nextDelay();
    if (Date.now() + delay > deadline) {
      throw new FolioError(
        "vector_store_not_ready",
        `The Qdrant collection "${collection}" is not ready after ${Math.round(settling.timeoutMs / 1000)} s: ${problems.join("; ")}. Check that every Qdrant node is up (GET /cluster on any node), then start Folio again; raise QDRANT_START_TIMEOUT_SECONDS if the cluster is only slow.`,
        { retryable: true, details: { collection, problems } },
      );
    }
    logger.debug({ collection, problems, delayMs: delay }, "waiting for the qdrant collection's shards");
    await sleep(delay);
  }
}
