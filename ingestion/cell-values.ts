/**
 * How spreadsheet cell values read as text in a chunk, for .xlsx and .xls alike: numbers without
 * binary noise (0.1 + 0.2 reads "0.3"), percentages as percentages, dates and times as ISO 8601
 * (unambiguous for people in every locale, and what a question like "due 2024-03-01" matches).
 * Currency and thousands separators are not reproduced: the number itself is what gets indexed.
 */

const millisecondsPerDay = 86_400_000;
/** Day 0 of Excel's 1900 system is 1899-12-31, but serial 60 is the fictitious 1900-02-29. */
const excel1900Epoch = Date.UTC(1899, 11, 31);
const excel1900EpochAfterLeapBug = Date.UTC(1899, 11, 30);
const excel1904Epoch = Date.UTC(1904, 0, 1);

/** Built-in number formats ([MS-XLS] 2.4.126) that show dates or times. */
const builtInDateFormats = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56,
  57, 58,
]);
/** Built-in formats showing percentages: "0%" and "0.00%". */
const builtInPercentFormats = new Set([9, 10]);

/** A format code with its literal text, escapes and bracketed parts (colours, conditions, locales) removed. */
function formatTokens(code: string): string {
  return code
    .replace(/"[^"]*"/g, "")
    .replace(/\\./g, "")
    .replace(/_.|\*./g, "")
    .replace(/\[(?![hms]+\])[^\]]*\]/gi, "");
}

export function isDateFormatCode(code: string): boolean {
  const section = formatTokens(code).split(";")[0] ?? "";
  return /[dmyhs]/i.test(section) && !/^general$/i.test(section.trim());
}

export function isPercentFormatCode(code: string): boolean {
  return (formatTokens(code).split(";")[0] ?? "").includes("%");
}

export type NumberFormat = { code?: string; builtInId?: number };

export function isDateFormat(format: NumberFormat): boolean {
  if (format.code !== undefined) return isDateFormatCode(format.code);
  return format.builtInId !== undefined && builtInDateFormats.has(format.builtInId);
}

function isPercentFormat(format: NumberFormat): boolean {
  if (format.code !== undefined) return isPercentFormatCode(format.code);
  return format.builtInId !== undefined && builtInPercentFormats.has(format.builtInId);
}

/** A number as Excel's "General" format would show it, to 15 significant digits. */
export function formatGeneralNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return String(value);
  return String(Number(value.toPrecision(15)));
}

/** The date an Excel serial number stands for (UTC), in the 1900 or the 1904 date system. */
export function excelSerialToDate(serial: number, uses1904DateSystem: boolean): Date {
  if (uses1904DateSystem) return new Date(excel1904Epoch + Math.round(serial * millisecondsPerDay));
  const epoch = serial >= 61 ? excel1900EpochAfterLeapBug : excel1900Epoch;
  return new Date(epoch + Math.round(serial * millisecondsPerDay));
}

/** "2024-03-01", "2024-03-01 14:30", or "14:30:15" for a time of day with no date part. */
export function formatDateTime(date: Date, timeOnly = false): string {
  const iso = date.toISOString();
  const day = iso.slice(0, 10);
  const seconds = iso.slice(17, 19);
  const time = seconds === "00" ? iso.slice(11, 16) : iso.slice(11, 19);
  if (timeOnly) return time;
  return iso.slice(11, 19) === "00:00:00" ? day : `${day} ${time}`;
}

/** Built-in formats that show only a time of day: h:mm AM/PM, h:mm:ss, mm:ss, [h]:mm:ss, mm:ss.0 … */
const builtInTimeOnlyFormats = new Set([18, 19, 20, 21, 45, 46, 47]);

function showsCalendarDate(format: NumberFormat): boolean {
  if (format.code !== undefined) return /[dy]/i.test(formatTokens(format.code).split(";")[0] ?? "");
  return !builtInTimeOnlyFormats.has(format.builtInId ?? -1);
}

/** A date cell's text (a reader that already turned the serial into a Date, as exceljs does). */
export function formatCellDate(date: Date, format: NumberFormat): string {
  const isTimeOfDay = date.getTime() < excel1900Epoch + millisecondsPerDay && !showsCalendarDate(format);
  return formatDateTime(date, isTimeOfDay);
}

/** A numeric cell's text under its number format. */
export function formatCellNumber(value: number, format: NumberFormat, uses1904DateSystem: boolean): string {
  // 2,958,466 is 10000-01-01, past the last date Excel can show.
  if (isDateFormat(format) && value >= 0 && value < 2_958_466) {
    const timeOnly = value < 1 && !showsCalendarDate(format);
    return formatDateTime(excelSerialToDate(value, uses1904DateSystem), timeOnly);
  }
  if (isPercentFormat(format)) return `${formatGeneralNumber(value * 100)}%`;
  return formatGeneralNumber(value);
}
