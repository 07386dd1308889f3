/**
 * Links written so that no client links them — `evil(.)com`, `evil[.]com`, `evil[dot]com`,
 * `evil dot com`, `hxxps://…` — are still addresses a reader can type. Folio writes quoted links in
 * such a form itself (literal-links.ts), so a model that copies the form, or invents one, must have its
 * link checked like any other: this module finds them and gives each one's ordinary spelling.
 */

/** A defanged dot: "(.)", "[.]", "{.}", "[dot]", "(dot)", or " dot " between labels. */
const DEFANGED_DOT = String.raw`(?:\s?[([{]\s?(?:\.|dot)\s?[)\]}]\s?|\s+dot\s+)`;
const LABEL = String.raw`[\p{L}\p{N}_-]+`;
/** The last label of a host: letters only, two or more (a top-level domain's shape). */
const TOP_LABEL = String.raw`\p{L}{2,}`;
const PATH = String.raw`(?:/[^\s<>"'\x60]*)?`;

const DEFANGED_HOST = new RegExp(
  String.raw`(?:\bhxxps?(?:\[:\]|:)//)?${LABEL}(?:(?:${DEFANGED_DOT}|\.)${LABEL})*${DEFANGED_DOT}${TOP_LABEL}\b${PATH}`,
  "giu",
);
const DEFANGED_SCHEME = /\bhxx(ps?)(?:\[:\]|:)\/\/[^\s<>"'`]+/giu;

export type DefangedLink = { text: string; link: string; start: number; end: number };

/** The link a defanged form stands for: dots restored, `hxxp` read as `http`. */
export function refangLink(text: string): string {
  return text
    .replace(new RegExp(DEFANGED_DOT, "giu"), ".")
    .replace(/^hxx(ps?)(?:\[:\]|:)\/\//iu, "htt$1://")
    .replace(/[.,;:!?]+$/u, "");
}

/** The defanged links of a text, with their spans and ordinary spellings. */
export function findDefangedLinks(text: string): DefangedLink[] {
  const links: DefangedLink[] = [];
  const taken = (start: number, end: number) => links.some((link) => start < link.end && link.start < end);
  for (const pattern of [DEFANGED_SCHEME, DEFANGED_HOST]) {
    for (const match of text.matchAll(pattern)) {
      const written = match[0].replace(/[.,;:!?]+$/u, "");
      const start = match.index;
      const end = start + written.length;
      if (taken(start, end)) continue;
      links.push({ text: written, link: refangLink(written), start, end });
    }
  }
  return links.sort((left, right) => left.start - right.start);
}
