/**
 * The sentences every adapter adds to an upload's reply beyond its size: how it can be found now, and
 * which earlier version it replaced. Chat adapters replace a same-named file of the same uploader
 * without asking — re-sharing a file in a conversation is how people send a new version, and a question
 * in the thread would hold the upload until someone answers — and say so, with what it means for links
 * in earlier answers. Plain text: each adapter escapes it for its own format.
 */
import type { IngestResult, MeaningUpdate } from "./ingest-result.js";

/**
 * "Searchable by keywords now, by meaning in a few minutes." — empty when there is nothing to add. With a
 * later update of its embedding: "…embedding 120/310 passages for search by meaning…", then whether it
 * is searchable by meaning too.
 */
export function describeSearchability(result: IngestResult, meaning?: MeaningUpdate): string {
  if (result.status !== "ingested" || !result.meaningPending) return "";
  if (meaning?.state === "embedding" && meaning.total > 0) {
    return `Searchable by keywords now; embedding ${meaning.done}/${meaning.total} passages for search by meaning…`;
  }
  if (meaning?.state === "ready") return "Searchable by keywords and by meaning.";
  if (meaning?.state === "failed") {
    return "Searchable by keywords; reading it for meaning failed, and Folio tries again when it restarts.";
  }
  return "Searchable by keywords now, by meaning in a few minutes.";
}

/** "Replaced the earlier version (uploaded 2026-11-20): …" — empty when it replaced nothing. */
export function describeReplacement(result: IngestResult): string {
  const replaced = result.replaced ?? [];
  if (replaced.length === 0) return "";
  const dates = replaced.map((version) => version.createdAt.slice(0, 10)).join(", ");
  const what = replaced.length === 1 ? "the earlier version" : `${replaced.length} earlier versions`;
  return `Replaced ${what} (uploaded ${dates}): links in earlier answers now say so and open this one.`;
}

/** Both, joined; empty when neither applies. */
export function describeIngestOutcome(result: IngestResult, meaning?: MeaningUpdate): string {
  return [describeReplacement(result), describeSearchability(result, meaning)].filter((part) => part !== "").join(" ");
}
