/**
 * Reads a small request body (JSON questions) with a hard size cap, so a client cannot make the
 * server buffer more than it is willing to hold.
 */
import type { IncomingMessage } from "node:http";
import { FolioError } from "../errors.js";

export async function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(request.headers["content-length"] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw bodyTooLarge(maxBytes);
  const parts: Buffer[] = [];
  let total = 0;
  for await (const part of request) {
    const buffer = part as Buffer;
    total += buffer.length;
    if (total > maxBytes) throw bodyTooLarge(maxBytes);
    parts.push(buffer);
  }
  return Buffer.concat(parts);
}

/** Parses a JSON object body; anything else is the client's mistake (400), not the server's. */
export async function readJsonObject(request: IncomingMessage, maxBytes: number): Promise<Record<string, unknown>> {
  const body = await readBody(request, maxBytes);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    throw new FolioError("invalid_json", "The request body must be a JSON object.", { details: { status: 400 } });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new FolioError("invalid_json", "The request body must be a JSON object.", { details: { status: 400 } });
  }
  return parsed as Record<string, unknown>;
}

function bodyTooLarge(maxBytes: number): FolioError {
  return new FolioError("body_too_large", `The request body is larger than ${maxBytes} bytes.`, {
    details: { status: 413 },
  });
}
