/**
 * The text a chunk is indexed by now lives in src/domain/index-text.ts, where parsing, ingestion and
 * retrieval all reach it from below. This re-export is left for src/answer/evidence/no-context.ts until the answer
 * pipeline's folders are moved (issue #34); new code imports src/domain/index-text.ts.
 */
export {
  contextualHeader,
  type IndexedDocument,
  indexedDocument,
  indexTextOf,
  readableFileName,
} from "../domain/index-text.js";
