/** The text of `folio --help`. */
export const USAGE = `folio — answers questions from your documents, with page-linked citations

Usage:
  folio ingest <path...> [--space S] [--json]          parse, chunk and index files or folders
  folio ask "<question>" [--space S] [--json]          answer with citations
  folio search "<query>" [--space S] [--k 10] [--mode sparse] [--json]
  folio eval retrieval --dataset <BEIR dir> [--split test] [--mode sparse] [--json]
  folio eval answers --dataset <qa.jsonl> --docs <dir> [--json]
  folio serve                                          console UI, Slack and Teams endpoints, source viewer

Options:
  --space S   the space to use (default: console:default)
  --json      machine-readable output (one JSON object per line)
  -h, --help  this help

Configuration comes from environment variables (see README.md). With none set, Folio runs embedded:
PGlite under ./.folio, models from ./models.

Exit codes: 0 ok, 1 failure, 2 bad command line, 3 bad configuration, 4 some files rejected,
5 feature not built yet.
`;
