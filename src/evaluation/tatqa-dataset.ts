/**
 * TAT-QA (Zhu et al., ACL 2021): excerpts of real annual reports — one table and the paragraphs around
 * it — with questions whose answers are a span, several spans, a calculation or a count. Read from the
 * dataset's own JSON and rendered as a page a user could upload: an HTML document with the table (its
 * first row as the header) and then the paragraphs in order. Pure: JSON in, excerpts and HTML out.
 */

export type TatqaAnswerType = "span" | "multi-span" | "arithmetic" | "count";

export const TATQA_ANSWER_TYPES: readonly TatqaAnswerType[] = ["span", "multi-span", "arithmetic", "count"];

/** The scale TAT-QA gives an answer: "" (none), thousand, million, billion or percent. */
export type TatqaScale = "" | "thousand" | "million" | "billion" | "percent";

export type TatqaQuestion = {
  uid: string;
  question: string;
  /** A list of spans for span and multi-span answers; a number for arithmetic and count. */
  answer: string[] | number;
  answerType: TatqaAnswerType;
  /** Where the annotators found the answer: "table", "text" or "table-text". */
  answerFrom: string;
  scale: TatqaScale;
  derivation: string;
};

export type TatqaExcerpt = {
  uid: string;
  table: string[][];
  paragraphs: string[];
  questions: TatqaQuestion[];
};

type RawExcerpt = {
  table?: { uid?: string; table?: unknown };
  paragraphs?: Array<{ order?: number; text?: string }>;
  questions?: Array<Record<string, unknown>>;
};

const SCALES = new Set<string>(["", "thousand", "million", "billion", "percent"]);

function asAnswerType(value: unknown): TatqaAnswerType | null {
  return (TATQA_ANSWER_TYPES as readonly unknown[]).includes(value) ? (value as TatqaAnswerType) : null;
}

function readQuestion(raw: Record<string, unknown>): TatqaQuestion | null {
  const answerType = asAnswerType(raw.answer_type);
  const question = typeof raw.question === "string" ? raw.question : "";
  if (answerType === null || question === "") return null;
  const answer = Array.isArray(raw.answer)
    ? raw.answer.map(String)
    : typeof raw.answer === "number"
      ? raw.answer
      : Number(raw.answer);
  if (typeof answer === "number" && !Number.isFinite(answer)) return null;
  const scale = typeof raw.scale === "string" && SCALES.has(raw.scale) ? (raw.scale as TatqaScale) : "";
  return {
    uid: String(raw.uid ?? ""),
    question,
    answer,
    answerType,
    answerFrom: String(raw.answer_from ?? ""),
    scale,
    derivation: String(raw.derivation ?? ""),
  };
}

/** The excerpts of a TAT-QA JSON file (the list the dataset ships), questions in their order. */
export function readTatqaDataset(json: string): TatqaExcerpt[] {
  const parsed: unknown = JSON.parse(json);
  if (!Array.isArray(parsed)) throw new Error("a TAT-QA file is a JSON list of excerpts");
  return (parsed as RawExcerpt[]).map((raw, index) => {
    const rows = Array.isArray(raw.table?.table) ? (raw.table.table as unknown[]) : [];
    const table = rows.map((row) => (Array.isArray(row) ? row.map((cell) => String(cell ?? "")) : []));
    const paragraphs = [...(raw.paragraphs ?? [])]
      .sort((a, b) => (a.order ?? 0) - (b.order ?? 0))
      .map((paragraph) => paragraph.text ?? "")
      .filter((text) => text.trim() !== "");
    const questions = (raw.questions ?? []).map(readQuestion).filter((question) => question !== null);
    return { uid: raw.table?.uid ?? `excerpt-${index + 1}`, table, paragraphs, questions };
  });
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/**
 * The excerpt as an HTML page: a title, the table (first row as header cells), then the paragraphs.
 * `title` names the page as a user's file would be named; TAT-QA does not say which company it is.
 */
export function renderExcerptHtml(excerpt: TatqaExcerpt, title: string): string {
  const rows = excerpt.table.map((row, index) => {
    const tag = index === 0 ? "th" : "td";
    return `<tr>${row.map((cell) => `<${tag}>${escapeHtml(cell)}</${tag}>`).join("")}</tr>`;
  });
  return [
    "<!DOCTYPE html>",
    `<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>`,
    "<style>table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right}td:first-child,th:first-child{text-align:left}</style>",
    "</head><body>",
    `<table>${rows.join("\n")}</table>`,
    ...excerpt.paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`),
    "</body></html>",
    "",
  ].join("\n");
}
