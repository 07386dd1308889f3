/**
 * Signed, expiring links to the source viewer (`/files/<documentId>?exp=&sig=`), so a citation opens
 * the original file for whoever holds the link — and only until it expires. The signature is an
 * HMAC-SHA256 of "<documentId>:<exp>" with the deployment's link secret. The place is not signed: it
 * travels as the `#page=N` (PDF) or `#section=…` (a heading path, src/domain/source-place.ts) fragment,
 * which browsers never send to the server, and a link grants the whole document anyway. Signatures are compared with timingSafeEqual so response times reveal nothing.
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
};

export function createLinkSigner(options: {
  secret: string;
  publicUrl: string;
  ttlSeconds: number;
  now?: () => number;
}): LinkSigner {
  const now = options.now ?? (() => Date.now());
  const baseUrl = options.publicUrl.replace(/\/+$/, "");
  const signature = (documentId: string, exp: string) =>
    createHmac("sha256", options.secret).update(`${documentId}:${exp}`).digest("hex");

  return {
    signDocumentUrl({ documentId, page, section }) {
      const exp = String(Math.floor(now() / 1000) + options.ttlSeconds);
      const url = `${baseUrl}/files/${encodeURIComponent(documentId)}?exp=${exp}&sig=${signature(documentId, exp)}`;
      if (page) return `${url}#page=${page}`;
      const anchor = sectionAnchor(section ?? []);
      return anchor === "" ? url : `${url}#${encodeURI(anchor)}`;
    },
    verifyDocumentLink({ documentId, exp, sig }) {
      if (!exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[0-9a-f]{64}$/.test(sig)) return "invalid";
      const expected = Buffer.from(signature(documentId, exp), "hex");
      if (!timingSafeEqual(expected, Buffer.from(sig, "hex"))) return "invalid";
      return Number(exp) * 1000 < now() ? "expired" : "valid";
    },
  };
}
