/**
 * The vector-index contract: one suite every VectorIndex implementation must pass (pgvector on PGlite
 * and PostgreSQL today, Qdrant later). Results are checked against a brute-force ranking computed here.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { SparseVector } from "../../src/domain/types.js";
import { fuseReciprocalRanks } from "../../src/stores/reciprocal-rank-fusion.js";
import type { IndexedChunk, ScoredChunkId, VectorIndex } from "../../src/stores/vector-index.js";
import { createSeededRandom } from "../support/seeded-random.js";

export type VectorIndexFactory = () => Promise<{ vectorIndex: VectorIndex; close(): Promise<void> }>;

const DIMENSIONS = 384;
const CHUNK_COUNT = 2000;
const VOCABULARY = 300;

function randomUnitVector(random: () => number): number[] {
  const values = Array.from({ length: DIMENSIONS }, () => random() * 2 - 1);
  const norm = Math.hypot(...values);
  return values.map((value) => value / norm);
}

function randomSparseVector(random: () => number, size: number): SparseVector {
  const indices = new Set<number>();
  // Term ids spread over the whole 29-bit range, like hashed terms.
  while (indices.size < size) indices.add(Math.floor(random() * VOCABULARY) * 1_000_003);
  const sorted = [...indices].sort((left, right) => left - right);
  return { indices: sorted, values: sorted.map(() => Math.round((0.1 + random() * 2) * 1000) / 1000) };
}

function dot(left: number[], right: number[]): number {
  let sum = 0;
  for (let index = 0; index < left.length; index += 1) sum += (left[index] ?? 0) * (right[index] ?? 0);
  return sum;
}

function sparseDot(left: SparseVector, right: SparseVector): number {
  const weights = new Map(left.indices.map((index, position) => [index, left.values[position] ?? 0]));
  return right.indices.reduce(
    (sum, index, position) => sum + (weights.get(index) ?? 0) * (right.values[position] ?? 0),
    0,
  );
}

function bruteForceTop(
  chunks: IndexedChunk[],
  spaceId: string,
  score: (chunk: IndexedChunk) => number,
  limit: number,
): Array<{ chunkId: string; score: number }> {
  return chunks
    .filter((chunk) => chunk.spaceId === spaceId)
    .map((chunk) => ({ chunkId: chunk.chunkId, score: score(chunk) }))
    .filter((entry) => entry.score > 0)
    .sort((left, right) => right.score - left.score)
    .slice(0, limit);
}

function expectSameRanking(actual: ScoredChunkId[], expected: Array<{ chunkId: string; score: number }>): void {
  expect(actual.map((hit) => hit.chunkId)).toEqual(expected.map((hit) => hit.chunkId));
  for (const [position, hit] of actual.entries()) {
    expect(hit.score).toBeCloseTo(expected[position]?.score ?? Number.NaN, 4);
  }
}

export function runVectorIndexContract(name: string, openVectorIndex: VectorIndexFactory): void {
  describe(`vector-index contract: ${name}`, () => {
    const random = createSeededRandom(20261122);
    const spaces = [`test:${randomUUID()}`, `test:${randomUUID()}`] as const;
    const documents = Array.from({ length: 40 }, () => randomUUID());
    const chunks: IndexedChunk[] = Array.from({ length: CHUNK_COUNT }, (_, position) => ({
      chunkId: randomUUID(),
      documentId: documents[position % documents.length] ?? "",
      spaceId: spaces[position % 2 === 0 ? 0 : 1],
      dense: randomUnitVector(random),
      denseModel: "test-embedder",
      sparse: randomSparseVector(random, 5 + Math.floor(random() * 20)),
    }));
    let opened: Awaited<ReturnType<VectorIndexFactory>>;

    beforeAll(async () => {
      opened = await openVectorIndex();
      await opened.vectorIndex.upsert(chunks);
      return () => opened.close();
    });

    it("returns the exact dense top-10 of the asked space only", async () => {
      const query = randomUnitVector(random);
      for (const spaceId of spaces) {
        const hits = await opened.vectorIndex.queryDense(query, { spaceIds: [spaceId], limit: 10 });
        expect(hits.every((hit) => hit.spaceId === spaceId)).toBe(true);
        expectSameRanking(
          hits,
          bruteForceTop(chunks, spaceId, (chunk) => dot(chunk.dense ?? [], query), 10),
        );
      }
    });

    it("returns the exact sparse top-10 of the asked space only", async () => {
      const query = randomSparseVector(random, 8);
      for (const spaceId of spaces) {
        const hits = await opened.vectorIndex.querySparse(query, { spaceIds: [spaceId], limit: 10 });
        expect(hits.every((hit) => hit.spaceId === spaceId)).toBe(true);
        expectSameRanking(
          hits,
          bruteForceTop(chunks, spaceId, (chunk) => sparseDot(chunk.sparse ?? { indices: [], values: [] }, query), 10),
        );
      }
    });

    it("answers a sparse query of thousands of terms exactly", async () => {
      // BM25 query vectors of long questions and pseudo-relevance feedback carry many terms.
      const vocabulary = [...new Set(chunks.flatMap((chunk) => chunk.sparse?.indices ?? []))];
      const extra = Array.from({ length: 5000 }, (_, position) => 7 + position * 97_001);
      const indices = [...new Set([...vocabulary, ...extra])].sort((left, right) => left - right);
      const query = { indices, values: indices.map(() => Math.round(random() * 1000) / 1000) };
      const hits = await opened.vectorIndex.querySparse(query, { spaceIds: [spaces[1]], limit: 10 });
      expectSameRanking(
        hits,
        bruteForceTop(chunks, spaces[1], (chunk) => sparseDot(chunk.sparse ?? { indices: [], values: [] }, query), 10),
      );
    });

    it("answers a sparse query above pgvector's 16,000-entry sparsevec limit exactly", async () => {
      const vocabulary = [...new Set(chunks.flatMap((chunk) => chunk.sparse?.indices ?? []))];
      const extra = Array.from({ length: 20_000 }, (_, position) => 11 + position * 26_833);
      const indices = [...new Set([...vocabulary, ...extra])].sort((left, right) => left - right);
      expect(indices.length).toBeGreaterThan(16_000);
      const query = { indices, values: indices.map(() => Math.round(random() * 1000) / 1000) };
      const hits = await opened.vectorIndex.querySparse(query, { spaceIds: [spaces[0]], limit: 10 });
      expectSameRanking(
        hits,
        bruteForceTop(chunks, spaces[0], (chunk) => sparseDot(chunk.sparse ?? { indices: [], values: [] }, query), 10),
      );
    });

    it("ignores ids that are not uuids", async () => {
      await opened.vectorIndex.deleteByDocument("not-a-document");
      await opened.vectorIndex.updateSparse([{ chunkId: "not-a-chunk", sparse: { indices: [1], values: [1] } }]);
      const hits = await opened.vectorIndex.queryDense(chunks[0]?.dense ?? [], { spaceIds: [spaces[0]], limit: 1 });
      expect(hits.map((hit) => hit.chunkId)).toEqual([chunks[0]?.chunkId]);
    });

    it("returns nothing for a space it does not hold", async () => {
      expect(
        await opened.vectorIndex.queryDense(randomUnitVector(random), {
          spaceIds: [`test:${randomUUID()}`],
          limit: 10,
        }),
      ).toEqual([]);
      expect(await opened.vectorIndex.querySparse(randomSparseVector(random, 5), { spaceIds: [], limit: 10 })).toEqual(
        [],
      );
    });

    it("replaces sparse vectors and deletes by document", async () => {
      const spaceId = `test:${randomUUID()}`;
      const documentId = randomUUID();
      const keptDocumentId = randomUUID();
      const own: IndexedChunk[] = [
        { chunkId: randomUUID(), documentId, spaceId, sparse: { indices: [5, 9], values: [1, 1] } },
        { chunkId: randomUUID(), documentId: keptDocumentId, spaceId, sparse: { indices: [9], values: [0.5] } },
      ];
      await opened.vectorIndex.upsert(own);
      const query = { indices: [5, 9], values: [1, 1] };
      expect(
        (await opened.vectorIndex.querySparse(query, { spaceIds: [spaceId], limit: 5 })).map((hit) => hit.score),
      ).toEqual([2, 0.5]);
      await opened.vectorIndex.updateSparse([
        { chunkId: own[1]?.chunkId ?? "", sparse: { indices: [5, 9], values: [3, 1] } },
      ]);
      const updated = await opened.vectorIndex.querySparse(query, { spaceIds: [spaceId], limit: 5 });
      expect(updated.map((hit) => [hit.chunkId, hit.score])).toEqual([
        [own[1]?.chunkId, 4],
        [own[0]?.chunkId, 2],
      ]);
      await opened.vectorIndex.deleteByDocument(documentId);
      const afterDelete = await opened.vectorIndex.querySparse(query, { spaceIds: [spaceId], limit: 5 });
      expect(afterDelete.map((hit) => hit.documentId)).toEqual([keptDocumentId]);
    });

    it("fuses the dense and sparse top candidates by weighted reciprocal rank", async () => {
      const dense = randomUnitVector(random);
      const sparse = randomSparseVector(random, 8);
      const fusion = { k: 60, denseWeight: 2, sparseWeight: 1 };
      const hits = await opened.vectorIndex.queryHybrid({
        spaceIds: [spaces[0]],
        limit: 10,
        dense,
        sparse,
        candidates: 30,
        fusion,
      });
      const asHits = (list: Array<{ chunkId: string; score: number }>) =>
        list.map((entry) => ({ ...entry, documentId: "", spaceId: spaces[0] }));
      const expected = fuseReciprocalRanks(
        [
          {
            results: asHits(bruteForceTop(chunks, spaces[0], (chunk) => dot(chunk.dense ?? [], dense), 30)),
            weight: 2,
          },
          {
            results: asHits(
              bruteForceTop(
                chunks,
                spaces[0],
                (chunk) => sparseDot(chunk.sparse ?? { indices: [], values: [] }, sparse),
                30,
              ),
            ),
            weight: 1,
          },
        ],
        { k: 60, limit: 10 },
      );
      expect(hits.every((hit) => hit.spaceId === spaces[0])).toBe(true);
      expectSameRanking(hits, expected);
    });

    it("keeps to the asked documents in every list when the query names some", async () => {
      const chosen = new Set<string>(documents.slice(0, 3));
      const inChosen = chunks.filter((chunk) => chosen.has(chunk.documentId));
      const dense = randomUnitVector(random);
      const sparse = randomSparseVector(random, 8);
      const query = { spaceIds: [spaces[0]], limit: 5, documentIds: [...chosen] };
      const denseHits = await opened.vectorIndex.queryDense(dense, query);
      expectSameRanking(
        denseHits,
        bruteForceTop(inChosen, spaces[0], (chunk) => dot(chunk.dense ?? [], dense), 5),
      );
      const sparseHits = await opened.vectorIndex.querySparse(sparse, query);
      expectSameRanking(
        sparseHits,
        bruteForceTop(
          inChosen,
          spaces[0],
          (chunk) => sparseDot(chunk.sparse ?? { indices: [], values: [] }, sparse),
          5,
        ),
      );
      const hybridHits = await opened.vectorIndex.queryHybrid({
        ...query,
        dense,
        sparse,
        candidates: 20,
        fusion: { k: 60, denseWeight: 2, sparseWeight: 1 },
      });
      expect(hybridHits.length).toBeGreaterThan(0);
      expect(hybridHits.every((hit) => chosen.has(hit.documentId))).toBe(true);
    });

    it("never returns another space's chunk, even the same text that matches best there", async () => {
      const ours = `test:${randomUUID()}`;
      const theirs = `test:${randomUUID()}`;
      const shared = randomUnitVector(random);
      const sharedTerms = { indices: [3, 17, 29], values: [1, 1, 1] };
      const near = shared.map((value, index) => value + (index === 0 ? 0.3 : 0));
      const norm = Math.hypot(...near);
      const [ourCopy, theirCopy, theirBest] = [randomUUID(), randomUUID(), randomUUID()];
      await opened.vectorIndex.upsert([
        {
          chunkId: ourCopy,
          documentId: randomUUID(),
          spaceId: ours,
          dense: near.map((value) => value / norm),
          denseModel: "test-embedder",
          sparse: { indices: [3], values: [1] },
        },
        {
          chunkId: theirCopy,
          documentId: randomUUID(),
          spaceId: theirs,
          dense: near.map((value) => value / norm),
          denseModel: "test-embedder",
          sparse: { indices: [3], values: [1] },
        },
        {
          chunkId: theirBest,
          documentId: randomUUID(),
          spaceId: theirs,
          dense: shared,
          denseModel: "test-embedder",
          sparse: sharedTerms,
        },
      ]);
      const query = { spaceIds: [ours], limit: 5 };
      const dense = await opened.vectorIndex.queryDense(shared, query);
      const sparse = await opened.vectorIndex.querySparse(sharedTerms, query);
      const hybrid = await opened.vectorIndex.queryHybrid({
        ...query,
        dense: shared,
        sparse: sharedTerms,
        candidates: 10,
        fusion: { k: 60, denseWeight: 1, sparseWeight: 1 },
      });
      for (const hits of [dense, sparse, hybrid]) expect(hits.map((hit) => hit.chunkId)).toEqual([ourCopy]);
      const theirHits = await opened.vectorIndex.queryDense(shared, { spaceIds: [theirs], limit: 5 });
      expect(theirHits.map((hit) => hit.chunkId)).toEqual([theirBest, theirCopy]);
    });

    it("records which model made each dense vector and replaces dense vectors with another model's", async () => {
      const spaceId = `test:${randomUUID()}`;
      const own: IndexedChunk[] = [
        {
          chunkId: randomUUID(),
          documentId: randomUUID(),
          spaceId,
          dense: randomUnitVector(random),
          denseModel: "model-a",
        },
        {
          chunkId: randomUUID(),
          documentId: randomUUID(),
          spaceId,
          dense: randomUnitVector(random),
          denseModel: "model-a",
        },
        { chunkId: randomUUID(), documentId: randomUUID(), spaceId, sparse: { indices: [4], values: [1] } },
      ];
      await opened.vectorIndex.upsert(own);
      expect(await opened.vectorIndex.countByDenseModel(spaceId)).toEqual([
        { model: "model-a", chunks: 2 },
        { model: null, chunks: 1 },
      ]);
      const replacement = randomUnitVector(random);
      await opened.vectorIndex.updateDense([
        { chunkId: own[0]?.chunkId ?? "", dense: replacement, denseModel: "model-b" },
        { chunkId: randomUUID(), dense: randomUnitVector(random), denseModel: "model-b" },
      ]);
      expect(await opened.vectorIndex.countByDenseModel(spaceId)).toEqual([
        { model: "model-a", chunks: 1 },
        { model: "model-b", chunks: 1 },
        { model: null, chunks: 1 },
      ]);
      const [best] = await opened.vectorIndex.queryDense(replacement, { spaceIds: [spaceId], limit: 1 });
      expect(best?.chunkId).toBe(own[0]?.chunkId);
      const total = await opened.vectorIndex.countByDenseModel();
      expect(total.find((entry) => entry.model === "test-embedder")?.chunks).toBeGreaterThanOrEqual(CHUNK_COUNT);
    });

    it("rejects a dense vector of the wrong size", async () => {
      await expect(opened.vectorIndex.queryDense([1, 0, 0], { spaceIds: [spaces[0]], limit: 1 })).rejects.toMatchObject(
        {
          code: "dense_dimension_mismatch",
        },
      );
    });
  });
}
