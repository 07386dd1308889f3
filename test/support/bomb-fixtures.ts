/**
 * Decompression bombs built in code (nothing large is committed): DOCX/XLSX packages whose entries lie
 * about their size, packages with archives inside, and PDFs whose Flate streams (a page's content, an
 * object stream, an image, or one behind an ASCIIHex filter) inflate to hundreds of megabytes. The
 * compressed data repeats one compressed megabyte, so building a 1 GB bomb never holds 1 GB.
 */
import { constants, deflateRawSync } from "node:zlib";
import { strToU8, zipSync } from "fflate";

const megabyte = 1024 * 1024;

/**
 * Deflate (raw, for ZIP entries) or zlib (for PDF FlateDecode) data that inflates to `megabytes` MB of
 * `fill`. One megabyte is compressed once, ending on a byte boundary (a sync flush), and repeated: its
 * back-references reach only bytes of the same fill, so every copy decodes the same. A 1 GB bomb is
 * about 1 MB and takes milliseconds to build.
 */
export function compressedRun(megabytes: number, format: "raw" | "zlib", fill = 0x20): Uint8Array {
  const block = deflateRawSync(Buffer.alloc(megabyte, fill), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const finalEmptyBlock = Buffer.from([0x03, 0x00]);
  const body = Buffer.concat([...Array.from({ length: megabytes }, () => block), finalEmptyBlock]);
  if (format === "raw") return body;
  const length = BigInt(megabytes * megabyte);
  const modulus = 65521n;
  const sum = (1n + BigInt(fill) * length) % modulus;
  const sumOfSums = (length + (BigInt(fill) * length * (length + 1n)) / 2n) % modulus;
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(Number((sumOfSums << 16n) | sum));
  return Buffer.concat([Buffer.from([0x78, 0xda]), body, checksum]);
}

const contentTypes = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;
const packageRelationships = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;

/** The opening of word/document.xml up to the text of its one paragraph. */
const documentOpening =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t xml:space="preserve">';
const documentClosing = "</w:t></w:r></w:p></w:body></w:document>";

/** A small, honest DOCX with one paragraph of `text`, and any extra parts. */
export function buildDocx(text: string, extraParts: Record<string, Uint8Array> = {}): Uint8Array {
  return zipSync({
    "[Content_Types].xml": strToU8(contentTypes),
    "_rels/.rels": strToU8(packageRelationships),
    "word/document.xml": strToU8(`${documentOpening}${text}${documentClosing}`),
    ...extraParts,
  });
}

type ZipPart = { name: string; data: Uint8Array; method: 0 | 8; crc: number; size: number; declaredSize: number };

/**
 * A ZIP written by hand, so an entry can declare a size it does not have. `declaredSize` goes into both
 * the local header and the central directory; `size` is what the data really inflates to.
 */
function writeZip(parts: ZipPart[]): Uint8Array {
  const chunks: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = strToU8(part.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(part.method, 8);
    local.writeUInt32LE(part.crc >>> 0, 14);
    local.writeUInt32LE(part.data.byteLength, 18);
    local.writeUInt32LE(part.declaredSize, 22);
    local.writeUInt16LE(name.byteLength, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(part.method, 10);
    entry.writeUInt32LE(part.crc >>> 0, 16);
    entry.writeUInt32LE(part.data.byteLength, 20);
    entry.writeUInt32LE(part.declaredSize, 24);
    entry.writeUInt16LE(name.byteLength, 28);
    entry.writeUInt32LE(offset, 42);
    chunks.push(local, name, part.data);
    central.push(entry, name);
    offset += local.byteLength + name.byteLength + part.data.byteLength;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.byteLength, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, directory, end]);
}

function honestPart(name: string, text: string): ZipPart {
  const data = strToU8(text);
  return { name, data, method: 0, crc: 0, size: data.byteLength, declaredSize: data.byteLength };
}

/**
 * A DOCX whose word/document.xml declares `declaredBytes` (under the ratio check's 1 MB threshold) but
 * inflates to `actualMegabytes` MB of spaces inside the paragraph: the bomb of the security review.
 */
export function buildLyingDocx(declaredBytes: number, actualMegabytes: number): Uint8Array {
  const body = compressedRun(actualMegabytes, "raw");
  return writeZip([
    honestPart("[Content_Types].xml", contentTypes),
    honestPart("_rels/.rels", packageRelationships),
    {
      name: "word/document.xml",
      data: body,
      method: 8,
      crc: 0,
      size: actualMegabytes * megabyte,
      declaredSize: declaredBytes,
    },
  ]);
}

/** A DOCX whose stored (uncompressed) document part declares a size other than its length. */
export function buildStoredMismatchDocx(): Uint8Array {
  const text = `${documentOpening}Quarterly report.${documentClosing}`;
  const data = strToU8(text);
  return writeZip([
    honestPart("[Content_Types].xml", contentTypes),
    honestPart("_rels/.rels", packageRelationships),
    { name: "word/document.xml", data, method: 0, crc: 0, size: data.byteLength, declaredSize: 10 },
  ]);
}

/** An XLSX-shaped package whose one sheet declares 500 KB and inflates to `actualMegabytes` MB. */
export function buildLyingXlsx(actualMegabytes: number): Uint8Array {
  const contentTypesXlsx = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>`;
  return writeZip([
    honestPart("[Content_Types].xml", contentTypesXlsx),
    honestPart("xl/workbook.xml", "<workbook/>"),
    {
      name: "xl/worksheets/sheet1.xml",
      data: compressedRun(actualMegabytes, "raw"),
      method: 8,
      crc: 0,
      size: actualMegabytes * megabyte,
      declaredSize: 500 * 1024,
    },
  ]);
}

/** A PDF of one page whose objects are given as strings or stream objects, with a correct xref table. */
function writePdf(objects: Array<string | { dictionary: string; data: Uint8Array }>): Uint8Array {
  const chunks: Buffer[] = [Buffer.from("%PDF-1.5\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  let offset = chunks[0]?.byteLength ?? 0;
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(offset);
    const parts =
      typeof object === "string"
        ? [Buffer.from(`${index + 1} 0 obj\n${object}\nendobj\n`, "latin1")]
        : [
            Buffer.from(
              `${index + 1} 0 obj\n${object.dictionary.replace(">>", ` /Length ${object.data.byteLength} >>`)}\nstream\n`,
              "latin1",
            ),
            Buffer.from(object.data),
            Buffer.from("\nendstream\nendobj\n", "latin1"),
          ];
    for (const part of parts) {
      chunks.push(part);
      offset += part.byteLength;
    }
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`];
  for (const at of offsets) xref.push(`${String(at).padStart(10, "0")} 00000 n \n`);
  xref.push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`);
  chunks.push(Buffer.from(xref.join(""), "latin1"));
  return Buffer.concat(chunks);
}

const pageText = "BT /F1 12 Tf 72 720 Td (Quarterly revenue grew four percent.) Tj ET";
const font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";

/** A one-page PDF with real text and no bomb (the control). */
export function buildTextPdf(): Uint8Array {
  return writePdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    { dictionary: "<< >>", data: strToU8(pageText) },
    font,
  ]);
}

export type PdfBombPlace = "content" | "object-stream" | "image" | "hex-wrapped-content";

/**
 * A one-page PDF with a Flate stream that inflates to `inflatedMegabytes` MB: as the page's content stream, as an
 * object stream, as an image the page paints, or as a content stream hex-encoded over its Flate data
 * (`/Filter [/ASCIIHexDecode /FlateDecode]`), which no scan of zlib headers sees.
 */
export function buildPdfBomb(place: PdfBombPlace, inflatedMegabytes: number): Uint8Array {
  const bomb = compressedRun(inflatedMegabytes, "zlib");
  const catalog = "<< /Type /Catalog /Pages 2 0 R >>";
  const pages = "<< /Type /Pages /Kids [3 0 R] /Count 1 >>";
  const page = (contents: string, resources: string) =>
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${contents} /Resources << /Font << /F1 5 0 R >> ${resources} >> >>`;
  switch (place) {
    case "content":
      return writePdf([
        catalog,
        pages,
        page("4 0 R", ""),
        { dictionary: "<< /Filter /FlateDecode >>", data: bomb },
        font,
      ]);
    case "object-stream":
      return writePdf([
        catalog,
        pages,
        page("4 0 R", ""),
        { dictionary: "<< >>", data: strToU8(pageText) },
        font,
        { dictionary: "<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode >>", data: bomb },
      ]);
    case "image":
      return writePdf([
        catalog,
        pages,
        page("4 0 R", "/XObject << /Im1 6 0 R >>"),
        { dictionary: "<< >>", data: strToU8(`${pageText} q 100 0 0 100 0 0 cm /Im1 Do Q`) },
        font,
        {
          dictionary:
            "<< /Type /XObject /Subtype /Image /Width 16384 /Height 16384 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode >>",
          data: bomb,
        },
      ]);
    case "hex-wrapped-content":
      return writePdf([
        catalog,
        pages,
        page("4 0 R", ""),
        {
          dictionary: "<< /Filter [/ASCIIHexDecode /FlateDecode] >>",
          data: strToU8(`${Buffer.from(bomb).toString("hex")}>`),
        },
        font,
      ]);
  }
}
