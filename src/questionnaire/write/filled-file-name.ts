/**
 * The name a filled copy gets: the original's name with " (filled)" and the extension of its format,
 * which is the original's own (a Word questionnaire comes back as Word). Pure and free of the
 * readers, so the command line can check an `--out` name before any work starts.
 */
import type { QuestionnaireFormat } from "../questionnaire.js";

/** The file extension a filled copy of this format gets ("tsv" for a tab-separated original). */
export function filledExtension(fileName: string, format: QuestionnaireFormat): string {
  if (format === "csv") return /\.tsv$/i.test(fileName) ? "tsv" : "csv";
  return format;
}

/** "security-review.xlsx" -> "security-review (filled).xlsx"; the extension follows the format. */
export function filledFileName(fileName: string, format: QuestionnaireFormat): string {
  const base = fileName.replace(/\.[^.]+$/, "");
  return `${base} (filled).${filledExtension(fileName, format)}`;
}

/** The format a questionnaire's name says it is, or null when its extension is not one Folio fills. */
export function formatFromFileName(fileName: string): QuestionnaireFormat | null {
  const extension = /\.([^./\\]+)$/.exec(fileName)?.[1]?.toLowerCase();
  if (extension === "xlsx" || extension === "docx") return extension;
  if (extension === "csv" || extension === "tsv") return "csv";
  return null;
}

const FORMAT_NAMES: Record<QuestionnaireFormat, string> = {
  xlsx: "an Excel workbook",
  csv: "a CSV file",
  docx: "a Word document",
};

export function describeFormat(format: QuestionnaireFormat): string {
  return FORMAT_NAMES[format];
}
