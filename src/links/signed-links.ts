/**
 * Signed, expiring links to the source viewer (`/files/<documentId>?exp=&sig=`), so a citation opens
 * the original file for whoever holds the link — and only until it expires. The signature is an
 * HMAC-SHA256 of "<documentId>:<exp>" with the deployment's link secret. The place is not signed: it
 * travels as the `#page=N` (PDF) or `#section=…` (a heading path, src/domain/source-place.ts) fragment,
 * which browsers never send to the server, and a link grants the whole document anyway. Signatures are
 * compared with timingSafeEqual so response times reveal nothing.
 *
 * The same secret signs short-lived links to a questionnaire job's filled copy (#37): the HMAC of
 * "filled-copy:<jobId>:<exp>", a different message from any document link's, so the console can offer
 * the copy as a plain download link while a page from another site, which cannot send the console's
 * header, cannot fetch it without one.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { sectionAnchor } from "../domain/source-place.js";

export type LinkVerdict = "valid" | "expired" | "invalid";

export type LinkSigner = {
  /**
   * Absolute viewer URL; with a page (only PDFs have pages) it ends `#page=N`, else with a section's
   * heading path `#section=…`, so the viewer opens there.
   */
  signDocumentUrl(request: { documentId: string; page?: number | null; section?: readonly string[] | null }): string;
  verifyDocumentLink(link: { documentId: string; exp: string | null; sig: string | null }): LinkVerdict;
  /** The console's path to a job's filled copy, valid for FILLED_COPY_LINK_SECONDS. */
  signFilledCopyPath(jobId: string): string;
  verifyFilledCopyLink(link: { jobId: string; exp: string | null; sig: string | null }): LinkVerdict;
};

/** How long a filled-copy link stays valid: the console asks for a fresh one at each click. */
export const FILLED_COPY_LINK_SECONDS = 10 * 60;

/** The console's route for a filled copy. */
export const FILLED_COPY_PATH = "/api/questionnaires/filled";

export function createLinkSigner(options: {
  secret: string;
  publicUrl: string;
  ttlSeconds: number;
  now?: () => number;
}): LinkSigner {
  const now = options.now ?? (() => Date.now());
  const baseUrl = options.publicUrl.replace(/\/+$/, "");
  const sign = (message: string) => createHmac("sha256", options.secret).update(message).digest("hex");
  const signature = (documentId: string, exp: string) => sign(`${documentId}:${exp}`);
  const copySignature = (jobId: string, exp: string) => sign(`filled-copy:${jobId}:${exp}`);
  const verify = (expected: string, exp: string | null, sig: string | null): LinkVerdict => {
    if (!exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[0-9a-f]{64}$/.test(sig)) return "invalid";
    if (!timingSafeEqual(Buffer.from(expected, "hex"), Buffer.from(sig, "hex"))) return "invalid";
    return Number(exp) * 1000 < now() ? "expired" : "valid";
  };

  return {
    signDocumentUrl({ documentId, page, section }) {
      const exp = String(Math.floor(now() / 1000) + options.ttlSeconds);
      const url = `${baseUrl}/files/${encodeURIComponent(documentId)}?exp=${exp}&sig=${signature(documentId, exp)}`;
      if (page) return `${url}#page=${page}`;
      const anchor = sectionAnchor(section ?? []);
      return anchor === "" ? url : `${url}#${encodeURI(anchor)}`;
    },
    verifyDocumentLink({ documentId, exp, sig }) {
      return verify(exp ? signature(documentId, exp) : "", exp, sig);
    },
    signFilledCopyPath(jobId) {
      const exp = String(Math.floor(now() / 1000) + FILLED_COPY_LINK_SECONDS);
      return `${FILLED_COPY_PATH}?id=${encodeURIComponent(jobId)}&exp=${exp}&sig=${copySignature(jobId, exp)}`;
    },
    verifyFilledCopyLink({ jobId, exp, sig }) {
      return verify(exp ? copySignature(jobId, exp) : "", exp, sig);
    },
  };
}
