/**
 * Messages between the main thread and the PGlite worker (pglite-worker.ts). Every request carries an
 * id and gets one reply with that id. A transaction is opened by `begin`, its queries name it, and
 * `end` commits or rolls it back; PGlite keeps other queries waiting while it is open, as in-process.
 */
export type PgliteRequest =
  | { id: number; kind: "open"; dataDir: string }
  | { id: number; kind: "query"; sql: string; params: unknown[]; transaction: number | null }
  | { id: number; kind: "begin" }
  | { id: number; kind: "end"; transaction: number; commit: boolean }
  | { id: number; kind: "close" };

/**
 * A database error as plain data: structured cloning keeps an Error's message but drops its own
 * fields, and callers read Postgres's `code` (23505 unique violation, …), `detail` and the rest.
 */
export type SerializedError = { name: string; message: string; fields: Record<string, string | number | boolean> };

export type PgliteReply =
  | { id: number; ok: true; rows?: unknown[]; transaction?: number }
  | { id: number; ok: false; error: SerializedError };

export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: "Error", message: String(error), fields: {} };
  const fields: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") fields[key] = value;
  }
  return { name: error.name, message: error.message, fields };
}

/** The error again, on this side, with the database's fields (`code`, `detail`, …) and this side's stack. */
export function deserializeError(serialized: SerializedError): Error {
  const error = Object.assign(new Error(serialized.message), serialized.fields);
  error.name = serialized.name;
  return error;
}
