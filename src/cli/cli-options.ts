/**
 * The options every `folio` command receives, parsed from the command line by src/cli/main.ts. Its own
 * module so the commands do not import main.ts (which imports them).
 */
export type CliOptions = {
  space: string;
  /** Whether --space was given (reindex: one space instead of all). */
  spaceGiven: boolean;
  json: boolean;
  k: number;
  mode: string;
  dataset: string | undefined;
  docs: string | undefined;
  split: string;
  /** `eval retrieval --store embedded|qdrant`: which vector store to evaluate. */
  store: string | undefined;
  /** `eval retrieval --run-out FILE`: where to write the TREC run file. */
  runOut: string | undefined;
  /** `--generator extractive|llm`: who writes answers; absent: the configured one. */
  generator: string | undefined;
  /** `eval answers --limit N`: ask only the first N questions. */
  limit: number | undefined;
  /** `eval tatqa --as html|pdf`: the form each excerpt is uploaded in. */
  as?: string;
  /** `eval tatqa --types span,count`: only questions of these answer types. */
  types?: string;
  /** `questionnaire fill --out FILE`: where the filled copy goes. */
  out?: string;
  /** `questionnaire fill --sheet N`, `answers add --sheet N`: only this sheet (name or 1-based number). */
  sheet?: string;
  /** `questionnaire fill --column C`: the question column (header text, letter or number). */
  column?: string;
  /** `questionnaire fill --dry-run`: print what was found (sheet, header row, question column, first questions), answer nothing. */
  dryRun?: boolean;
  /** `answers add --question-column C --answer-column C`: header text, letter or number; absent: found by header. */
  questionColumn?: string;
  answerColumn?: string;
  /** `ingest --keep-both`: keep an earlier file of the same name beside the new one instead of replacing it. */
  keepBoth: boolean;
};
