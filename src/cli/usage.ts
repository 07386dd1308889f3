/** The text of `folio --help`. */
export const USAGE = `folio — answers questions from your documents, with page-linked citations

Usage:
  folio ingest <path...> [--space S] [--keep-both] [--json]
                                                       parse, chunk and index files or folders; a file
                                                       named like one already ingested replaces it (a new
                                                       version) unless --keep-both
  folio ask "<question>" [--space S] [--json]          answer with citations
  folio search "<query>" [--space S] [--k 10] [--mode M] [--json]
  folio eval retrieval --dataset <BEIR dir> [--split test] [--mode M] [--store embedded|qdrant]
                       [--run-out FILE] [--json]
  folio eval answers --dataset <qa.jsonl> --docs <dir> [--mode M] [--generator extractive|llm]
                     [--limit N] [--run-out FILE] [--json]
  folio eval conversations --dataset <conversations.jsonl> [--docs <dir>] [--mode M] [--limit N] [--json]
                                                       ask conversations in order; check answer text,
                                                       cited pages and refusals
  folio eval tatqa --dataset <tatqa.json> [--as html|pdf] [--types span,multi-span,arithmetic,count]
                   [--mode M] [--limit N] [--run-out FILE] [--json]
                                                       each TAT-QA excerpt uploaded as a page of its own;
                                                       first-sentence accuracy, official EM and F1
  folio questionnaire fill <file> --space S [--out FILE] [--sheet N] [--column C] [--dry-run] [--json]
                                                       answer every question of an XLSX, CSV or DOCX
                                                       questionnaire; write the filled copy (Answer, Status,
                                                       Sources, Quote added); --dry-run: show the sheet,
                                                       header row, question column and first questions found
  folio answers add <file> [--space S] [--question-column C] [--answer-column C] [--sheet N] [--json]
                                                       store a completed questionnaire's question/answer
                                                       pairs (XLSX, CSV or DOCX table) as approved answers;
                                                       a column by header, letter or number
  folio answers list [--space S] [--json]              approved answers with their origin
  folio answers remove <id> [--space S]                forget one approved answer
  folio reindex [--space S]                            embed every passage again (after FOLIO_EMBED_MODEL changed)
  folio serve                                          console UI, Slack and Teams endpoints, source viewer
  folio models pull [embedder|reranker|llm|all] [--json]
                                                       download missing models into FOLIO_MODELS_DIR
                                                       (from HF_ENDPOINT; FOLIO_OFFLINE=1 forbids it)

Options:
  --space S   the space to use (default: console:default)
  --json      machine-readable output (one JSON object per line)
  --mode M    retrieval mode: sparse, dense, hybrid, hybrid+rerank (eval retrieval also paper-hybrid);
              default: hybrid, or hybrid+rerank when FOLIO_RERANK_MODEL is set
  -h, --help  this help

Configuration comes from environment variables (see docs/configuration.md). With none set, Folio runs embedded:
PGlite under ./.folio, models from ./models (missing ones are downloaded from the Hugging Face hub on
first use).

While \`folio serve\` runs on the embedded store, ingest, ask, search and questionnaire work through it
(its local API).
While \`folio serve\` runs on the embedded store, ingest, ask, search and answers work through it (its local API).

Exit codes: 0 ok, 1 failure, 2 bad command line, 3 bad configuration (a variable, a missing model,
a busy port), 4 some files rejected, 5 feature not built yet.
`;
