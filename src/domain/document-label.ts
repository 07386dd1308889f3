/**
 * How a document is named wherever people pick it out — console lists, citations in Slack, Teams, the
 * console and the CLI: its title with its file name beside it, so two uploads of one file name, or a
 * title that could be anyone's ("Annual Report"), can still be told apart.
 */
import { showInvisibleCharacters } from "./visible-text.js";

/**
 * "NIKE, Inc. — Form 10-K (NIKE_2018_10K.pdf)"; the file name alone when the title is only that. Both
 * come from the upload, so direction controls are shown and zero-width characters dropped (visible-text.ts).
 */
export function labelDocument(rawTitle: string, rawFileName: string): string {
  const title = showInvisibleCharacters(rawTitle);
  const fileName = showInvisibleCharacters(rawFileName);
  const flatTitle = title.replace(/\s+/g, " ").trim();
  if (isFileNameAgain(flatTitle, fileName)) return fileName;
  return `${flatTitle} (${fileName})`;
}

/**
 * The label within `limit` characters: the title gives way first, so the file name stays whole while it
 * fits in half the room.
 */
export function labelDocumentWithin(
  rawTitle: string,
  rawFileName: string,
  limit: number,
  shorten: (text: string, limit: number) => string,
): string {
  const title = showInvisibleCharacters(rawTitle);
  const fileName = showInvisibleCharacters(rawFileName);
  const whole = labelDocument(title, fileName);
  if (whole.length <= limit) return whole;
  const flatTitle = title.replace(/\s+/g, " ").trim();
  if (isFileNameAgain(flatTitle, fileName) || fileName.length + 3 > limit / 2) return shorten(whole, limit);
  return `${shorten(flatTitle, limit - fileName.length - 3)} (${fileName})`;
}

function isFileNameAgain(title: string, fileName: string): boolean {
  if (title === "") return true;
  const lowerTitle = title.toLowerCase();
  const lowerFile = fileName.toLowerCase();
  return lowerTitle === lowerFile || lowerTitle === lowerFile.replace(/\.[^.]+$/, "");
}
