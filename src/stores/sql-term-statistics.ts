/**
 * BM25 corpus statistics per space (chunk count, total length, document frequency per term), kept in
 * the same transaction as the chunks they count, so IDF is always exact for the live corpus; and the
 * catalog's reads of them and of each chunk's stored term counts.
 */
import type { Catalog, TermCounts, TermStatistics } from "./catalog.js";
import type { SqlClient, SqlExecutor } from "./sql-client.js";

/** Chunks containing each term, summed over the given chunks; ids ascending so row locks are taken in one order. */
function countDocumentFrequencies(termLists: TermCounts[]): { termIds: number[]; frequencies: number[] } {
  const frequencies = new Map<number, number>();
  for (const terms of termLists) {
    // A term listed twice in one chunk still makes one chunk that contains it.
    for (const termId of new Set(terms.termIds)) frequencies.set(termId, (frequencies.get(termId) ?? 0) + 1);
  }
  const termIds = [...frequencies.keys()].sort((left, right) => left - right);
  return { termIds, frequencies: termIds.map((termId) => frequencies.get(termId) ?? 0) };
}

/** Adds the chunks' terms to their space's BM25 statistics. The space row is locked first, always. */
export async function addToStatistics(executor: SqlExecutor, spaceId: string, termLists: TermCounts[]): Promise<void> {
  const { termIds, frequencies } = countDocumentFrequencies(termLists);
  const totalLength = termLists.reduce((sum, terms) => sum + terms.length, 0);
  await executor.query(
    "UPDATE spaces SET chunk_count = chunk_count + $2, total_length = total_length + $3 WHERE id = $1",
    [spaceId, termLists.length, totalLength],
  );
  if (termIds.length === 0) return;
  await executor.query(
    `INSERT INTO term_document_frequencies (space_id, term_id, document_frequency)
     SELECT $1, term_id, frequency FROM unnest($2::integer[], $3::integer[]) AS t(term_id, frequency)
     ON CONFLICT (space_id, term_id)
     DO UPDATE SET document_frequency = term_document_frequencies.document_frequency + excluded.document_frequency`,
    [spaceId, termIds, frequencies],
  );
}

/** Takes a document's chunks out of its space's BM25 statistics, computed from the stored term rows. */
export async function removeFromStatistics(executor: SqlExecutor, spaceId: string, documentId: string): Promise<void> {
  await executor.query(
    `UPDATE spaces AS s SET chunk_count = s.chunk_count - d.chunk_count, total_length = s.total_length - d.total_length
     FROM (SELECT count(*) AS chunk_count, coalesce(sum(length), 0) AS total_length
           FROM chunk_terms WHERE document_id = $2) AS d
     WHERE s.id = $1`,
    [spaceId, documentId],
  );
  await executor.query(
    `UPDATE term_document_frequencies AS f SET document_frequency = f.document_frequency - d.frequency
     FROM (SELECT term_id, count(*) AS frequency
           FROM (SELECT DISTINCT chunk_id, unnest(term_ids) AS term_id FROM chunk_terms WHERE document_id = $2) AS u
           GROUP BY term_id) AS d
     WHERE f.space_id = $1 AND f.term_id = d.term_id`,
    [spaceId, documentId],
  );
  await executor.query("DELETE FROM term_document_frequencies WHERE space_id = $1 AND document_frequency <= 0", [
    spaceId,
  ]);
}

export function createSqlTermStatistics(client: SqlClient): Pick<Catalog, "listChunkTerms" | "getTermStatistics"> {
  return {
    async listChunkTerms(spaceId) {
      const { rows } = await client.query<{
        chunk_id: string;
        document_id: string;
        term_ids: number[];
        counts: number[];
        length: number;
      }>(
        `SELECT t.chunk_id, t.document_id, t.term_ids, t.counts, t.length
         FROM chunk_terms AS t JOIN chunks AS c ON c.id = t.chunk_id JOIN documents AS d ON d.id = t.document_id
         WHERE t.space_id = $1 AND d.status = 'ready' ORDER BY t.document_id, c.position`,
        [spaceId],
      );
      return rows.map((row) => ({
        chunkId: row.chunk_id,
        documentId: row.document_id,
        terms: { termIds: row.term_ids, counts: row.counts, length: row.length },
      }));
    },

    async getTermStatistics(spaceIds, termIds): Promise<TermStatistics> {
      const totals = await client.query<{ chunk_count: number; total_length: number }>(
        `SELECT coalesce(sum(chunk_count), 0)::float8 AS chunk_count, coalesce(sum(total_length), 0)::float8 AS total_length
         FROM spaces WHERE id = ANY($1::text[])`,
        [spaceIds],
      );
      const documentFrequencies = new Map<number, number>();
      if (termIds.length > 0) {
        const { rows } = await client.query<{ term_id: number; frequency: number }>(
          `SELECT term_id, sum(document_frequency)::float8 AS frequency FROM term_document_frequencies
           WHERE space_id = ANY($1::text[]) AND term_id = ANY($2::integer[]) GROUP BY term_id`,
          [spaceIds, termIds],
        );
        for (const row of rows) documentFrequencies.set(row.term_id, row.frequency);
      }
      return {
        chunkCount: totals.rows[0]?.chunk_count ?? 0,
        totalLength: totals.rows[0]?.total_length ?? 0,
        documentFrequencies,
      };
    },
  };
}
