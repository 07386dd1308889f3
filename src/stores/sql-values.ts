/**
 * Values as they cross the SQL boundary, the same on PGlite and PostgreSQL: ids checked before they
 * reach a uuid column, integer arrays as literals, bytea as plain bytes, unique violations recognised.
 */

/**
 * Ids are uuid columns, and Postgres rejects a malformed uuid with an error; an id that is not a uuid
 * (a hand-edited viewer link, another platform's id) simply names nothing.
 */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(id: string): boolean {
  return UUID_PATTERN.test(id);
}

export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "23505";
}

/** Postgres array literal for one row of an `integer[]` column passed through `unnest($n::text[])`. */
export function toIntegerArrayLiteral(values: number[]): string {
  return `{${values.map((value) => Math.trunc(value)).join(",")}}`;
}

/** bytea comes back as Buffer from `pg` and Uint8Array from PGlite; callers get a plain Uint8Array. */
export function toPlainBytes(value: Uint8Array): Uint8Array {
  return new Uint8Array(value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength));
}
