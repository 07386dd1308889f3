/**
 * The arithmetic a table answer states, done once and written the way a reader checks it: values kept
 * at the precision the table prints them, changes and differences at that precision, averages, ratios
 * and percentages rounded to two decimals (a percentage under 1 % keeps three significant digits), and
 * amounts written with their currency and scale ("$1,452.4 million", "12.6%", "(19)" read as -19).
 */
import type { UnitScale } from "../table-cells.js";

export type Unit = { currency: string | null; scale: UnitScale | null; percent: boolean };

export function decimalsOf(text: string): number {
  const fraction = /\.(\d+)/.exec(text.replace(/,/g, ""));
  return fraction?.[1]?.length ?? 0;
}

export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round((value + Number.EPSILON * Math.sign(value)) * factor) / factor;
}

/** Digits with thousands separators and exactly `decimals` decimals. */
export function formatDigits(value: number, decimals: number): string {
  return Math.abs(value).toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** An amount as a sentence writes it: "$1,452.4 million", "-12.6", "73.2%"; `signed` keeps a minus. */
export function formatAmount(value: number, unit: Unit, decimals: number, signed = true): string {
  const sign = signed && roundTo(value, decimals) < 0 ? "-" : "";
  const digits = formatDigits(value, decimals);
  if (unit.percent) return `${sign}${digits}%`;
  return `${sign}${unit.currency ?? ""}${digits}${unit.scale === null ? "" : ` ${unit.scale}`}`;
}

/** Decimals for a ratio, an average or a percentage: three significant digits at least, two decimals at most above ten. */
export function computedDecimals(value: number): number {
  const magnitude = Math.abs(value);
  if (magnitude === 0 || magnitude >= 100) return magnitude >= 1000 ? 0 : 1;
  if (magnitude >= 10) return 1;
  if (magnitude >= 1) return 2;
  return Math.min(6, 2 - Math.floor(Math.log10(magnitude)));
}

export function percentChange(from: number, to: number): number | null {
  if (from === 0) return null;
  return ((to - from) / Math.abs(from)) * 100;
}

export function average(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** The value a program reads (`Answer.value`): up to four decimals, no separators. */
export function plainNumber(value: number): string {
  return String(roundTo(value, 4));
}
