/**
 * How a document is named wherever people pick it out — console lists, citations in Slack, Teams, the
 * console and the CLI: its title with its file name beside it, so two uploads of one file name, or a
 * title that could be anyone's ("Annual Report"), can still be told apart.
 */

/** "NIKE, Inc. — Form 10-K (NIKE_2018_10K.pdf)"; the file name alone when the title is only that. */
export function labelDocument(title: string, fileName: string): string {
  const flatTitle = title.replace(/\s+/g, " ").trim();
  if (isFileNameAgain(flatTitle, fileName)) return fileName;
  return `${flatTitle} (${fileName})`;
}

/**
 * The label within `limit` characters: the title gives way first, so the file name stays whole while it
 * fits in half the room.
 */
export function labelDocumentWithin(
  title: string,
  fileName: string,
  limit: number,
  shorten: (text: string, limit: number) => string,
): string {
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
