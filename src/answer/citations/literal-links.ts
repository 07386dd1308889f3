/**
 * Text quoted from documents is data, never a live link (only Folio's own signed links are links).
 * Chat clients turn more than link syntax into links: Slack and Teams link a bare `https://…`, a
 * `www.…` and a bare domain such as `evil.example/login`. This module finds those in text and rewrites
 * each one in the defanged form security teams use, `hxxps://evil[.]example/login`: readable, plainly
 * not a link, and matched by no linkifier (a `[` cannot be part of a host name). Invisible separators
 * were rejected: linkifiers that accept format characters in host names would still link them, and IDNA
 * maps the separator away, to the very host it was meant to hide.
 *
 * Links are found by their shape, not by a list of top-level domains (issue #30: a list of 27 missed
 * `evil.ca` and `evil.zip`, and new ones keep coming): any run of host labels joined by dots whose last
 * label could be a top-level domain (letters only, two or more; or `xn--…`), any dotted IPv4 address,
 * any `scheme://`, and a browser scheme written without slashes (`https:evil.ca`). A dot is also the
 * ideographic and full-width dots that IDNA maps to one (`evil。com`), and zero-width characters inside
 * a host are ignored as a client would (`evil\u200b.com`). A file extension and a top-level domain
 * cannot be told apart by shape (`.zip`, `.mov`, `.md` and `.py` are both), so file names are defanged
 * too (`evil[.]zip`, `README[.]md`), except for the document and web file extensions that no registry
 * delegates (NOT_TOP_LEVEL_DOMAINS: `report.pdf`, `Node.js` stay readable; a client links neither).
 */

/** Characters that render as nothing; a client drops them inside a host name, so they cannot hide one. */
const INVISIBLE = "\\u00AD\\u200B-\\u200D\\u2060\\uFEFF";
/** Dots IDNA maps to "." (full stop, ideographic, full-width, half-width ideographic). */
const DOTS = ".\\u3002\\uFF0E\\uFF61";

const labelCharacters = `[\\p{L}\\p{N}_${INVISIBLE}-]`;
const dot = `[${INVISIBLE}]*[${DOTS}][${INVISIBLE}]*`;
// Quotation marks (straight and typographic) end a URL: documents quote links as often as they print them.
const pathCharacters = "[^\\s<>\"'`()\\[\\]{}|\\\\^“”‘’«»]";

/** Schemes a client links even without `//` after the colon. */
const BARE_SCHEMES = "https?|ftps?|sftp|file|mailto|javascript|vbscript|data|tel|sms|wss?|ms-[a-z-]+|slack|msteams";

/**
 * One link-shaped run: a scheme with `//` (any scheme) or a linkable scheme without; a host of dotted
 * labels (checked further by `hostEnd`); or `//` followed by a host. Trailing sentence punctuation is
 * trimmed by the caller.
 */
const linkShape = new RegExp(
  [
    `(?<scheme>\\b[a-z][a-z0-9+.-]{0,30}:\\/\\/|\\b(?:${BARE_SCHEMES}):(?=[^\\s/]))${pathCharacters}*`,
    `(?<host>${labelCharacters}+(?:${dot}${labelCharacters}+)+)(?::\\d{1,5})?(?:[/?#]${pathCharacters}*)?`,
  ].join("|"),
  "giu",
);

const schemePrefix = new RegExp(`^(?:[a-z][a-z0-9+.-]{0,30}:\\/\\/|(?:${BARE_SCHEMES}):)`, "i");
const invisible = new RegExp(`[${INVISIBLE}]`, "gu");
const anyDot = new RegExp(`[${DOTS}]`, "u");
const hostRun = new RegExp(`${labelCharacters}+(?:${dot}${labelCharacters}+)+`, "giu");

/** Sentence punctuation after a URL belongs to the sentence, as linkifiers read it. */
const trailingPunctuation = /[.,;:!?\u3002\uFF0E\uFF61]+$/u;

/**
 * File extensions that are not top-level domains (checked against the root zone), so a client links no
 * `name.pdf`. A label here is skipped as a top-level domain, never the labels before it: `evil.com.pdf`
 * is still `evil[.]com.pdf`. Only ever shorten this list: an extension that became a top-level domain
 * would leave names ending in it linkable.
 */
const NOT_TOP_LEVEL_DOMAINS = new Set([
  "pdf",
  "doc",
  "docx",
  "xls",
  "xlsx",
  "xlsm",
  "csv",
  "tsv",
  "txt",
  "rtf",
  "odt",
  "ods",
  "ppt",
  "pptx",
  "json",
  "xml",
  "html",
  "htm",
  "png",
  "jpg",
  "jpeg",
  "gif",
  "svg",
  "js",
  "ts",
]);

function isTopLevelDomainShape(label: string): boolean {
  return /^(?:\p{L}{2,63}|xn--[a-z0-9-]{1,59})$/iu.test(label) && !NOT_TOP_LEVEL_DOMAINS.has(label.toLowerCase());
}

function isIpv4(labels: readonly string[]): boolean {
  return labels.length === 4 && labels.every((label) => /^\d{1,3}$/.test(label));
}

/**
 * How many of a dotted run's labels form a host a client could link: all four of an IPv4 address, or
 * up to the last label shaped like a top-level domain; 0 when none does ("v1.2.3", "U.S", "e.g").
 */
function hostLabelCount(labels: readonly string[]): number {
  if (isIpv4(labels)) return 4;
  for (let index = labels.length - 1; index >= 1; index -= 1)
    if (isTopLevelDomainShape(labels[index] as string)) return index + 1;
  return 0;
}

/** The labels of a dotted run, invisible characters dropped. */
function labelsOf(run: string): string[] {
  return run.replace(invisible, "").split(new RegExp(`[${DOTS}]`, "u"));
}

/**
 * A dotted run with the dots of its linkable host defanged (`evil.example` → `evil[.]example`), the
 * invisible characters inside it dropped so the reader sees the host a client would go to; runs that
 * are no host ("3.5", "v1.2.3", "U.S") are returned unchanged.
 */
function defangHostRun(run: string): string {
  const labels = labelsOf(run);
  const count = hostLabelCount(labels);
  if (count === 0) return run;
  // The labels beyond the host ("evil.com.5" → ".5") are kept as written.
  let rest = run;
  for (let index = 0; index < count; index += 1) {
    const next = rest.search(anyDot);
    rest = index < count - 1 ? rest.slice(next + 1) : next < 0 ? "" : rest.slice(next);
  }
  return `${labels.slice(0, count).join("[.]")}${rest}`;
}

/** Every host-shaped run of `text` defanged (a path or query after a host is text like any other). */
function defangHosts(text: string): string {
  return text.replace(hostRun, (run) => defangHostRun(run));
}

/** `https` → `hxxps`, `ftp` → `fxp`; other schemes keep their name and lose their colon (`mailto[:]`). */
function defangScheme(scheme: string): string {
  const name = scheme.slice(0, scheme.indexOf(":"));
  const slashes = scheme.endsWith("//") ? "//" : "";
  if (/^(?:https?|ftps?)$/i.test(name)) return `${name.replace(/t/gi, "x")}:${slashes}`;
  return `${name}[:]${slashes}`;
}

/** `https://evil.example/login` → `hxxps://evil[.]example/login`: the scheme and the host's dots defanged. */
export function defangUrl(url: string): string {
  const scheme = schemePrefix.exec(url);
  if (!scheme) return defangHosts(url);
  return `${defangScheme(scheme[0])}${defangHosts(url.slice(scheme[0].length))}`;
}

/** Every link-shaped run in `text` rewritten with defangUrl; the rest of the text is unchanged. */
export function defangUrls(text: string): string {
  return text.replace(linkShape, (match) => {
    const trailing = trailingPunctuation.exec(match)?.[0] ?? "";
    const url = match.slice(0, match.length - trailing.length);
    return `${defangUrl(url)}${trailing}`;
  });
}

/** A link-shaped run of a text, as a client would read it (trailing punctuation left out). */
export type LinkShape = { text: string; start: number; end: number };

/**
 * The runs of `text` a client could turn into a link: URLs with a scheme, and hosts (with their path)
 * that defangUrls would rewrite. Used to hold an answer's links to the sources' own (verify-answer.ts).
 */
export function findLinkShapes(text: string): LinkShape[] {
  const shapes: LinkShape[] = [];
  for (const match of text.matchAll(linkShape)) {
    const trailing = trailingPunctuation.exec(match[0])?.[0] ?? "";
    const url = match[0].slice(0, match[0].length - trailing.length);
    // A dotted run that is no host ("3.5", "v1.2") is no link.
    if (match.groups?.host !== undefined && hostLabelCount(labelsOf(match.groups.host)) === 0) continue;
    if (url.length === 0) continue;
    shapes.push({ text: url, start: match.index, end: match.index + url.length });
  }
  return shapes;
}

/** A link as compared between texts: invisible characters dropped, IDNA dots as ".", lower-cased. */
export function normalizeLink(link: string): string {
  return link
    .replace(invisible, "")
    .replace(new RegExp(`[${DOTS}]`, "gu"), ".")
    .toLowerCase();
}

/**
 * Text quoted from documents as Markdown that links nothing, for clients that render standard Markdown
 * (Teams messages, Slack's streaming `markdown_text`): `[label](url)` loses its link syntax (`]\(`, an
 * escaped parenthesis, cannot start a link target; `[n]` markers are untouched), a reference definition
 * (`[r]: url`, which would make `[label][r]` a link) loses its colon (`]\:`), autolink brackets `<…>`
 * are escaped, and every URL is defanged, since these clients link bare URLs by themselves.
 */
export function literalMarkdown(text: string): string {
  return defangUrls(text)
    .replaceAll("](", "]\\(")
    .replaceAll("]:", "]\\:")
    .replaceAll("<", "\\<")
    .replaceAll(">", "\\>");
}
