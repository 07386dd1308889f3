/**
 * Downloads one file from the Hugging Face hub (or a server speaking its `resolve` protocol) into the
 * models folder: streamed to a temporary file beside the destination, hashed while it streams,
 * checked against the registry's pins and the hub's own promise, then renamed into place. A failed,
 * corrupted, stalled or aborted download leaves nothing at the destination and nothing temporary.
 *
 * Redirects are followed by hand: the hub's identity headers sit on its redirect to the CDN (which
 * `fetch` would swallow), and the token must not travel to another host. Every hop goes through
 * src/outbound/public-fetch.ts: from huggingface.co, HTTPS to public addresses only, so a redirect to
 * an internal address is refused; a custom HF_ENDPOINT is the operator's mirror, often on the LAN, and
 * may use internal addresses.
 */
import { createHash, randomUUID } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { FolioError } from "../errors.js";
import { fetchPublic, type OutboundPolicy } from "../outbound/public-fetch.js";
import { type ProgressListener, throttleProgress } from "./download-progress.js";
import { computeGitBlobSha1, type FileIdentity, readHubIdentity } from "./hub-file-identity.js";
import { DEFAULT_HUB_ENDPOINT } from "./model-download-settings.js";

export type HubFileRequest = {
  /** Names the model in progress and errors: a registry id, or the repository for a referenced file. */
  model: string;
  repository: string;
  revision: string;
  /** Path inside the repository. */
  path: string;
  destination: string;
  /** Pinned identity; null fields are taken from the hub's promise alone. */
  expected: FileIdentity;
};

export type HubConnection = {
  /** Base URL, e.g. https://huggingface.co (HF_ENDPOINT). */
  endpoint: string;
  /** Sent as `Authorization: Bearer` to the hub only (HF_TOKEN). */
  token: string | null;
};

export type DownloadOptions = {
  onProgress?: ProgressListener;
  signal?: AbortSignal;
  /** A download that receives nothing for this long is abandoned. */
  stallTimeoutMs?: number;
  progressIntervalMs?: number;
  fetch?: typeof fetch;
};

export const DEFAULT_STALL_TIMEOUT_MS = 30_000;
const DEFAULT_PROGRESS_INTERVAL_MS = 1_000;
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Where downloads from `hub` may go: public HTTPS only for huggingface.co; the operator's mirror may be internal. */
export function hubDownloadPolicy(hub: HubConnection): OutboundPolicy {
  return new URL(hub.endpoint).origin === new URL(DEFAULT_HUB_ENDPOINT).origin
    ? { allowedHosts: null, allowPrivateAddresses: false, protocols: ["https:"] }
    : { allowedHosts: null, allowPrivateAddresses: true, protocols: ["http:", "https:"] };
}

/** fetch's shape over fetchPublic (redirects returned, not followed: resolveDownload follows them). */
function guardedHubFetch(hub: HubConnection): typeof fetch {
  const policy = hubDownloadPolicy(hub);
  return ((input: URL, init: { headers: Record<string, string>; signal: AbortSignal }) =>
    fetchPublic(input, policy, { headers: init.headers, signal: init.signal, redirect: "manual" })) as typeof fetch;
}

/** The hub's `resolve` URL for a file (huggingface_hub's `hf_hub_url` form). */
export function hubFileUrl(endpoint: string, repository: string, revision: string, filePath: string): string {
  const encodedPath = filePath.split("/").map(encodeURIComponent).join("/");
  return `${endpoint.replace(/\/+$/, "")}/${repository}/resolve/${encodeURIComponent(revision)}/${encodedPath}`;
}

export async function downloadHubFile(
  request: HubFileRequest,
  hub: HubConnection,
  options: DownloadOptions = {},
): Promise<{ bytes: number; sha256: string }> {
  const url = hubFileUrl(hub.endpoint, request.repository, request.revision, request.path);
  const label = `${request.model}: ${request.path}`;
  const stallTimeoutMs = options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
  const stall = new AbortController();
  const signal = options.signal ? AbortSignal.any([stall.signal, options.signal]) : stall.signal;
  let timer: NodeJS.Timeout | undefined;
  const rearm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => stall.abort(), stallTimeoutMs);
  };

  await mkdir(path.dirname(request.destination), { recursive: true });
  const temporary = path.join(
    path.dirname(request.destination),
    `.${path.basename(request.destination)}.${randomUUID().slice(0, 8)}.download`,
  );
  try {
    rearm();
    const { response, promised } = await resolveDownload(
      url,
      hub,
      signal,
      options.fetch ?? guardedHubFetch(hub),
      label,
    );
    const totalBytes = request.expected.bytes ?? promised.bytes;
    const progress = throttleProgress(
      options.onProgress ?? (() => {}),
      options.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS,
    );
    const hash = createHash("sha256");
    let receivedBytes = 0;
    progress.report({ model: request.model, file: request.path, receivedBytes, totalBytes });
    const file = await open(temporary, "wx");
    try {
      if (response.body) {
        for await (const chunk of Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>)) {
          rearm();
          const bytes = chunk as Buffer;
          hash.update(bytes);
          receivedBytes += bytes.length;
          await file.write(bytes);
          progress.report({ model: request.model, file: request.path, receivedBytes, totalBytes });
        }
      }
    } finally {
      await file.close();
    }
    clearTimeout(timer);
    const sha256 = hash.digest("hex");
    await verifyDownload({ label, url, temporary, receivedBytes, sha256, pinned: request.expected, promised });
    await rename(temporary, request.destination);
    progress.report({ model: request.model, file: request.path, receivedBytes, totalBytes }, true);
    return { bytes: receivedBytes, sha256 };
  } catch (error) {
    await rm(temporary, { force: true });
    throw translateFailure(error, { label, url, destination: request.destination, stallTimeoutMs, stall, options });
  } finally {
    clearTimeout(timer);
  }
}

/** Follows redirects by hand, keeping what the hub's own answers promise about the file. */
async function resolveDownload(
  url: string,
  hub: HubConnection,
  signal: AbortSignal,
  fetchFile: typeof fetch,
  label: string,
): Promise<{ response: Response; promised: FileIdentity }> {
  const hubOrigin = new URL(hub.endpoint).origin;
  let promised: FileIdentity = { sha256: null, gitSha1: null, bytes: null };
  let current = new URL(url);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const onHub = current.origin === hubOrigin;
    const headers: Record<string, string> = { "accept-encoding": "identity", "user-agent": "folio" };
    if (onHub && hub.token) headers.authorization = `Bearer ${hub.token}`;
    const response = await fetchFile(current, { headers, redirect: "manual", signal });
    const redirected = REDIRECT_STATUSES.has(response.status);
    if (onHub) promised = mergeIdentity(promised, readHubIdentity(response.headers, { redirect: redirected }));
    if (redirected) {
      const location = response.headers.get("location");
      await response.body?.cancel();
      if (!location) throw new FolioError("model_download_failed", `${label}: ${current} redirected nowhere.`);
      current = new URL(location, current);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw statusError(response, label, current.toString());
    }
    // A CDN states the length it sends; the hub's promise (when it made one) still wins.
    if (!onHub && promised.bytes === null) {
      promised = { ...promised, bytes: contentLength(response) };
    }
    return { response, promised };
  }
  throw new FolioError("model_download_failed", `${label}: more than ${MAX_REDIRECTS} redirects from ${url}.`, {
    retryable: true,
  });
}

function contentLength(response: Response): number | null {
  const value = response.headers.get("content-length");
  return value !== null && /^\d+$/.test(value) ? Number(value) : null;
}

function mergeIdentity(earlier: FileIdentity, later: FileIdentity): FileIdentity {
  return {
    sha256: later.sha256 ?? earlier.sha256,
    gitSha1: later.gitSha1 ?? earlier.gitSha1,
    bytes: later.bytes ?? earlier.bytes,
  };
}

function statusError(response: Response, label: string, url: string): FolioError {
  const hubCode = response.headers.get("x-error-code");
  const status = `HTTP ${response.status}${hubCode ? ` (${hubCode})` : ""}`;
  const fix =
    response.status === 401 || response.status === 403
      ? "the repository is private or gated: set HF_TOKEN to a token that may read it"
      : response.status === 404
        ? "the file or revision is not on this hub: check HF_ENDPOINT"
        : "the hub failed: try again later";
  return new FolioError("model_download_failed", `Downloading ${label} from ${url} failed with ${status} — ${fix}.`, {
    retryable: response.status === 429 || response.status >= 500,
    details: { status: response.status, hubCode, reason: `${status}: ${fix}` },
  });
}

async function verifyDownload(input: {
  label: string;
  url: string;
  temporary: string;
  receivedBytes: number;
  sha256: string;
  pinned: FileIdentity;
  promised: FileIdentity;
}): Promise<void> {
  const { label, url, receivedBytes, pinned, promised } = input;
  const corrupt = (what: string) =>
    new FolioError(
      "model_checksum_mismatch",
      `Downloaded ${label} from ${url}, but ${what} — the transfer was corrupted or the hub serves other bytes; nothing was kept. Try again, or copy the file in by hand.`,
      { retryable: true },
    );
  for (const [source, expected] of [
    ["the pinned", pinned.bytes],
    ["the hub's stated", promised.bytes],
  ] as const) {
    if (expected !== null && expected !== receivedBytes) {
      throw corrupt(`it is ${receivedBytes} bytes where ${source} size is ${expected}`);
    }
  }
  const sha256Checks = [pinned.sha256, promised.sha256].filter((value): value is string => value !== null);
  const gitChecks = [pinned.gitSha1, promised.gitSha1].filter((value): value is string => value !== null);
  if (sha256Checks.length === 0 && gitChecks.length === 0) {
    throw new FolioError(
      "model_unverifiable",
      `${label} from ${url} came with no checksum (no X-Linked-Etag or ETag from the hub, none pinned), so it was not kept — use a hub that sends them, or copy the file in by hand.`,
    );
  }
  for (const expected of sha256Checks) {
    if (expected !== input.sha256) throw corrupt(`its SHA-256 is ${input.sha256}, expected ${expected}`);
  }
  if (gitChecks.length > 0) {
    const gitSha1 = await computeGitBlobSha1(input.temporary, receivedBytes);
    for (const expected of gitChecks) {
      if (expected !== gitSha1) throw corrupt(`its git blob SHA-1 is ${gitSha1}, expected ${expected}`);
    }
  }
}

function translateFailure(
  error: unknown,
  context: {
    label: string;
    url: string;
    destination: string;
    stallTimeoutMs: number;
    stall: AbortController;
    options: DownloadOptions;
  },
): FolioError {
  if (context.stall.signal.aborted) {
    return new FolioError(
      "model_download_timeout",
      `Downloading ${context.label} from ${context.url} stalled: nothing arrived for ${context.stallTimeoutMs / 1000} s — check the connection and HF_ENDPOINT, then try again.`,
      { retryable: true, cause: error, details: { reason: `nothing arrived for ${context.stallTimeoutMs / 1000} s` } },
    );
  }
  if (context.options.signal?.aborted) {
    return new FolioError("model_download_aborted", `Downloading ${context.label} was stopped; nothing was kept.`, {
      cause: error,
    });
  }
  if (error instanceof FolioError) return error;
  const reason = error instanceof Error ? describeNetworkError(error) : String(error);
  return new FolioError(
    "model_download_failed",
    `Downloading ${context.label} from ${context.url} failed: ${reason} — check that the hub can be reached (HF_ENDPOINT), or copy the file to ${context.destination}.`,
    { retryable: true, cause: error, details: { reason } },
  );
}

/** `fetch failed` says little; its cause (ECONNREFUSED, ENOTFOUND …) says what to fix. */
function describeNetworkError(error: Error): string {
  const cause = error.cause as { code?: string; message?: string } | undefined;
  if (cause?.code) return `${error.message} (${cause.code})`;
  return cause?.message ? `${error.message} (${cause.message})` : error.message;
}
