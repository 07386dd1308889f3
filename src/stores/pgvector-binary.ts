/**
 * pgvector's binary send formats, read straight into typed arrays: loading a large space this way
 * never turns a vector into text or into JS number arrays (the text form of 500K vectors ran the
 * default heap out of memory). Both formats are big-endian, as PostgreSQL sends them.
 * - `vector_send(dense)`: int16 dimensions, int16 unused, then float4 × dimensions.
 * - `sparsevec_send(sparse)`: int32 dimensions, int32 non-zero count, int32 unused, then int32 indices
 *   (0-based, i.e. term ids) × count, then float4 values × count.
 */
import { FolioError } from "../errors.js";

/** A sparse vector held in typed arrays (term ids and weights), as read from the database. */
export type PackedSparseVector = { indices: Int32Array; values: Float32Array };

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function malformed(kind: string, byteLength: number): FolioError {
  return new FolioError(
    "vector_binary_malformed",
    `A ${kind} read from the database has an unexpected binary layout (${byteLength} bytes); the pgvector extension may be of an unsupported version.`,
  );
}

/** Decodes `vector_send` output into `target` at `offset` (or into a new Float32Array, returned). */
export function readDenseBinary(bytes: Uint8Array, target?: Float32Array, offset = 0): Float32Array {
  const view = viewOf(bytes);
  if (bytes.byteLength < 4) throw malformed("dense vector", bytes.byteLength);
  const dimensions = view.getInt16(0);
  if (bytes.byteLength !== 4 + 4 * dimensions) throw malformed("dense vector", bytes.byteLength);
  const out = target ?? new Float32Array(dimensions);
  const start = target ? offset : 0;
  for (let index = 0; index < dimensions; index += 1) out[start + index] = view.getFloat32(4 + 4 * index);
  return out;
}

export function readSparseBinary(bytes: Uint8Array): PackedSparseVector {
  const view = viewOf(bytes);
  if (bytes.byteLength < 12) throw malformed("sparse vector", bytes.byteLength);
  const count = view.getInt32(4);
  if (bytes.byteLength !== 12 + 8 * count) throw malformed("sparse vector", bytes.byteLength);
  const indices = new Int32Array(count);
  const values = new Float32Array(count);
  const valuesAt = 12 + 4 * count;
  for (let index = 0; index < count; index += 1) {
    indices[index] = view.getInt32(12 + 4 * index);
    values[index] = view.getFloat32(valuesAt + 4 * index);
  }
  return { indices, values };
}
