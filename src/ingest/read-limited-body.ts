/**
 * Reads a downloaded file's body with a size limit, as chat adapters fetch files people share: the
 * read stops with `file_too_large` as soon as more than the limit has arrived, whatever the sender declared.
 */
import { FolioError } from "../errors.js";

export function fileTooLarge(maxBytes: number): FolioError {
  const megabytes = Math.round(maxBytes / (1024 * 1024));
  return new FolioError("file_too_large", `The file is larger than ${megabytes} MB, the most Folio accepts.`);
}

/** The body's bytes; throws `file_too_large` once more than `maxBytes` have arrived. */
export async function readBodyWithinLimit(response: Response, maxBytes: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (response.body) {
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      total += chunk.byteLength;
      if (total > maxBytes) throw fileTooLarge(maxBytes);
      chunks.push(chunk);
    }
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
