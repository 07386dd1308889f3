/**
 * What a file is when it is not something Folio reads, in words a person recognises, and what its name
 * promised: so a refusal can say "named .pdf, but it is a Windows program" instead of "cannot read this
 * binary file". Used by ingestion/detect-media-type.ts.
 */

export const ACCEPTED_TYPES_SENTENCE =
  "Folio reads PDF, Word (.docx), Excel (.xlsx, .xls), CSV, TSV, Markdown, HTML and plain-text files";

/** Extensions that name a document format Folio reads only as a binary container (never as text). */
const EXPECTED_BY_EXTENSION: Record<string, string> = {
  pdf: "a PDF",
  docx: "a Word document",
  xlsx: "an Excel workbook",
  xls: "an Excel workbook",
};

/** Programs, scripts, installers and libraries: refused by name, whatever their bytes look like. */
const PROGRAM_EXTENSIONS = new Set([
  "exe",
  "dll",
  "msi",
  "com",
  "scr",
  "bat",
  "cmd",
  "ps1",
  "vbs",
  "sh",
  "bin",
  "so",
  "dylib",
  "app",
  "apk",
  "jar",
  "deb",
  "rpm",
  "dmg",
  "iso",
  "pkg",
  "elf",
  "o",
]);

export function extensionOf(fileName: string): string {
  const match = /\.([a-z0-9]+)$/i.exec(fileName);
  return match?.[1]?.toLowerCase() ?? "";
}

/** What the file's extension promises, for the formats whose bytes have a fixed signature. */
export function expectedFromExtension(fileName: string): string | null {
  return EXPECTED_BY_EXTENSION[extensionOf(fileName)] ?? null;
}

export function isProgramExtension(fileName: string): boolean {
  return PROGRAM_EXTENSIONS.has(extensionOf(fileName));
}

function startsWith(bytes: Uint8Array, signature: number[]): boolean {
  return signature.every((value, index) => bytes[index] === value);
}

/** A program by its first bytes, named by platform; null when the bytes are not a program's. */
export function describeProgram(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0x7f, 0x45, 0x4c, 0x46])) return "a Linux program or library (ELF)";
  if (startsWith(bytes, [0x4d, 0x5a]) && hasPeHeader(bytes)) return "a Windows program or library (EXE/DLL)";
  const machO = [
    [0xfe, 0xed, 0xfa, 0xce],
    [0xfe, 0xed, 0xfa, 0xcf],
    [0xce, 0xfa, 0xed, 0xfe],
    [0xcf, 0xfa, 0xed, 0xfe],
    [0xca, 0xfe, 0xba, 0xbe],
  ];
  if (machO.some((signature) => startsWith(bytes, signature))) return "a macOS program or library (Mach-O)";
  if (startsWith(bytes, [0x23, 0x21])) return "a script (it starts with #!)";
  return null;
}

/** "MZ" alone could start a text file; a Windows executable also has "PE\0\0" where its header points. */
function hasPeHeader(bytes: Uint8Array): boolean {
  if (bytes.byteLength < 0x40) return false;
  const offset = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0x3c, true);
  return offset + 4 <= bytes.byteLength && [0x50, 0x45, 0, 0].every((value, index) => bytes[offset + index] === value);
}

/** Other well-known binary formats that are not documents. */
export function describeOtherBinary(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47])) return "a PNG image";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "a JPEG image";
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return "a GIF image";
  if (startsWith(bytes, [0x1f, 0x8b])) return "a gzip archive";
  if (startsWith(bytes, [0x37, 0x7a, 0xbc, 0xaf])) return "a 7-Zip archive";
  if (startsWith(bytes, [0x52, 0x61, 0x72, 0x21])) return "a RAR archive";
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return "a ZIP archive";
  return null;
}
