/**
 * Text quoted from documents is data, never a live link (only Folio's own signed links are links).
 * Chat clients turn more than link syntax into links: Slack and Teams link a bare `https://…`, a
 * `www.…` and a bare domain such as `evil.example/login`. This module finds those in text and rewrites
 * each one in the defanged form security teams use, `hxxps://evil[.]example/login`: readable, plainly
 * not a link, and matched by no linkifier (a `[` cannot be part of a host name). Invisible separators
 * were rejected: linkifiers that accept format characters in host names would still link them, and IDNA
 * maps the separator away, to the very host it was meant to hide.
 */

/** Top-level domains a chat client links without a scheme; others need `http(s)://` or `www.` to be links. */
const bareDomainSuffixes = [
  "com",
  "net",
  "org",
  "io",
  "co",
  "ai",
  "app",
  "dev",
  "info",
  "biz",
  "xyz",
  "me",
  "ly",
  "gov",
  "edu",
  "us",
  "uk",
  "de",
  "fr",
  "ru",
  "cn",
  "example",
  "online",
  "site",
  "top",
  "link",
  "click",
];

const hostCharacters = "[\\p{L}\\p{N}-]";
// Quotation marks (straight and typographic) end a URL: documents quote links as often as they print them.
const pathCharacters = "[^\\s<>\"'`()\\[\\]{}|\\\\^“”‘’«»]";

/**
 * A URL as a chat client would link it: a scheme (`http`, `https`, `ftp`, `mailto:`), `www.`, or a
 * host ending in a well-known top-level domain; with its path. Trailing sentence punctuation is trimmed
 * by the caller.
 */
const urlPattern = new RegExp(
  [
    `\\b(?:https?|ftp):\\/\\/${pathCharacters}+`,
    `\\bmailto:${pathCharacters}+`,
    `\\bwww\\.${pathCharacters}+`,
    `\\b(?:${hostCharacters}+\\.)+(?:${bareDomainSuffixes.join("|")})\\b(?::\\d+)?(?:\\/${pathCharacters}*)?`,
  ].join("|"),
  "giu",
);

/** Sentence punctuation after a URL belongs to the sentence, as linkifiers read it. */
const trailingPunctuation = /[.,;:!?]+$/;

/** `https://evil.example/login` → `hxxps://evil[.]example/login`: the scheme and the host's dots defanged. */
export function defangUrl(url: string): string {
  const withScheme = /^(https?|ftp):\/\//i.exec(url);
  const scheme = withScheme ? `${withScheme[1]?.replace(/t/gi, "x")}://` : "";
  const rest = url.slice(withScheme ? withScheme[0].length : 0);
  if (/^mailto:/i.test(rest)) return `mailto[:]${rest.slice("mailto:".length).replaceAll(".", "[.]")}`;
  const hostEnd = rest.search(/[/?#]/);
  const host = hostEnd < 0 ? rest : rest.slice(0, hostEnd);
  const path = hostEnd < 0 ? "" : rest.slice(hostEnd);
  return `${scheme}${host.replaceAll(".", "[.]").replaceAll("@", "[@]")}${path}`;
}

/** Every URL-like run in `text` rewritten with defangUrl; the rest of the text is unchanged. */
export function defangUrls(text: string): string {
  return text.replace(urlPattern, (match) => {
    const trailing = trailingPunctuation.exec(match)?.[0] ?? "";
    const url = match.slice(0, match.length - trailing.length);
    return `${defangUrl(url)}${trailing}`;
  });
}

/**
 * Text quoted from documents as Markdown that links nothing, for clients that render standard Markdown
 * (Teams messages, Slack's streaming `markdown_text`): `[label](url)` loses its link syntax (`]\(`, an
 * escaped parenthesis, cannot start a link target; `[n]` markers are untouched), autolink brackets
 * `<…>` are escaped, and every URL is defanged, since these clients link bare URLs by themselves.
 */
export function literalMarkdown(text: string): string {
  return defangUrls(text).replaceAll("](", "]\\(").replaceAll("<", "\\<").replaceAll(">", "\\>");
}
