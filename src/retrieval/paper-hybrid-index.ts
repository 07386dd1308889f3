/**
 * One space's `paper-hybrid` index: TF-IDF fitted on the space's chunks, reduced by truncated SVD to
 * the embedder's dimensions, combined with each chunk's dense vector (src/retrieval/paper-hybrid-embedding.ts),
 * and searched exhaustively by cosine. Pure: the caller brings the chunks' term counts and vectors.
 */
import { FolioError } from "../errors.js";
import type { TermCounts } from "../stores/catalog.js";
import { PAPER_HYBRID_ALPHA, writeCombinedEmbedding } from "./paper-hybrid-embedding.js";
import { fitTfIdf, vectorizeTfIdf } from "./paper-hybrid-tf-idf.js";
import { computeTruncatedSvd } from "./truncated-svd.js";

export type PaperHybridSettings = {
  /** Weight of the dense part (the paper: 0.5). */
  alpha: number;
  /** SVD components; the paper uses the dense embedding's size (384 for bge-small-en-v1.5). */
  components: number;
  /** Subspace iterations of the randomized SVD (scikit-learn's TruncatedSVD: 5). */
  powerIterations: number;
  sublinearTermFrequency: boolean;
  seed: number;
};

export const DEFAULT_PAPER_HYBRID_SETTINGS: PaperHybridSettings = {
  alpha: PAPER_HYBRID_ALPHA,
  components: 384,
  powerIterations: 5,
  sublinearTermFrequency: false,
  seed: 0,
};

export type PaperHybridEntry = { chunkId: string; documentId: string; dense: ArrayLike<number>; terms: TermCounts };

export type PaperHybridHit = { chunkId: string; documentId: string; score: number };

export type PaperHybridIndex = {
  readonly size: number;
  /** The SVD part's width: `components`, or fewer when the space's TF-IDF matrix has a smaller rank. */
  readonly reducedDimensions: number;
  /** The combined embedding of a question (its dense vector and analyzed terms), unit length. */
  embedQuery(dense: ArrayLike<number>, terms: TermCounts): Float64Array;
  /** The best `limit` chunks by cosine, best first; ties keep the fitted order. */
  search(dense: ArrayLike<number>, terms: TermCounts, limit: number): PaperHybridHit[];
};

export function fitPaperHybridIndex(entries: PaperHybridEntry[], settings: PaperHybridSettings): PaperHybridIndex {
  const tfIdf = fitTfIdf(
    entries.map((entry) => entry.terms),
    { sublinearTermFrequency: settings.sublinearTermFrequency },
  );
  const svd = computeTruncatedSvd(tfIdf.matrix, {
    components: settings.components,
    powerIterations: settings.powerIterations,
    seed: settings.seed,
  });
  const reducedDimensions = svd.singularValues.length;
  const denseDimensions = entries[0]?.dense.length ?? 0;
  const mismatched = entries.find((entry) => entry.dense.length !== denseDimensions);
  if (mismatched) {
    throw new FolioError(
      "dense_dimensions_mismatch",
      `Chunk ${mismatched.chunkId} has a ${mismatched.dense.length}-dimensional vector, others ${denseDimensions}; run folio reindex.`,
    );
  }
  const width = denseDimensions + reducedDimensions;
  const rows = new Float64Array(entries.length * width);
  const hits = entries.map(({ chunkId, documentId }) => ({ chunkId, documentId }));
  entries.forEach((entry, row) => {
    const reduced = svd.projectedRows.subarray(row * reducedDimensions, (row + 1) * reducedDimensions);
    writeCombinedEmbedding(rows, row * width, entry.dense, reduced, settings.alpha);
  });

  function embedQuery(dense: ArrayLike<number>, terms: TermCounts): Float64Array {
    const vector = vectorizeTfIdf(tfIdf, terms);
    const reduced = svd.projectRow(vector.columnIndices, vector.values);
    const combined = new Float64Array(width);
    writeCombinedEmbedding(combined, 0, dense, reduced, settings.alpha);
    return combined;
  }

  function search(dense: ArrayLike<number>, terms: TermCounts, limit: number): PaperHybridHit[] {
    const query = embedQuery(dense, terms);
    const scores = new Float64Array(hits.length);
    for (let row = 0; row < hits.length; row += 1) {
      let dot = 0;
      const offset = row * width;
      for (let column = 0; column < width; column += 1) dot += rows[offset + column]! * query[column]!;
      scores[row] = dot;
    }
    const order = Array.from(scores.keys()).sort((left, right) => scores[right]! - scores[left]! || left - right);
    return order.slice(0, Math.max(0, limit)).map((row) => {
      const hit = hits[row]!;
      return { chunkId: hit.chunkId, documentId: hit.documentId, score: scores[row]! };
    });
  }

  return { size: hits.length, reducedDimensions, embedQuery, search };
}
