import { describe, expect, it } from "vitest";
import { readDenseBinary, readSparseBinary } from "../../src/stores/pgvector-binary.js";

/** The bytes pgvector's vector_send writes: int16 dimensions, int16 unused, big-endian float4s. */
function denseBytes(values: number[]): Uint8Array {
  const view = new DataView(new ArrayBuffer(4 + 4 * values.length));
  view.setInt16(0, values.length);
  values.forEach((value, index) => {
    view.setFloat32(4 + 4 * index, value);
  });
  return new Uint8Array(view.buffer);
}

/** sparsevec_send: int32 dimensions, int32 count, int32 unused, int32 indices, float4 values. */
function sparseBytes(dimensions: number, indices: number[], values: number[]): Uint8Array {
  const view = new DataView(new ArrayBuffer(12 + 8 * indices.length));
  view.setInt32(0, dimensions);
  view.setInt32(4, indices.length);
  indices.forEach((index, position) => {
    view.setInt32(12 + 4 * position, index);
  });
  values.forEach((value, position) => {
    view.setFloat32(12 + 4 * indices.length + 4 * position, value);
  });
  return new Uint8Array(view.buffer);
}

describe("pgvector binary formats", () => {
  it("reads a dense vector into a new array or into a row of a larger one", () => {
    expect([...readDenseBinary(denseBytes([1.5, -2, 0.25]))]).toEqual([1.5, -2, 0.25]);
    const rows = new Float32Array(6);
    readDenseBinary(denseBytes([1, 2, 3]), rows, 3);
    expect([...rows]).toEqual([0, 0, 0, 1, 2, 3]);
  });

  it("reads a sparse vector's term ids (0-based) and weights, also from an offset inside a buffer", () => {
    const bytes = sparseBytes(1 << 29, [0, 6, 536_870_000], [0.5, 2.25, 1]);
    const padded = new Uint8Array(bytes.length + 8);
    padded.set(bytes, 8);
    const sparse = readSparseBinary(padded.subarray(8));
    expect([...sparse.indices]).toEqual([0, 6, 536_870_000]);
    expect([...sparse.values]).toEqual([0.5, 2.25, 1]);
    expect(readSparseBinary(sparseBytes(10, [], [])).indices.length).toBe(0);
  });

  it("names a layout it does not know instead of returning wrong numbers", () => {
    expect(() => readDenseBinary(denseBytes([1, 2]).subarray(0, 9))).toThrow(/unexpected binary layout/);
    expect(() => readSparseBinary(new Uint8Array(5))).toThrow(/unexpected binary layout/);
  });
});
