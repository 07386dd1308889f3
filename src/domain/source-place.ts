/**
 * Where in a document a citation points, as people read it and as a link finds it: a PDF by its pages
 * ("p. 12", "pp. 12–13"), a Markdown, HTML, Word or text file by its section's heading path
 * ("Leave › Annual leave"). The section's anchor (`#section=leave/annual-leave`) is what the source
 * viewer gives the heading it renders, so a signed link opens the document there as `#page=N` opens a PDF.
 */

/** The separator between the headings of a path, as citations print it. */
export const SECTION_SEPARATOR = " › ";

/** A citation's place: its pages when it has them, else the heading path of its section (possibly empty). */
export type SourcePlace = {
  pageStart: number | null;
  pageEnd: number | null;
  section?: readonly string[] | undefined;
};

/** "Leave › Annual leave"; "" for no section. Headings come from documents: whitespace is flattened. */
export function describeSection(section: readonly string[]): string {
  return section
    .map((heading) => heading.replace(/\s+/g, " ").trim())
    .filter((heading) => heading !== "")
    .join(SECTION_SEPARATOR);
}

/** "p. 12", "pp. 12–13", "Leave › Annual leave", or "" when the citation has neither. */
export function describeSourcePlace(place: SourcePlace): string {
  if (place.pageStart !== null) {
    return place.pageEnd === null || place.pageEnd === place.pageStart
      ? `p. ${place.pageStart}`
      : `pp. ${place.pageStart}–${place.pageEnd}`;
  }
  return describeSection(place.section ?? []);
}

/** One heading as a fragment part: lower-case letters and digits (any script), runs of others as "-". */
function slugOf(heading: string): string {
  return heading
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
}

/**
 * The fragment naming a section, without "#": "section=leave/annual-leave". The viewer gives the same
 * string as the id of the section it renders, so the browser scrolls there by itself (no script).
 * Empty for an empty path.
 */
export function sectionAnchor(section: readonly string[]): string {
  const parts = section.map(slugOf).filter((part) => part !== "");
  return parts.length === 0 ? "" : `section=${parts.join("/")}`;
}
