/**
 * How spreadsheet cell values read as text in a chunk, for .xlsx and .xls alike: numbers without
 * binary noise (0.1 + 0.2 reads "0.3"), percentages as percentages, dates and times as ISO 8601
 * (unambiguous for people in every locale, and what a question like "due 2024-03-01" matches).
 * Currency and thousands separators are not reproduced: the number itself is what gets indexed.
 */

const secondsPerDay = 86_400;
const millisecondsPerDay = secondsPerDay * 1000;
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

/** The part of a format code that applies to positive numbers, literal text and colours removed. */
function positiveSection(code: string): string {
  return formatTokens(code).split(";")[0] ?? "";
}

export function isDateFormatCode(code: string): boolean {
  const section = positiveSection(code);
  return /[dmyhs]/i.test(section) && !/^general$/i.test(section.trim());
}

export type NumberFormat = { code?: string; builtInId?: number };

function isDateFormat(format: NumberFormat): boolean {
  if (format.code !== undefined) return isDateFormatCode(format.code);
  return format.builtInId !== undefined && builtInDateFormats.has(format.builtInId);
}

function isPercentFormat(format: NumberFormat): boolean {
  if (format.code !== undefined) return positiveSection(format.code).includes("%");
  return format.builtInId !== undefined && builtInPercentFormats.has(format.builtInId);
}

/** A number as Excel's "General" format would show it, to 15 significant digits. */
export function formatGeneralNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return String(value);
  return String(Number(value.toPrecision(15)));
}

/** The date an Excel serial number stands for (UTC), in the 1900 or the 1904 date system, to the second. */
export function excelSerialToDate(serial: number, uses1904DateSystem: boolean): Date {
  const epoch = uses1904DateSystem ? excel1904Epoch : serial >= 61 ? excel1900EpochAfterLeapBug : excel1900Epoch;
  return new Date(epoch + Math.round(serial * secondsPerDay) * 1000);
}

/** Built-in formats that show only a time of day: h:mm AM/PM, h:mm:ss, mm:ss, [h]:mm:ss, mm:ss.0 … */
const builtInTimeOnlyFormats = new Set([18, 19, 20, 21, 45, 46, 47]);
/** Built-in formats that show seconds. */
const builtInSecondsFormats = new Set([19, 21, 45, 46, 47]);
/** Built-in 22 (m/d/yy h:mm): how a date cell without a format of its own reads. */
const dateAndTimeFormat: NumberFormat = { builtInId: 22 };

function firstSection(format: NumberFormat): string | null {
  return format.code === undefined ? null : positiveSection(format.code);
}

function showsCalendarDate(format: NumberFormat): boolean {
  const section = firstSection(format);
  if (section !== null) return /[dy]/i.test(section);
  return !builtInTimeOnlyFormats.has(format.builtInId ?? -1);
}

function showsSeconds(format: NumberFormat): boolean {
  const section = firstSection(format);
  if (section !== null) return /s/i.test(section);
  return builtInSecondsFormats.has(format.builtInId ?? -1);
}

/** The unit an elapsed-time format ([h]:mm:ss, [mm]:ss, [ss]) counts in, or null for a clock time. */
function elapsedUnit(format: NumberFormat): "h" | "m" | "s" | null {
  if (format.code === undefined) return format.builtInId === 46 ? "h" : null;
  const match = /\[(h|m|s)\1*\]/i.exec(firstSection(format) ?? "");
  return match ? ((match[1] ?? "h").toLowerCase() as "h" | "m" | "s") : null;
}

const twoDigits = (value: number) => String(value).padStart(2, "0");

/** A duration as an elapsed-time format shows it: "36:00:00" for a day and a half in [h]:mm:ss. */
function formatElapsed(days: number, unit: "h" | "m" | "s", withSeconds: boolean): string {
  const total = Math.round(Math.abs(days) * secondsPerDay);
  const sign = days < 0 ? "-" : "";
  const seconds = total % 60;
  if (unit === "s") return `${sign}${total}`;
  if (unit === "m") return `${sign}${Math.floor(total / 60)}:${twoDigits(seconds)}`;
  const minutes = Math.floor(total / 60) % 60;
  return `${sign}${Math.floor(total / 3600)}:${twoDigits(minutes)}${withSeconds ? `:${twoDigits(seconds)}` : ""}`;
}

/** "2024-03-01", "2024-03-01 14:30", or "14:30:15" for a time of day with no date part. */
function formatDateTime(date: Date, timeOnly = false, withSeconds = false): string {
  const iso = date.toISOString();
  const day = iso.slice(0, 10);
  const time = withSeconds ? iso.slice(11, 19) : iso.slice(11, 16);
  if (timeOnly) return time;
  return iso.slice(11, 19) === "00:00:00" ? day : `${day} ${time}`;
}

/** A numeric cell's text under its number format. */
export function formatCellNumber(value: number, format: NumberFormat, uses1904DateSystem: boolean): string {
  if (isDateFormat(format) && Number.isFinite(value)) {
    const unit = elapsedUnit(format);
    if (unit !== null) return formatElapsed(value, unit, showsSeconds(format));
    const date = excelSerialToDate(value, uses1904DateSystem);
    // Excel shows neither negative serials nor dates past 9999-12-31 as dates.
    if (value >= 0 && date.getUTCFullYear() <= 9999) {
      const timeOnly = value < 1 && !showsCalendarDate(format);
      return formatDateTime(date, timeOnly, showsSeconds(format));
    }
  }
  if (isPercentFormat(format)) return `${formatGeneralNumber(value * 100)}%`;
  return formatGeneralNumber(value);
}

/**
 * A date cell's text, for a reader that already turned the serial into a Date (exceljs counts from
 * 1899-12-30, or from 1904-01-01 in a 1904 workbook): back to the serial, then as formatCellNumber.
 */
export function formatCellDate(date: Date, format: NumberFormat, uses1904DateSystem: boolean): string {
  const epoch = uses1904DateSystem ? excel1904Epoch : excel1900EpochAfterLeapBug;
  const serial = (date.getTime() - epoch) / millisecondsPerDay;
  return formatCellNumber(serial, isDateFormat(format) ? format : dateAndTimeFormat, uses1904DateSystem);
}
