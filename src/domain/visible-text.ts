/**
 * Names and titles shown as they are, not as invisible characters make them look (issue #30). A file
 * named `invoice\u202Efdp.exe` displays as "invoiceexe.pdf": the right-to-left override reverses what
 * follows it. Direction controls are therefore shown as visible escapes (`invoice[U+202E]fdp.exe`), so
 * the trick is seen rather than silently undone, and characters that render as nothing (zero-width
 * spaces and joiners, soft hyphens, word joiners, fillers, tag characters) are dropped, so two names
 * that look alike are alike. Used wherever a file name or title is shown: chat messages, citations,
 * the source viewer's title and download name, the console.
 */

/** Characters that change the direction of the text around them (Unicode bidi controls and marks). */
const DIRECTION_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;
/** Characters that render as nothing. */
const INVISIBLE =
  /[\u00AD\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200D\u2060-\u2064\u206A-\u206F\u3164\uFEFF\uFFA0\u{E0000}-\u{E007F}]/gu;

/** `invoice\u202Efdp.exe` → `invoice[U+202E]fdp.exe`; zero-width characters dropped. */
export function showInvisibleCharacters(text: string): string {
  return text
    .replace(INVISIBLE, "")
    .replace(
      DIRECTION_CONTROLS,
      (character) => `[U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}]`,
    );
}
