/**
 * What the Qdrant vector index sends over REST, checked against a local stand-in (no Qdrant server runs
 * here): exact request bodies for set-up, writes and queries, the schema refusal, and error mapping.
 * The search results themselves are verified only by the contract suite against a real server
 * (stores-qdrant.test.ts, `npm run test:qdrant`).
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.js";
import { openStores } from "../../src/stores/open-stores.js";
import { openQdrantIndex } from "../../src/stores/qdrant-index.js";
import { fuseHybridLists } from "../../src/stores/reciprocal-rank-fusion.js";
import type { HybridQuery } from "../../src/stores/vector-index.js";
import { collectionInfo, failure, ok, type QdrantStandIn, startQdrantStandIn } from "../support/qdrant-stand-in.js";

const COLLECTION = "folio_test";
const PAYLOAD_INDEX_BODIES = [
  { field_name: "spaceId", field_schema: { type: "keyword", is_tenant: true } },
  { field_name: "documentId", field_schema: { type: "keyword" } },
  { field_name: "denseModel", field_schema: { type: "keyword" } },
];
const FULL_PAYLOAD_SCHEMA = Object.fromEntries(
  PAYLOAD_INDEX_BODIES.map((index) => [
    index.field_name,
    { data_type: "keyword", params: index.field_schema, points: 0 },
  ]),
);

let standIn: QdrantStandIn | null = null;
afterEach(async () => {
  await standIn?.close();
  standIn = null;
});

async function openAgainst(options: { exists: boolean; denseDimensions?: number }) {
  standIn = await startQdrantStandIn({ collection: COLLECTION, exists: options.exists });
  return standIn;
}

const openIndex = (server: QdrantStandIn, denseDimensions = 384) =>
  openQdrantIndex({ url: server.url, apiKey: null, collection: COLLECTION, denseDimensions, logger: silentLogger });

const unit = (index: number, dimensions = 384) => Array.from({ length: dimensions }, (_, at) => (at === index ? 1 : 0));
const lines = (server: QdrantStandIn) => server.requests.map((request) => `${request.method} ${request.path}`);

describe("Qdrant collection set-up", () => {
  it("creates the collection with named dense and sparse vectors and the keyword payload indexes", async () => {
    const server = await openAgainst({ exists: false });
    await openIndex(server);
    expect(lines(server)).toEqual([
      `GET /collections/${COLLECTION}/exists`,
      `PUT /collections/${COLLECTION}`,
      `GET /collections/${COLLECTION}/cluster`,
      `GET /collections/${COLLECTION}`,
      `PUT /collections/${COLLECTION}/index?wait=true`,
      `PUT /collections/${COLLECTION}/index?wait=true`,
      `PUT /collections/${COLLECTION}/index?wait=true`,
    ]);
    // One-node defaults, written out so the collection is what the configuration says.
    expect(server.requests[1]?.body).toEqual({
      vectors: { dense: { size: 384, distance: "Cosine" } },
      sparse_vectors: { sparse: { modifier: "none" } },
      shard_number: 1,
      replication_factor: 1,
      write_consistency_factor: 1,
      on_disk_payload: true,
    });
    expect(server.requests.slice(4).map((request) => request.body)).toEqual(PAYLOAD_INDEX_BODIES);
  });

  it("only reads an existing collection that already fits", async () => {
    const server = await openAgainst({ exists: true });
    server.answer("GET", new RegExp(`^/collections/${COLLECTION}$`), () =>
      ok(
        collectionInfo({
          vectors: { dense: { size: 384, distance: "Cosine" } },
          sparseVectors: { sparse: {} },
          payloadSchema: FULL_PAYLOAD_SCHEMA,
        }),
      ),
    );
    await openIndex(server);
    expect(lines(server)).toEqual([
      `GET /collections/${COLLECTION}/exists`,
      `GET /collections/${COLLECTION}/cluster`,
      `GET /collections/${COLLECTION}`,
    ]);
  });

  it("refuses at start a collection with another vector layout, size, distance or an IDF modifier", async () => {
    const server = await openAgainst({ exists: true });
    const layouts: Array<[Record<string, unknown>, Record<string, unknown>, string]> = [
      [{ size: 384, distance: "Cosine" }, {}, "vector_store_schema_mismatch"],
      [{ text: { size: 384, distance: "Cosine" } }, { sparse: {} }, "vector_store_schema_mismatch"],
      [{ dense: { size: 768, distance: "Cosine" } }, { sparse: {} }, "dense_dimension_mismatch"],
      [{ dense: { size: 384, distance: "Dot" } }, { sparse: {} }, "vector_store_schema_mismatch"],
      [{ dense: { size: 384, distance: "Cosine" } }, { sparse: { modifier: "idf" } }, "vector_store_schema_mismatch"],
    ];
    for (const [vectors, sparseVectors, code] of layouts) {
      server.answer("GET", new RegExp(`^/collections/${COLLECTION}$`), () =>
        ok(collectionInfo({ vectors, sparseVectors })),
      );
      await expect(openIndex(server)).rejects.toMatchObject({ code });
    }
    await expect(openIndex(server)).rejects.toThrow(/QDRANT_COLLECTION to a new name/);
    // A refused collection is never written to.
    expect(server.requests.every((request) => request.method === "GET")).toBe(true);
  });
});

describe("Qdrant writes", () => {
  it("upserts in batches of 256 with wait=true, summing repeated term ids and marking chunks without a dense vector", async () => {
    const server = await openAgainst({ exists: false });
    const index = await openIndex(server);
    server.requests.length = 0;
    const documentId = randomUUID();
    const chunks = Array.from({ length: 300 }, (_, position) => ({
      chunkId: randomUUID(),
      documentId,
      spaceId: "console:a",
      ...(position === 0 ? {} : { dense: unit(position % 384), denseModel: "bge-small-en-v1.5" }),
      sparse: { indices: [9, 4, 9], values: [1, 0.5, 2] },
    }));
    await index.upsert(chunks);
    expect(lines(server)).toEqual([
      `PUT /collections/${COLLECTION}/points?wait=true`,
      `PUT /collections/${COLLECTION}/points?wait=true`,
    ]);
    const batches = server.requests.map((request) => (request.body as { points: unknown[] }).points);
    expect(batches.map((points) => points.length)).toEqual([256, 44]);
    expect(batches[0]?.slice(0, 2)).toEqual([
      {
        id: chunks[0]?.chunkId,
        vector: { sparse: { indices: [4, 9], values: [0.5, 3] } },
        payload: { spaceId: "console:a", documentId, denseModel: null },
      },
      {
        id: chunks[1]?.chunkId,
        vector: { dense: unit(1), sparse: { indices: [4, 9], values: [0.5, 3] } },
        payload: { spaceId: "console:a", documentId, denseModel: "bge-small-en-v1.5" },
      },
    ]);
  });

  it("deletes a document by a payload filter", async () => {
    const server = await openAgainst({ exists: false });
    const index = await openIndex(server);
    server.requests.length = 0;
    const documentId = randomUUID();
    await index.deleteByDocument(documentId);
    expect(server.requests).toEqual([
      {
        method: "POST",
        path: `/collections/${COLLECTION}/points/delete?wait=true`,
        body: { filter: { must: [{ key: "documentId", match: { value: documentId } }] } },
      },
    ]);
  });

  it("updates only the vectors of points that exist, and sets the dense model with the dense vector", async () => {
    const server = await openAgainst({ exists: false });
    const index = await openIndex(server);
    const [stored, missing] = [randomUUID(), randomUUID()];
    server.storedIds.add(stored);
    server.requests.length = 0;
    await index.updateSparse([
      { chunkId: stored, sparse: { indices: [5, 2], values: [1, 2] } },
      { chunkId: missing, sparse: { indices: [1], values: [1] } },
      { chunkId: "not-a-chunk", sparse: { indices: [1], values: [1] } },
    ]);
    await index.updateDense([
      { chunkId: stored, dense: unit(3), denseModel: "model-b" },
      { chunkId: missing, dense: unit(4), denseModel: "model-b" },
    ]);
    await index.updateSparse([{ chunkId: missing, sparse: { indices: [1], values: [1] } }]);
    expect(server.requests).toEqual([
      {
        method: "POST",
        path: `/collections/${COLLECTION}/points`,
        body: { ids: [stored, missing], with_payload: false, with_vector: false },
      },
      {
        method: "POST",
        path: `/collections/${COLLECTION}/points/batch?wait=true`,
        body: {
          operations: [
            { update_vectors: { points: [{ id: stored, vector: { sparse: { indices: [2, 5], values: [2, 1] } } }] } },
          ],
        },
      },
      {
        method: "POST",
        path: `/collections/${COLLECTION}/points`,
        body: { ids: [stored, missing], with_payload: false, with_vector: false },
      },
      {
        method: "POST",
        path: `/collections/${COLLECTION}/points/batch?wait=true`,
        body: {
          operations: [
            { update_vectors: { points: [{ id: stored, vector: { dense: unit(3) } }] } },
            { set_payload: { payload: { denseModel: "model-b" }, points: [stored] } },
          ],
        },
      },
      // Nothing of the last call exists, so nothing is written.
      {
        method: "POST",
        path: `/collections/${COLLECTION}/points`,
        body: { ids: [missing], with_payload: false, with_vector: false },
      },
    ]);
  });
});

describe("Qdrant queries", () => {
  const scored = (id: string, score: number, spaceId = "console:a") => ({
    id,
    version: 3,
    score,
    payload: { spaceId, documentId: `doc-${id}` },
  });

  it("sends hybrid search as one Query API call: dense and sparse prefetches with the space filter, fused by rrf", async () => {
    const server = await openAgainst({ exists: false });
    const index = await openIndex(server);
    server.requests.length = 0;
    const [first, second] = [randomUUID(), randomUUID()];
    server.answer("POST", new RegExp(`^/collections/${COLLECTION}/points/query$`), () =>
      ok({ points: [scored(first, 0.049_180_33), scored(second, 0.032_258_06)] }),
    );
    const query: HybridQuery = {
      spaceIds: ["console:a"],
      limit: 5,
      dense: unit(7),
      sparse: { indices: [8, 3], values: [1.5, 0.25] },
      candidates: 50,
      fusion: { k: 60, denseWeight: 2, sparseWeight: 1 },
    };
    const hits = await index.queryHybrid(query);
    const dense = {
      query: unit(7),
      using: "dense",
      filter: { must: [{ key: "spaceId", match: { value: "console:a" } }] },
      limit: 50,
    };
    const sparse = {
      query: { indices: [3, 8], values: [0.25, 1.5] },
      using: "sparse",
      filter: { must: [{ key: "spaceId", match: { value: "console:a" } }] },
      limit: 50,
    };
    expect(server.requests).toEqual([
      {
        method: "POST",
        path: `/collections/${COLLECTION}/points/query`,
        body: {
          // Weight 2:1 as two copies of the dense list; k 61 because Qdrant counts positions from 0.
          prefetch: [dense, dense, sparse],
          query: { rrf: { k: 61 } },
          limit: 5,
          with_payload: ["spaceId", "documentId"],
        },
      },
    ]);
    expect(hits).toEqual([
      { chunkId: first, documentId: `doc-${first}`, spaceId: "console:a", score: 0.049_180_33 },
      { chunkId: second, documentId: `doc-${second}`, spaceId: "console:a", score: 0.032_258_06 },
    ]);
  });

  it("fuses client-side from one batch call when Qdrant's rrf cannot express the fusion", async () => {
    const server = await openAgainst({ exists: false });
    const index = await openIndex(server);
    server.requests.length = 0;
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    const denseList = [scored(a, 0.9, "console:b"), scored(b, 0.8)];
    const sparseList = [scored(c, 7), scored(a, 2, "console:b"), scored(b, 0)];
    server.answer("POST", new RegExp(`^/collections/${COLLECTION}/points/query/batch$`), () =>
      ok([{ points: denseList }, { points: sparseList }]),
    );
    const query: HybridQuery = {
      spaceIds: ["console:a", "console:b"],
      limit: 10,
      dense: unit(1),
      sparse: { indices: [2], values: [1] },
      candidates: 20,
      fusion: { k: 60.5, denseWeight: 2, sparseWeight: 1 },
    };
    const hits = await index.queryHybrid(query);
    const filter = { must: [{ key: "spaceId", match: { any: ["console:a", "console:b"] } }] };
    expect(server.requests.map((request) => request.body)).toEqual([
      {
        searches: [
          { query: unit(1), using: "dense", filter, limit: 20, with_payload: ["spaceId", "documentId"] },
          {
            query: { indices: [2], values: [1] },
            using: "sparse",
            filter,
            limit: 20,
            with_payload: ["spaceId", "documentId"],
          },
        ],
      },
    ]);
    const asHits = (points: ReturnType<typeof scored>[]) =>
      points.map((point) => ({
        chunkId: point.id,
        documentId: point.payload.documentId,
        spaceId: point.payload.spaceId,
        score: point.score,
      }));
    // The sparse list's zero-score point is no match and is left out before fusing.
    expect(hits).toEqual(fuseHybridLists(asHits(denseList), asHits(sparseList.slice(0, 2)), query));
    expect(hits.map((hit) => hit.chunkId)).toEqual([a, b, c]);
  });

  it("asks for full scans only when opened for the contract, and counts chunks by dense model", async () => {
    const server = await openAgainst({ exists: false });
    const index = await openQdrantIndex({
      url: server.url,
      apiKey: null,
      collection: COLLECTION,
      denseDimensions: 384,
      logger: silentLogger,
      exactSearch: true,
    });
    server.requests.length = 0;
    server.answer("POST", new RegExp(`^/collections/${COLLECTION}/points/query$`), () => ok({ points: [] }));
    server.answer("POST", new RegExp(`^/collections/${COLLECTION}/facet$`), () =>
      ok({
        hits: [
          { value: "model-b", count: 1 },
          { value: "model-a", count: 3 },
        ],
      }),
    );
    server.answer("POST", new RegExp(`^/collections/${COLLECTION}/points/count$`), () => ok({ count: 2 }));
    expect(await index.queryDense(unit(0), { spaceIds: ["console:a"], limit: 3 })).toEqual([]);
    expect(await index.querySparse({ indices: [1], values: [2] }, { spaceIds: ["console:a"], limit: 3 })).toEqual([]);
    expect(await index.countByDenseModel("console:a")).toEqual([
      { model: "model-a", chunks: 3 },
      { model: "model-b", chunks: 1 },
      { model: null, chunks: 2 },
    ]);
    const inSpace = { key: "spaceId", match: { value: "console:a" } };
    // The facet and the count go out together, so they may arrive in either order.
    const byPath = (left: unknown[], right: unknown[]) => String(left[0]).localeCompare(String(right[0]));
    const sent = server.requests.map((request) => [request.path, request.body]);
    expect([...sent.slice(0, 2), ...sent.slice(2).sort(byPath)]).toEqual([
      [
        `/collections/${COLLECTION}/points/query`,
        {
          query: unit(0),
          using: "dense",
          filter: { must: [inSpace] },
          params: { exact: true },
          limit: 3,
          with_payload: ["spaceId", "documentId"],
        },
      ],
      [
        `/collections/${COLLECTION}/points/query`,
        {
          query: { indices: [1], values: [2] },
          using: "sparse",
          filter: { must: [inSpace] },
          params: { exact: true },
          limit: 3,
          with_payload: ["spaceId", "documentId"],
        },
      ],
      [
        `/collections/${COLLECTION}/facet`,
        { key: "denseModel", filter: { must: [inSpace] }, limit: 1000, exact: true },
      ],
      [
        `/collections/${COLLECTION}/points/count`,
        { filter: { must: [inSpace, { is_empty: { key: "denseModel" } }] }, exact: true },
      ],
    ]);
  });
});

describe("Qdrant error mapping", () => {
  it("maps 401, 503, 429, 400 and a refused connection to Folio codes that say what to do", async () => {
    const server = await openAgainst({ exists: true });
    const exists = new RegExp(`^/collections/${COLLECTION}/exists$`);
    server.answer("GET", exists, () => failure(401, "Must provide an API key or an Authorization bearer token"));
    await expect(openIndex(server)).rejects.toMatchObject({
      code: "vector_store_auth",
      retryable: false,
      message: expect.stringContaining("set QDRANT_API_KEY"),
    });
    server.answer("GET", exists, () => failure(503, "Service Unavailable"));
    await expect(openIndex(server)).rejects.toMatchObject({ code: "vector_store_unavailable", retryable: true });
    server.answer("GET", exists, () => failure(429, "Too many requests", { "retry-after": "7" }));
    await expect(openIndex(server)).rejects.toMatchObject({ code: "vector_store_unavailable", retryable: true });
    server.answer("GET", exists, () => ok({ exists: true }));
    server.answer("GET", new RegExp(`^/collections/${COLLECTION}$`), () =>
      ok(collectionInfo({ vectors: { dense: { size: 384, distance: "Cosine" } }, sparseVectors: { sparse: {} } })),
    );
    const index = await openIndex(server);
    server.answer("POST", new RegExp(`^/collections/${COLLECTION}/points/query$`), () =>
      failure(400, "Wrong input: Not existing vector name error: dense"),
    );
    await expect(index.queryDense(unit(0), { spaceIds: ["console:a"], limit: 1 })).rejects.toMatchObject({
      code: "vector_store_error",
      retryable: false,
      message: expect.stringContaining("Not existing vector name error: dense"),
    });
    await expect(index.queryDense([1, 0], { spaceIds: ["console:a"], limit: 1 })).rejects.toMatchObject({
      code: "dense_dimension_mismatch",
    });
  });

  it("reports a server that is not listening as unavailable and retryable", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, "127.0.0.1", () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
      });
    });
    await expect(
      openQdrantIndex({
        url: `http://127.0.0.1:${port}`,
        apiKey: null,
        collection: COLLECTION,
        denseDimensions: 384,
        logger: silentLogger,
      }),
    ).rejects.toMatchObject({
      code: "vector_store_unavailable",
      retryable: true,
      message: expect.stringContaining("ECONNREFUSED"),
    });
  });
});

describe("stores with Qdrant", () => {
  it("keeps the catalog in embedded PGlite and the vectors in Qdrant", async () => {
    const server = await openAgainst({ exists: false });
    const stores = await openStores(
      { mode: "embedded", dataDir: "memory://" },
      { denseDimensions: 384, logger: silentLogger, qdrant: { url: server.url, apiKey: null, collection: COLLECTION } },
    );
    try {
      expect(stores.vectorBackend).toBe("qdrant");
      server.requests.length = 0;
      await stores.vectorIndex?.deleteByDocument("00000000-0000-4000-8000-000000000001");
      expect(lines(server)).toEqual([`POST /collections/${COLLECTION}/points/delete?wait=true`]);
      expect(await stores.catalog.listDocuments("console:a")).toEqual([]);
    } finally {
      await stores.client.close();
    }
  });
});
