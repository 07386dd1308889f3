/**
 * A local HTTP stand-in for a Qdrant server, for fast tests of what the Qdrant adapter sends. It records
 * every request (method, path with query string, JSON body) and answers in the envelope Qdrant's OpenAPI
 * documents: `{"result": ..., "status": "ok", "time": seconds}` on success and
 * `{"status": {"error": "..."}, "time": seconds}` on failure. It computes no search results: tests
 * script the answers they need with `answer()`; the default routes cover collection set-up and writes
 * on one node. Tests of a cluster script the answers a settling collection gives (see
 * qdrant-cluster-start-up.test.ts): 500s, 404s, 409 on a second create, replicas still initializing.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type RecordedRequest = { method: string; path: string; body: unknown };
export type StandInReply = { status: number; body: unknown; headers?: Record<string, string> };
type Route = { method: string; path: RegExp; reply: (request: RecordedRequest) => StandInReply };

export const ok = (result: unknown): StandInReply => ({ status: 200, body: { result, status: "ok", time: 0.000_42 } });
export const failure = (status: number, error: string, headers?: Record<string, string>): StandInReply => ({
  status,
  body: { status: { error }, time: 0.000_1 },
  headers,
});
const completed = (operationId: number) => ok({ operation_id: operationId, status: "completed" });

/** GET /collections/{name} for a collection as Folio creates it (shape of Qdrant's CollectionInfo). */
export function collectionInfo(options: {
  vectors: Record<string, unknown>;
  sparseVectors?: Record<string, unknown>;
  payloadSchema?: Record<string, unknown>;
  /** Collection parameters other than the vectors (shard_number, replication_factor, …). */
  params?: Record<string, unknown>;
  quantizationConfig?: unknown;
}): unknown {
  return {
    status: "green",
    optimizer_status: "ok",
    indexed_vectors_count: 0,
    points_count: 0,
    segments_count: 2,
    config: {
      params: {
        vectors: options.vectors,
        shard_number: 1,
        replication_factor: 1,
        write_consistency_factor: 1,
        on_disk_payload: true,
        sparse_vectors: options.sparseVectors ?? {},
        ...options.params,
      },
      hnsw_config: { m: 16, ef_construct: 100, full_scan_threshold: 10_000, max_indexing_threads: 0, on_disk: false },
      optimizer_config: {
        deleted_threshold: 0.2,
        vacuum_min_vector_number: 1000,
        default_segment_number: 0,
        max_segment_size: null,
        memmap_threshold: null,
        indexing_threshold: 10_000,
        flush_interval_sec: 5,
        max_optimization_threads: null,
      },
      wal_config: { wal_capacity_mb: 32, wal_segments_ahead: 0 },
      quantization_config: options.quantizationConfig ?? null,
    },
    payload_schema: options.payloadSchema ?? {},
  };
}

/** GET /collections/{name}/cluster as the peer `peerId` answers it (Qdrant's CollectionClusterInfo). */
export function clusterInfo(options: {
  peerId: number;
  shards: Array<{ shardId: number; peerId: number; state: string }>;
}): unknown {
  const shardCount = new Set(options.shards.map((shard) => shard.shardId)).size;
  return {
    peer_id: options.peerId,
    shard_count: shardCount,
    local_shards: options.shards
      .filter((shard) => shard.peerId === options.peerId)
      .map((shard) => ({ shard_id: shard.shardId, points_count: 0, state: shard.state })),
    remote_shards: options.shards
      .filter((shard) => shard.peerId !== options.peerId)
      .map((shard) => ({ shard_id: shard.shardId, peer_id: shard.peerId, state: shard.state })),
    shard_transfers: [],
  };
}

export type QdrantStandIn = {
  url: string;
  requests: RecordedRequest[];
  /** Scripted answers, checked before the defaults (last added first). */
  answer(method: string, path: RegExp, reply: (request: RecordedRequest) => StandInReply): void;
  /** Point ids the stand-in holds, for the retrieve route (updateSparse / updateDense look them up). */
  storedIds: Set<string>;
  close(): Promise<void>;
};

function readBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => {
      const text = Buffer.concat(parts).toString("utf8");
      try {
        resolve(text.length === 0 ? null : JSON.parse(text));
      } catch (error) {
        reject(error);
      }
    });
    request.on("error", reject);
  });
}

export async function startQdrantStandIn(options: { collection: string; exists: boolean }): Promise<QdrantStandIn> {
  const requests: RecordedRequest[] = [];
  const storedIds = new Set<string>();
  const scripted: Route[] = [];
  const base = `/collections/${options.collection}`;
  let exists = options.exists;
  let operationId = 0;
  const payloadSchema: Record<string, unknown> = {};

  const defaults: Route[] = [
    { method: "GET", path: /^\/$/, reply: () => ({ status: 200, body: { title: "qdrant", version: "1.16.0" } }) },
    { method: "GET", path: new RegExp(`^${base}/exists$`), reply: () => ok({ exists }) },
    {
      method: "PUT",
      path: new RegExp(`^${base}(\\?.*)?$`),
      reply: () => {
        // What a second replica creating the same collection gets from Qdrant.
        if (exists) return failure(409, `Wrong input: Collection \`${options.collection}\` already exists!`);
        exists = true;
        return ok(true);
      },
    },
    // One node: the collection's one shard is local and active as soon as it exists.
    {
      method: "GET",
      path: new RegExp(`^${base}/cluster$`),
      reply: () =>
        exists
          ? ok(clusterInfo({ peerId: 1, shards: [{ shardId: 0, peerId: 1, state: "Active" }] }))
          : failure(404, `Not found: Collection \`${options.collection}\` doesn't exist!`),
    },
    {
      method: "GET",
      path: new RegExp(`^${base}$`),
      reply: () =>
        ok(
          collectionInfo({
            vectors: { dense: { size: 384, distance: "Cosine" } },
            sparseVectors: { sparse: {} },
            payloadSchema,
          }),
        ),
    },
    {
      method: "PUT",
      path: new RegExp(`^${base}/index\\?`),
      reply: (request) => {
        const { field_name: field, field_schema: schema } = request.body as {
          field_name: string;
          field_schema: unknown;
        };
        payloadSchema[field] = { data_type: "keyword", params: schema, points: 0 };
        return completed(operationId++);
      },
    },
    { method: "PUT", path: new RegExp(`^${base}/points\\?`), reply: () => completed(operationId++) },
    { method: "POST", path: new RegExp(`^${base}/points/delete\\?`), reply: () => completed(operationId++) },
    {
      method: "POST",
      path: new RegExp(`^${base}/points/batch\\?`),
      reply: (request) =>
        ok(
          (request.body as { operations: unknown[] }).operations.map(() => ({
            operation_id: operationId++,
            status: "completed",
          })),
        ),
    },
    {
      method: "POST",
      path: new RegExp(`^${base}/points$`),
      reply: (request) =>
        ok(
          (request.body as { ids: string[] }).ids
            .filter((id) => storedIds.has(id))
            .map((id) => ({ id, payload: null, vector: null, shard_key: null, order_value: null })),
        ),
    },
  ];

  const server: Server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const recorded: RecordedRequest = {
      method: request.method ?? "",
      path: request.url ?? "",
      body: await readBody(request),
    };
    requests.push(recorded);
    const route = [...scripted, ...defaults].find(
      (candidate) => candidate.method === recorded.method && candidate.path.test(recorded.path),
    );
    const reply = route ? route.reply(recorded) : failure(404, `Not found: no stand-in route for ${recorded.path}`);
    response.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
    response.end(JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    storedIds,
    answer(method, path, reply) {
      scripted.unshift({ method, path, reply });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
