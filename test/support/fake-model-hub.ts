/**
 * A stand-in for the Hugging Face hub on 127.0.0.1, speaking the part of its protocol model downloads
 * use (huggingface_hub `file_download.py`): `GET /<owner>/<repo>/resolve/<revision>/<path>` answers
 * - for an LFS file: 302 to a CDN URL on another origin, with `X-Linked-Etag` (the SHA-256),
 *   `X-Linked-Size` and `X-Repo-Commit`; the CDN answers 200 with an ETag that is not a content hash;
 * - for a small file kept in git: 200 with `ETag` = the git blob SHA-1;
 * - for a renamed repository: 307 to the new name, relative (the case huggingface_hub follows itself);
 * - for a missing file: 404 with `X-Error-Code: EntryNotFound`.
 * The CDN is a second server on its own port, so it is another origin than the hub, as on the real hub.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

export type FakeHubFile = {
  bytes: Uint8Array;
  lfs: boolean;
  /** Sent instead of `bytes` while the headers still describe `bytes` (a corrupted transfer). */
  servedBytes?: Uint8Array;
  /** Answer the resolve request with this status instead. */
  failWith?: number;
  /** Send this many bytes of the body, then nothing more (a stalled transfer). */
  stallAfterBytes?: number;
};

export type RecordedRequest = { host: string; path: string; authorization: string | null };

export type FakeModelHub = {
  /** The hub's base URL, for HF_ENDPOINT. */
  url: string;
  requests: RecordedRequest[];
  addFile(repository: string, revision: string, filePath: string, file: FakeHubFile): void;
  /** Serves every file of a local model folder; files at `lfsPaths` as LFS. */
  addDirectory(
    repository: string,
    revision: string,
    directory: string,
    files: string[],
    lfsPaths: string[],
  ): Promise<void>;
  renameRepository(from: string, to: string): void;
  close(): Promise<void>;
};

export function sha256Of(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export function gitBlobSha1Of(bytes: Uint8Array): string {
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

export async function startFakeModelHub(commit = "0123456789abcdef0123456789abcdef01234567"): Promise<FakeModelHub> {
  const files = new Map<string, FakeHubFile>();
  const renames = new Map<string, string>();
  const lfsObjects = new Map<string, FakeHubFile>();
  const requests: RecordedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  let cdnPort = 0;

  function answer(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? "/", "http://placeholder");
    requests.push({
      host: request.headers.host ?? "",
      path: url.pathname,
      authorization: request.headers.authorization ?? null,
    });
    const cdn = url.pathname.match(/^\/cdn-lfs\/([0-9a-f]{64})$/);
    if (cdn) return sendLfsObject(lfsObjects.get(cdn[1] ?? ""), response);
    const resolve = url.pathname.match(/^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/);
    if (!resolve) return sendError(response, 404, "RepoNotFound");
    const [, repository = "", revision = "", encodedPath = ""] = resolve;
    const renamed = renames.get(repository);
    if (renamed) {
      response.writeHead(307, { location: `/${renamed}/resolve/${revision}/${encodedPath}` });
      return response.end();
    }
    const filePath = encodedPath.split("/").map(decodeURIComponent).join("/");
    const file = files.get(key(repository, decodeURIComponent(revision), filePath));
    if (!file) return sendError(response, 404, "EntryNotFound");
    if (file.failWith) return sendError(response, file.failWith, "InternalError");
    if (file.lfs) {
      const sha256 = sha256Of(file.bytes);
      lfsObjects.set(sha256, file);
      const location = `http://127.0.0.1:${cdnPort}/cdn-lfs/${sha256}`;
      const body = `Found. Redirecting to ${location}`;
      response.writeHead(302, {
        location,
        "x-linked-etag": `"${sha256}"`,
        "x-linked-size": String(file.bytes.length),
        "x-repo-commit": commit,
        "content-length": String(Buffer.byteLength(body)),
      });
      return response.end(body);
    }
    sendBody(file, response, { etag: `"${gitBlobSha1Of(file.bytes)}"`, "x-repo-commit": commit });
  }

  function sendLfsObject(file: FakeHubFile | undefined, response: ServerResponse) {
    if (!file) return sendError(response, 404, "EntryNotFound");
    // An S3-style ETag: not the file's hash, so a client must not read it as one.
    sendBody(file, response, { etag: '"d41d8cd98f00b204e9800998ecf8427e-3"' });
  }

  function sendBody(file: FakeHubFile, response: ServerResponse, headers: Record<string, string>) {
    const body = Buffer.from(file.servedBytes ?? file.bytes);
    response.writeHead(200, { ...headers, "content-length": String(file.bytes.length) });
    if (file.stallAfterBytes !== undefined) {
      response.write(body.subarray(0, file.stallAfterBytes));
      hanging.add(response);
      return;
    }
    response.end(body);
  }

  function sendError(response: ServerResponse, status: number, code: string) {
    response.writeHead(status, { "x-error-code": code, "x-error-message": code, "content-type": "text/plain" });
    response.end(code);
  }

  const servers = [createServer(answer), createServer(answer)];
  const [hub, cdn] = servers as [Server, Server];
  for (const server of servers) await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cdnPort = (cdn.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${(hub.address() as AddressInfo).port}`,
    requests,
    addFile(repository, revision, filePath, file) {
      files.set(key(repository, revision, filePath), file);
    },
    async addDirectory(repository, revision, directory, names, lfsPaths) {
      for (const name of names) {
        const bytes = new Uint8Array(await readFile(path.join(directory, ...name.split("/"))));
        files.set(key(repository, revision, name), { bytes, lfs: lfsPaths.includes(name) });
      }
    },
    renameRepository(from, to) {
      renames.set(from, to);
    },
    async close() {
      for (const response of hanging) response.destroy();
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}

function key(repository: string, revision: string, filePath: string): string {
  return `${repository}@${revision}:${filePath}`;
}
