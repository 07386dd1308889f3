/**
 * Markdown's inline syntax read as the text a reader sees: a link is its text ("[11 local
 * holidays](https://…)" → "11 local holidays"), an image its alt text, emphasis and code marks go, an
 * escaped character is itself, an entity ("&ndash;") its character, a few inline HTML tags (<sup>, <code>, <br>…) leave their text. The
 * target of a link is not kept: Folio's quotes never link anywhere but to its own viewer, and a URL in a
 * passage would only be noise in its terms. An autolink ("<https://mail.google.com>") is its address,
 * shown as text. `withoutLinkSyntax` reads only the links, for Word and HTML text.
 */

/**
 * [text](target "title") and ![alt](target): the target (with its title) may hold one level of parentheses,
 * and spaces, as typed targets do ("mailto:desk@gsa.gov?subject=Security Incident").
 */
const INLINE_LINK = /(!?)\[((?:[^[\]\\]|\\.|\[[^[\]]*\])*)\]\(\s*<?(?:[^()<>\n]|\([^()\n]*\))*>?\s*\)/g;
/** [text][reference] and [text][]. */
const REFERENCE_LINK = /(!?)\[((?:[^[\]\\]|\\.)+)\]\[[^[\]]*\]/g;
const AUTOLINK = /<((?:https?|ftp|mailto):[^<>\s]+)>/gi;
/** Inline HTML that only styles or breaks text; anything else in angle brackets ("<project>") is text. */
const STYLING_TAG = /<\/?(?:sup|sub|code|kbd|b|i|em|strong|u|s|small|mark|span|abbr|a|br|ins|del)(?:\s[^<>]*)?\/?>/gi;
const CODE_SPAN = /(`+)(.+?)\1/g;
/** Strong emphasis may run over a line break of its paragraph. */
const STRONG = /(\*\*|__)(?=\S)([\s\S]+?)(?<=\S)\1/g;
/** *emphasis* and _emphasis_, not the "*" of a product or the "_" inside snake_case. */
const EMPHASIS = /(?<![\p{L}\p{N}*_\\])([*_])(?=[^\s*_])(.+?)(?<=[^\s*_\\])\1(?![\p{L}\p{N}*_])/gu;
const STRIKETHROUGH = /~~(?=\S)([\s\S]+?)(?<=\S)~~/g;
/** Any ASCII punctuation may be escaped ("\=", "\*"). */
const ESCAPED = /\\([!-/:-@[-`{-~])/g;
/** The entities Markdown writers type ("&ndash;", "&nbsp;"), and numeric ones; others stay as written. */
const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  bull: "•",
  middot: "·",
  copy: "©",
  reg: "®",
  trade: "™",
  times: "×",
};
const ENTITY = /&(?:#(\d{1,7})|#x([\da-f]{1,6})|([a-z]{2,8}));/gi;

function decodeEntity(entity: string, decimal?: string, hexadecimal?: string, name?: string): string {
  const code =
    decimal !== undefined ? Number(decimal) : hexadecimal !== undefined ? Number.parseInt(hexadecimal, 16) : null;
  if (code !== null)
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : entity;
  return ENTITIES[(name ?? "").toLowerCase()] ?? entity;
}

/** A paragraph (or a line) of Markdown as plain text (see the module note). */
export function markdownInlineText(line: string): string {
  // Code spans first: what is inside one is literal, so it is set aside (behind private-use marks) and put back last.
  const literals: string[] = [];
  const keep = (text: string) => `\uE000${literals.push(text) - 1}\uE001`;
  let text = line.replace(CODE_SPAN, (_, _ticks: string, code: string) => keep(code.trim()));
  text = text.replace(AUTOLINK, (_, address: string) => keep(address.replace(/^mailto:/i, "")));
  text = text.replace(INLINE_LINK, (_, _bang: string, label: string) => label);
  text = text.replace(REFERENCE_LINK, (_, _bang: string, label: string) => label);
  text = text.replace(STYLING_TAG, (tag: string) => (/^<br\b/i.test(tag) ? " " : ""));
  text = text.replace(STRIKETHROUGH, "$1").replace(STRONG, "$2").replace(EMPHASIS, "$2");
  text = text.replace(ESCAPED, "$1").replace(ENTITY, decodeEntity);
  return text.replace(/\uE000(\d+)\uE001/g, (_, index: string) => literals[Number(index)] ?? "");
}

/**
 * Only Markdown's link syntax, read as its text: for Word and HTML documents whose text was written in
 * Markdown ("[GSA IT Service Desk](mailto:…)" typed into a Word file). Nothing else is touched: an
 * asterisk or underscore there is the document's own.
 */
export function withoutLinkSyntax(text: string): string {
  return text.includes("](") ? text.replace(INLINE_LINK, (_, _bang: string, label: string) => label) : text;
}

/** A reference definition ("[docs]: https://… "Title"") is no text at all. */
export function isReferenceDefinition(line: string): boolean {
  return /^ {0,3}\[[^\]]+\]:\s*\S+/.test(line);
}
