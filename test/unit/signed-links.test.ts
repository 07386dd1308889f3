/**
 * Signed citation links: a link verifies only for the document and expiry it was signed for, expires
 * on time, compares signatures in constant time; the link secret is generated once into the data
 * directory with mode 0600 and reused, and a configured secret wins.
 */
import * as crypto from "node:crypto";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resolveLinkSecret } from "../../src/links/link-secret.js";
import { createLinkSigner } from "../../src/links/signed-links.js";

vi.mock("node:crypto", async (importOriginal) => {
  const original = await importOriginal<typeof import("node:crypto")>();
  return { ...original, timingSafeEqual: vi.fn(original.timingSafeEqual) };
});

const SECRET = "s".repeat(40);
const NOW_MS = 1_700_000_000_000;
const TTL_SECONDS = 3600;

function signerAt(clock: { now: number }, secret = SECRET) {
  return createLinkSigner({
    secret,
    publicUrl: "https://folio.example.com/",
    ttlSeconds: TTL_SECONDS,
    now: () => clock.now,
  });
}

/** The parts of a signed URL the viewer route hands to verifyDocumentLink. */
function partsOf(url: string) {
  const parsed = new URL(url);
  return {
    documentId: decodeURIComponent(parsed.pathname.replace(/^\/files\//, "")),
    exp: parsed.searchParams.get("exp"),
    sig: parsed.searchParams.get("sig"),
    hash: parsed.hash,
  };
}

describe("signed document links", () => {
  const clock = { now: NOW_MS };
  beforeEach(() => {
    clock.now = NOW_MS;
  });

  it("signs an absolute viewer URL with expiry, and #page=N for a page", () => {
    const url = signerAt(clock).signDocumentUrl({ documentId: "doc 1/ä", page: 4 });
    const { documentId, exp, sig, hash } = partsOf(url);
    expect(url.startsWith("https://folio.example.com/files/doc%201%2F%C3%A4?exp=")).toBe(true);
    expect(documentId).toBe("doc 1/ä");
    expect(exp).toBe(String(NOW_MS / 1000 + TTL_SECONDS));
    expect(sig).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe("#page=4");
    expect(partsOf(signerAt(clock).signDocumentUrl({ documentId: "doc-1" })).hash).toBe("");
  });

  it("verifies a link it signed", () => {
    const signer = signerAt(clock);
    const { documentId, exp, sig } = partsOf(signer.signDocumentUrl({ documentId: "doc-1", page: 2 }));
    expect(signer.verifyDocumentLink({ documentId, exp, sig })).toBe("valid");
  });

  it("rejects a link moved to another document", () => {
    const signer = signerAt(clock);
    const { exp, sig } = partsOf(signer.signDocumentUrl({ documentId: "doc-1" }));
    expect(signer.verifyDocumentLink({ documentId: "doc-2", exp, sig })).toBe("invalid");
    expect(signer.verifyDocumentLink({ documentId: "doc-1 ", exp, sig })).toBe("invalid");
  });

  it("rejects a link whose expiry was extended or rewritten", () => {
    const signer = signerAt(clock);
    const { documentId, exp, sig } = partsOf(signer.signDocumentUrl({ documentId: "doc-1" }));
    expect(signer.verifyDocumentLink({ documentId, exp: String(Number(exp) + 1), sig })).toBe("invalid");
    expect(signer.verifyDocumentLink({ documentId, exp: `0${exp}`, sig })).toBe("invalid");
    expect(signer.verifyDocumentLink({ documentId, exp: `${exp}.0`, sig })).toBe("invalid");
    expect(signer.verifyDocumentLink({ documentId, exp: "-1", sig })).toBe("invalid");
  });

  it("does not sign the page: it is a #fragment the browser never sends, so any page opens", () => {
    const signer = signerAt(clock);
    const onPage2 = partsOf(signer.signDocumentUrl({ documentId: "doc-1", page: 2 }));
    const onPage9 = partsOf(signer.signDocumentUrl({ documentId: "doc-1", page: 9 }));
    expect(onPage9.sig).toBe(onPage2.sig);
    expect(onPage9.exp).toBe(onPage2.exp);
  });

  it("rejects truncated, garbage, upper-cased, missing or foreign signatures", () => {
    const signer = signerAt(clock);
    const { documentId, exp, sig } = partsOf(signer.signDocumentUrl({ documentId: "doc-1" }));
    const valid = sig ?? "";
    const flipped = `${valid.slice(0, -1)}${valid.endsWith("0") ? "1" : "0"}`;
    const foreign = partsOf(signerAt(clock, "t".repeat(40)).signDocumentUrl({ documentId: "doc-1" })).sig;
    for (const bad of [
      valid.slice(0, 63),
      valid.slice(0, 32),
      `${valid}00`,
      flipped,
      valid.toUpperCase(),
      "z".repeat(64),
      "",
      null,
      foreign,
    ])
      expect(signer.verifyDocumentLink({ documentId, exp, sig: bad })).toBe("invalid");
    expect(signer.verifyDocumentLink({ documentId, exp: null, sig: valid })).toBe("invalid");
  });

  it("expires after the TTL: valid through the expiry second, expired after it", () => {
    const signer = signerAt(clock);
    const { documentId, exp, sig } = partsOf(signer.signDocumentUrl({ documentId: "doc-1" }));
    clock.now = NOW_MS + TTL_SECONDS * 1000;
    expect(signer.verifyDocumentLink({ documentId, exp, sig })).toBe("valid");
    clock.now = NOW_MS + TTL_SECONDS * 1000 + 1;
    expect(signer.verifyDocumentLink({ documentId, exp, sig })).toBe("expired");
  });

  it("reports a tampered expired link as invalid, not expired", () => {
    const signer = signerAt(clock);
    const { documentId, exp } = partsOf(signer.signDocumentUrl({ documentId: "doc-1" }));
    clock.now = NOW_MS + TTL_SECONDS * 2000;
    expect(signer.verifyDocumentLink({ documentId, exp, sig: "0".repeat(64) })).toBe("invalid");
  });

  it("compares signatures with crypto.timingSafeEqual", () => {
    const timingSafeEqual = vi.mocked(crypto.timingSafeEqual);
    timingSafeEqual.mockClear();
    const signer = signerAt(clock);
    const { documentId, exp, sig } = partsOf(signer.signDocumentUrl({ documentId: "doc-1" }));
    expect(signer.verifyDocumentLink({ documentId, exp, sig })).toBe("valid");
    expect(signer.verifyDocumentLink({ documentId, exp, sig: "0".repeat(64) })).toBe("invalid");
    expect(timingSafeEqual).toHaveBeenCalledTimes(2);
    const [expected, given] = timingSafeEqual.mock.calls[1] ?? [];
    expect(Buffer.isBuffer(expected) && Buffer.isBuffer(given)).toBe(true);
    expect((given as Buffer).equals(Buffer.alloc(32))).toBe(true);
  });
});

describe("signed filled-copy links (#37)", () => {
  const clock = { now: NOW_MS };
  beforeEach(() => {
    clock.now = NOW_MS;
  });
  const partsOfPath = (path: string) => {
    const parsed = new URL(path, "http://localhost");
    return {
      pathname: parsed.pathname,
      jobId: parsed.searchParams.get("id") ?? "",
      exp: parsed.searchParams.get("exp"),
      sig: parsed.searchParams.get("sig"),
    };
  };

  it("signs the console's path for ten minutes, for that job only", () => {
    const signer = signerAt(clock);
    const { pathname, jobId, exp, sig } = partsOfPath(signer.signFilledCopyPath("job-1"));
    expect([pathname, jobId, exp]).toEqual(["/api/questionnaires/filled", "job-1", String(NOW_MS / 1000 + 600)]);
    expect(signer.verifyFilledCopyLink({ jobId, exp, sig })).toBe("valid");
    expect(signer.verifyFilledCopyLink({ jobId: "job-2", exp, sig })).toBe("invalid");
    expect(signer.verifyFilledCopyLink({ jobId, exp: String(Number(exp) + 60), sig })).toBe("invalid");
    expect(signer.verifyFilledCopyLink({ jobId, exp, sig: null })).toBe("invalid");
    clock.now = NOW_MS + 601_000;
    expect(signer.verifyFilledCopyLink({ jobId, exp, sig })).toBe("expired");
  });

  it("is no document link and takes none: the two sign different messages", () => {
    const signer = signerAt(clock);
    const document = partsOf(signer.signDocumentUrl({ documentId: "same-id" }));
    expect(signer.verifyFilledCopyLink({ jobId: "same-id", exp: document.exp, sig: document.sig })).toBe("invalid");
    const copy = partsOfPath(signer.signFilledCopyPath("same-id"));
    expect(signer.verifyDocumentLink({ documentId: "same-id", exp: copy.exp, sig: copy.sig })).toBe("invalid");
  });
});

describe("resolveLinkSecret", () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = path.join(await mkdtemp(path.join(tmpdir(), "folio-link-secret-")), "data");
  });
  afterEach(async () => {
    await rm(path.dirname(dataDir), { recursive: true, force: true });
  });

  it("creates <dataDir>/link-secret with mode 0600 once and reuses it", async () => {
    const first = await resolveLinkSecret({ dataDir });
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    const file = path.join(dataDir, "link-secret");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, "utf8")).trim()).toBe(first);
    const { mtimeMs } = await stat(file);

    expect(await resolveLinkSecret({ dataDir })).toBe(first);
    expect(await resolveLinkSecret({ dataDir })).toBe(first);
    expect((await stat(file)).mtimeMs).toBe(mtimeMs);
    // No temporary files are left behind.
    expect(await readdir(dataDir)).toEqual(["link-secret"]);
  });

  it("gives every concurrent caller the same secret", async () => {
    const secrets = await Promise.all(Array.from({ length: 8 }, () => resolveLinkSecret({ dataDir })));
    expect(new Set(secrets).size).toBe(1);
    expect((await readFile(path.join(dataDir, "link-secret"), "utf8")).trim()).toBe(secrets[0]);
    expect(await readdir(dataDir)).toEqual(["link-secret"]);
  });

  it("uses a configured secret and writes no file", async () => {
    const configured = "c".repeat(48);
    expect(await resolveLinkSecret({ configured, dataDir })).toBe(configured);
    await expect(stat(dataDir)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("prefers a configured secret over one already stored", async () => {
    const stored = await resolveLinkSecret({ dataDir });
    const configured = "c".repeat(48);
    expect(await resolveLinkSecret({ configured, dataDir })).toBe(configured);
    expect(await resolveLinkSecret({ dataDir })).toBe(stored);
  });

  it("refuses a stored secret too short to be a key, naming the file", async () => {
    await resolveLinkSecret({ dataDir });
    const file = path.join(dataDir, "link-secret");
    for (const content of ["", "\n", "short-key\n"]) {
      await writeFile(file, content);
      await expect(resolveLinkSecret({ dataDir })).rejects.toMatchObject({
        code: "link_secret_invalid",
        message: expect.stringContaining(file),
      });
      expect(await readFile(file, "utf8")).toBe(content);
    }
  });
});
