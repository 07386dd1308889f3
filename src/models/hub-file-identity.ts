/**
 * What the hub promises about a file before sending it, and how to check the bytes against it.
 *
 * The hub's `resolve` answer carries the file's identity (huggingface_hub `get_hf_file_metadata`):
 * for an LFS file it redirects to a CDN and sends `X-Linked-Etag` = the LFS SHA-256 and
 * `X-Linked-Size`; for a small file kept in git it answers 200 itself with `ETag` = the git blob SHA-1
 * (`sha1("blob <size>\0" + content)`). The CDN's own ETag is not a content hash and is never read.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";

export type FileIdentity = { sha256: string | null; gitSha1: string | null; bytes: number | null };

const SHA256 = /^[0-9a-f]{64}$/;
const SHA1 = /^[0-9a-f]{40}$/;

/** `W/"abc"` and `"abc"` both become `abc` (the normalisation huggingface_hub applies). */
function normaliseEtag(value: string | null): string | null {
  if (value === null) return null;
  return value
    .trim()
    .replace(/^W\//, "")
    .replace(/^"(.*)"$/, "$1")
    .toLowerCase();
}

function parseSize(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value.trim())) return null;
  return Number(value.trim());
}

/**
 * The identity a hub response promises; fields it does not state are null. A redirect's Content-Length
 * is that of its own empty body, so only `X-Linked-Size` gives a redirected file's size.
 */
export function readHubIdentity(headers: Headers, options: { redirect: boolean }): FileIdentity {
  const linked = normaliseEtag(headers.get("x-linked-etag"));
  const etag = linked ?? normaliseEtag(headers.get("etag"));
  return {
    sha256: etag !== null && SHA256.test(etag) ? etag : null,
    gitSha1: etag !== null && SHA1.test(etag) ? etag : null,
    bytes:
      parseSize(headers.get("x-linked-size")) ??
      (linked === null && !options.redirect ? parseSize(headers.get("content-length")) : null),
  };
}

/** Git's blob id of a file on disk. */
export async function computeGitBlobSha1(filePath: string, bytes: number): Promise<string> {
  const hash = createHash("sha1").update(`blob ${bytes}\0`);
  for await (const chunk of createReadStream(filePath)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}
