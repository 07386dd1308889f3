/**
 * A disk cache of passage vectors keyed by (model, sha256 of the text), for evaluations that index the
 * same corpus again and again: embedding SciFact takes tens of minutes on CPU, reading it back seconds.
 * One append-only file per model: records of [32-byte sha256][dimensions × float32]. A torn last record
 * (a run killed mid-write) is ignored. Questions are never cached, so measured latency stays real.
 */
import { createHash } from "node:crypto";
import { appendFile, mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Embedder, EmbedOptions } from "./embedder.js";

const HASH_BYTES = 32;

function hashText(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export async function createCachedEmbedder(embedder: Embedder, cacheDirectory: string): Promise<Embedder> {
  const fileName = `${embedder.modelId.replaceAll(/[^A-Za-z0-9._-]/g, "_")}-${embedder.dimensions}.vectors`;
  const filePath = path.join(cacheDirectory, fileName);
  const recordBytes = HASH_BYTES + embedder.dimensions * 4;
  const vectors = new Map<string, number[]>();
  await mkdir(cacheDirectory, { recursive: true });
  const existing = await readFile(filePath).catch(() => Buffer.alloc(0));
  for (let offset = 0; offset + recordBytes <= existing.byteLength; offset += recordBytes) {
    const key = existing.subarray(offset, offset + HASH_BYTES).toString("hex");
    const values = new Float32Array(embedder.dimensions);
    Buffer.from(values.buffer).set(existing.subarray(offset + HASH_BYTES, offset + recordBytes));
    vectors.set(key, Array.from(values));
  }

  async function remember(entries: Array<{ key: string; vector: number[] }>): Promise<void> {
    const buffer = Buffer.alloc(entries.length * recordBytes);
    entries.forEach(({ key, vector }, index) => {
      const offset = index * recordBytes;
      buffer.write(key, offset, "hex");
      Buffer.from(Float32Array.from(vector).buffer).copy(buffer, offset + HASH_BYTES);
      vectors.set(key, vector);
    });
    await appendFile(filePath, buffer);
  }

  return {
    modelId: embedder.modelId,
    dimensions: embedder.dimensions,
    embedQuery: (text, options) => embedder.embedQuery(text, options),
    async embedPassages(texts: string[], options?: EmbedOptions) {
      const keys = texts.map(hashText);
      const missing = [...new Set(keys.filter((key) => !vectors.has(key)))];
      const textByKey = new Map(keys.map((key, index) => [key, texts[index] ?? ""]));
      const cachedCount = texts.length - keys.filter((key) => !vectors.has(key)).length;
      // Embed and store in slices, so an interrupted run keeps what it finished.
      const slice = 64;
      for (let start = 0; start < missing.length; start += slice) {
        const batchKeys = missing.slice(start, start + slice);
        const batch = await embedder.embedPassages(
          batchKeys.map((key) => textByKey.get(key) ?? ""),
          { signal: options?.signal, priority: options?.priority },
        );
        await remember(batchKeys.map((key, index) => ({ key, vector: batch[index] ?? [] })));
        options?.onProgress?.(Math.min(texts.length, cachedCount + start + batchKeys.length), texts.length);
      }
      options?.onProgress?.(texts.length, texts.length);
      return keys.map((key) => vectors.get(key) ?? []);
    },
    close: () => embedder.close(),
  };
}
