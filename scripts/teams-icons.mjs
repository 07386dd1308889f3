#!/usr/bin/env node
/**
 * Draws Folio's two Teams app icons as PNGs (no image library, no downloads): color.png, 192×192, a
 * white page with text lines and a folded corner on Folio's blue; outline.png, 32×32, the same page in
 * white outline on transparent, as Teams requires. Run: node scripts/teams-icons.mjs
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { deflateSync } from "node:zlib";

const here = path.dirname(fileURLToPath(import.meta.url));
const manifestDir = path.join(here, "..", "adapters", "teams", "manifest");

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGBA PNG from a function (x, y) -> [r, g, b, a]. */
function png(size, pixel) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x++) row.set(pixel(x, y), 1 + x * 4);
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const BLUE = [0x1f, 0x5f, 0xbf, 255];
const WHITE = [255, 255, 255, 255];
const CLEAR = [0, 0, 0, 0];

/** The page in unit coordinates (0..1): body, folded top-right corner, three text lines. */
function pageAt(u, v) {
  const inBody = u >= 0.28 && u <= 0.72 && v >= 0.2 && v <= 0.8;
  const inFold = u - 0.6 > v - 0.2; // the corner cut off above the fold line
  if (!inBody || inFold) return "outside";
  const line = [0.45, 0.55, 0.65].some((row) => Math.abs(v - row) < 0.022) && u > 0.35 && u < 0.65;
  return line ? "line" : "page";
}

const color = png(192, (x, y) => {
  const where = pageAt((x + 0.5) / 192, (y + 0.5) / 192);
  return where === "page" ? WHITE : BLUE;
});

const outline = png(32, (x, y) => {
  const here = pageAt((x + 0.5) / 32, (y + 0.5) / 32);
  if (here === "outside") return CLEAR;
  const neighbours = [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
  ].map(([dx, dy]) => pageAt((x + dx + 0.5) / 32, (y + dy + 0.5) / 32));
  return neighbours.includes("outside") || here === "line" ? WHITE : CLEAR;
});

writeFileSync(path.join(manifestDir, "color.png"), color);
writeFileSync(path.join(manifestDir, "outline.png"), outline);
console.log(`wrote ${path.join(manifestDir, "color.png")} and outline.png`);
