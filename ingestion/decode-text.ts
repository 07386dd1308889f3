/**
 * Turns the bytes of a text upload into a string: BOMs first (UTF-8, UTF-16 LE/BE), then
 * BOM-less UTF-16, strict UTF-8, Shift-JIS (common for Japanese CSV exports) and finally
 * Windows-1252, which decodes anything. Returns null when the bytes are not text at all.
 */

export type DecodedText = {
  text: string;
  encoding: "utf-8" | "utf-16le" | "utf-16be" | "shift_jis" | "windows-1252";
};

const sampleLength = 4096;

function decodeWith(encoding: DecodedText["encoding"], bytes: Uint8Array): string | null {
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    // Not valid in this encoding; the caller tries the next one.
    return null;
  }
}

/** Which byte of each UTF-16 pair is mostly zero in a BOM-less sample, if the pattern is clear. */
function guessBomlessUtf16(bytes: Uint8Array): "utf-16le" | "utf-16be" | null {
  const length = Math.min(bytes.length, sampleLength) & ~1;
  if (length < 4) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let index = 0; index < length; index += 2) {
    if (bytes[index] === 0) evenZeros++;
    if (bytes[index + 1] === 0) oddZeros++;
  }
  const pairs = length / 2;
  if (oddZeros / pairs > 0.6 && evenZeros / pairs < 0.1) return "utf-16le";
  if (evenZeros / pairs > 0.6 && oddZeros / pairs < 0.1) return "utf-16be";
  return null;
}

/** Share of characters that never appear in real text (C0 controls other than whitespace, U+FFFD). */
function controlCharacterShare(text: string): number {
  const sample = text.slice(0, sampleLength);
  if (sample.length === 0) return 0;
  let bad = 0;
  for (let index = 0; index < sample.length; index++) {
    const code = sample.charCodeAt(index);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d && code !== 0x0c) || code === 0xfffd) bad++;
  }
  return bad / sample.length;
}

function looksJapanese(text: string): boolean {
  const sample = text.slice(0, sampleLength);
  const japanese = sample.match(/[\u3040-\u30ff\u4e00-\u9fff\uff66-\uff9f]/g)?.length ?? 0;
  const nonAscii = sample.match(/[^\p{ASCII}]/gu)?.length ?? 0;
  return nonAscii > 0 && japanese / nonAscii > 0.8;
}

/** Decodes text bytes, or returns null when they look binary. */
export function decodeText(bytes: Uint8Array): DecodedText | null {
  let decoded: DecodedText | null = null;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    const text = decodeWith("utf-8", bytes);
    if (text !== null) decoded = { text, encoding: "utf-8" };
  } else if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    const text = decodeWith("utf-16le", bytes);
    if (text !== null) decoded = { text, encoding: "utf-16le" };
  } else if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    const text = decodeWith("utf-16be", bytes);
    if (text !== null) decoded = { text, encoding: "utf-16be" };
  } else {
    const utf16 = guessBomlessUtf16(bytes);
    if (utf16 !== null) {
      const text = decodeWith(utf16, bytes);
      if (text !== null) decoded = { text, encoding: utf16 };
    } else if (!bytes.subarray(0, sampleLength).includes(0)) {
      const utf8 = decodeWith("utf-8", bytes);
      if (utf8 !== null) {
        decoded = { text: utf8, encoding: "utf-8" };
      } else {
        const shiftJis = decodeWith("shift_jis", bytes);
        decoded =
          shiftJis !== null && looksJapanese(shiftJis)
            ? { text: shiftJis, encoding: "shift_jis" }
            : { text: new TextDecoder("windows-1252").decode(bytes), encoding: "windows-1252" };
      }
    }
  }
  if (decoded === null || controlCharacterShare(decoded.text) > 0.01) return null;
  return decoded;
}
