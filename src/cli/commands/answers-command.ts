/**
 * `folio answers add <file> | list | remove <id>` — a space's approved answers (src/answer-library/):
 * add the question/answer pairs of a completed questionnaire (XLSX, CSV or DOCX table), list them with
 * their origin, remove one by id.
 */
import { readFile } from "node:fs/promises";
import { userInfo } from "node:os";
import path from "node:path";
import { DEFAULT_PARSE_LIMITS } from "../../../ingestion/limits.js";
import { type ApprovedAnswers, toApprovedAnswerJson } from "../../answer-library/approved-answers.js";
import { FolioError } from "../../errors.js";
import { EXIT_CODES, UsageError } from "../cli-error.js";
import type { CliOptions } from "../cli-options.js";
import type { CommandBackend } from "../command-backend.js";
import { countOf } from "../count-of.js";

const SUBCOMMANDS = "add <file>, list, remove <id>";

type AnswersBackend = { approvedAnswers: ApprovedAnswers };

/** Who added approved answers from this command line: the operating-system user. */
function commandLineUser(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return "cli";
  }
}

async function readQuestionnaire(file: string): Promise<Uint8Array> {
  try {
    const bytes = await readFile(file);
    if (bytes.byteLength > DEFAULT_PARSE_LIMITS.maxBytes) {
      throw new FolioError(
        "file_too_large",
        `${file} is larger than the ${DEFAULT_PARSE_LIMITS.maxBytes / (1024 * 1024)} MB limit.`,
      );
    }
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  } catch (error) {
    if (error instanceof FolioError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new FolioError(
      "file_unreadable",
      code === "ENOENT" ? `${file} does not exist.` : `${file} could not be read (${code ?? "unknown error"}).`,
      { cause: error },
    );
  }
}

export async function runAnswersCommand(
  commandBackend: CommandBackend,
  rest: string[],
  options: CliOptions,
): Promise<number> {
  const approvedAnswers = commandBackend.approvedAnswers;
  if (!approvedAnswers) throw new FolioError("approved_answers_unavailable", "This Folio keeps no approved answers.");
  const backend = { approvedAnswers };
  const [subcommand, ...args] = rest;
  switch (subcommand) {
    case "add":
      return addAnswers(backend, args, options);
    case "list":
      return listAnswers(backend, args, options);
    case "remove":
      return removeAnswer(backend, args, options);
    default:
      throw new UsageError(
        subcommand === undefined
          ? `answers needs a subcommand: ${SUBCOMMANDS}`
          : `unknown answers subcommand "${subcommand}"; use ${SUBCOMMANDS}`,
      );
  }
}

async function addAnswers(backend: AnswersBackend, args: string[], options: CliOptions): Promise<number> {
  const [file, ...extra] = args;
  if (file === undefined || extra.length > 0) {
    throw new UsageError("answers add takes one completed questionnaire: folio answers add <file> --space S");
  }
  const result = await backend.approvedAnswers.addQuestionnaire({
    spaceId: options.space,
    fileName: path.basename(file),
    bytes: await readQuestionnaire(file),
    addedBy: commandLineUser(),
    columns: {
      ...(options.questionColumn === undefined ? {} : { questionColumn: options.questionColumn }),
      ...(options.answerColumn === undefined ? {} : { answerColumn: options.answerColumn }),
      ...(options.sheet === undefined ? {} : { sheet: options.sheet }),
    },
  });
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return EXIT_CODES.ok;
  }
  const notes = [
    `questions from "${result.questionColumn}", answers from "${result.answerColumn}"`,
    result.sheets.length > 0 ? `${result.sheets.length === 1 ? "sheet" : "sheets"} ${result.sheets.join(", ")}` : null,
    result.skippedRows > 0 ? `${countOf(result.skippedRows, "row")} without both skipped` : null,
    result.replaced > 0 ? `${result.replaced} from an earlier copy of this file replaced` : null,
  ].filter((note) => note !== null);
  process.stdout.write(
    `Added ${countOf(result.added, "approved answer")} from ${result.file} to ${result.spaceId} (${notes.join("; ")})\n`,
  );
  return EXIT_CODES.ok;
}

async function listAnswers(backend: AnswersBackend, args: string[], options: CliOptions): Promise<number> {
  if (args.length > 0) throw new UsageError("answers list takes no arguments: folio answers list --space S");
  const records = await backend.approvedAnswers.list(options.space);
  if (options.json) {
    for (const record of records) process.stdout.write(`${JSON.stringify(toApprovedAnswerJson(record))}\n`);
    return EXIT_CODES.ok;
  }
  if (records.length === 0) {
    process.stdout.write(
      `No approved answers in ${options.space} — add a completed questionnaire: folio answers add <file> --space ${options.space}\n`,
    );
    return EXIT_CODES.ok;
  }
  for (const record of records) {
    const place = [record.file, record.sheet, record.row === null ? null : `row ${record.row}`]
      .filter((part) => part !== null)
      .join(", ");
    const added = `${record.addedBy ?? "unknown"}, ${record.addedAt.toISOString().slice(0, 10)}`;
    process.stdout.write(`${record.id}  (${place}; ${added})\n  Q: ${record.question}\n  A: ${record.answer}\n`);
  }
  process.stdout.write(`\n${countOf(records.length, "approved answer")} in ${options.space}\n`);
  return EXIT_CODES.ok;
}

async function removeAnswer(backend: AnswersBackend, args: string[], options: CliOptions): Promise<number> {
  const [id, ...extra] = args;
  if (id === undefined || extra.length > 0) {
    throw new UsageError("answers remove takes one id (see folio answers list): folio answers remove <id> --space S");
  }
  if (!(await backend.approvedAnswers.remove(options.space, id))) {
    throw new FolioError(
      "approved_answer_not_found",
      `No approved answer ${id} in ${options.space} — see folio answers list --space ${options.space}.`,
    );
  }
  process.stdout.write(
    options.json
      ? `${JSON.stringify({ removed: id, spaceId: options.space })}\n`
      : `Removed ${id} from ${options.space}\n`,
  );
  return EXIT_CODES.ok;
}
