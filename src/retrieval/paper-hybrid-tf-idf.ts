/**
 * The TF-IDF half of the `paper-hybrid` embedding: scikit-learn's TfidfVectorizer defaults (raw term
 * counts, smoothed idf from smoothed-idf.ts, shared with src/answer/citations/page-finder.ts, rows scaled to unit
 * length) over the terms of Folio's own analyzer (src/retrieval/text-analyzer.ts), read from the term
 * counts the catalog already stores for BM25, so a space is never analyzed twice. The vocabulary is the
 * fitted space's; a query term it lacks is ignored, as scikit-learn's `transform` does.
 */
import type { TermCounts } from "../stores/catalog.js";
import { smoothedInverseDocumentFrequency } from "./smoothed-idf.js";
import type { SparseMatrix } from "./truncated-svd.js";

export type TfIdfOptions = {
  /** scikit-learn's `sublinear_tf`: 1 + ln(count) instead of the count. Off by default, as there. */
  sublinearTermFrequency?: boolean;
};

export type TfIdfModel = {
  /** Term id → column of the matrix. */
  columns: Map<number, number>;
  inverseDocumentFrequencies: Float64Array;
  /** One unit-length row per document, in input order (a row is empty when its document has no terms). */
  matrix: SparseMatrix;
  sublinearTermFrequency: boolean;
};

/** A sparse TF-IDF row: column indices into the model's matrix with their weights. */
export type TfIdfVector = { columnIndices: number[]; values: number[] };

export function fitTfIdf(documents: TermCounts[], options: TfIdfOptions = {}): TfIdfModel {
  const columns = new Map<number, number>();
  const documentFrequencies: number[] = [];
  let entryCount = 0;
  for (const terms of documents) {
    for (const termId of terms.termIds) {
      let column = columns.get(termId);
      if (column === undefined) {
        column = columns.size;
        columns.set(termId, column);
        documentFrequencies.push(0);
      }
      documentFrequencies[column] = (documentFrequencies[column] ?? 0) + 1;
    }
    entryCount += terms.termIds.length;
  }
  const inverseDocumentFrequencies = Float64Array.from(documentFrequencies, (frequency) =>
    smoothedInverseDocumentFrequency(documents.length, frequency),
  );
  const model: TfIdfModel = {
    columns,
    inverseDocumentFrequencies,
    sublinearTermFrequency: options.sublinearTermFrequency ?? false,
    matrix: {
      rowCount: documents.length,
      columnCount: columns.size,
      rowStarts: new Int32Array(documents.length + 1),
      columnIndices: new Int32Array(entryCount),
      values: new Float64Array(entryCount),
    },
  };
  let position = 0;
  documents.forEach((terms, row) => {
    const vector = vectorizeTfIdf(model, terms);
    model.matrix.columnIndices.set(vector.columnIndices, position);
    model.matrix.values.set(vector.values, position);
    position += vector.columnIndices.length;
    model.matrix.rowStarts[row + 1] = position;
  });
  return model;
}

/** The unit-length TF-IDF vector of `terms` under a fitted model; empty when no term is in its vocabulary. */
export function vectorizeTfIdf(model: TfIdfModel, terms: TermCounts): TfIdfVector {
  const columnIndices: number[] = [];
  const values: number[] = [];
  let squaredNorm = 0;
  terms.termIds.forEach((termId, index) => {
    const column = model.columns.get(termId);
    const count = terms.counts[index] ?? 0;
    if (column === undefined || count <= 0) return;
    const frequency = model.sublinearTermFrequency ? 1 + Math.log(count) : count;
    const weight = frequency * (model.inverseDocumentFrequencies[column] ?? 0);
    columnIndices.push(column);
    values.push(weight);
    squaredNorm += weight * weight;
  });
  const norm = Math.sqrt(squaredNorm);
  return { columnIndices, values: norm > 0 ? values.map((value) => value / norm) : values };
}
