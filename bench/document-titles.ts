/**
 * The title Folio gives each document of some folders, read through the real parsers, so a change to
 * how titles are chosen can be checked over every filing at once (issue #41: "UNITED STATES SECURITIES
 * AND EXCHANGE COMMISSION" is no title). One line per file: the title, then the file name; `--json` prints
 * {file, title, firstLines} with the first page's opening lines, to read a wrong title against its page.
 *
 * Usage: tsx bench/document-titles.ts [--json] <folder or file>...
 */
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { DEFAULT_PARSE_LIMITS } from "../ingestion/limits.js";
import { parseDocument } from "../ingestion/parse-document.js";

const SUPPORTED = /\.(pdf|docx|md|markdown|html?|txt)$/i;

async function filesUnder(target: string): Promise<string[]> {
  if (!(await stat(target)).isDirectory()) return [target];
  const entries = await readdir(target, { withFileTypes: true });
  const nested = await Promise.all(
    entries
      .sort((left, right) => left.name.localeCompare(right.name))
      .map((entry) =>
        entry.isDirectory() ? filesUnder(path.join(target, entry.name)) : [path.join(target, entry.name)],
      ),
  );
  return nested.flat().filter((file) => SUPPORTED.test(file));
}

const argumentsGiven = process.argv.slice(2);
const json = argumentsGiven.includes("--json");
const targets = argumentsGiven.filter((argument) => argument !== "--json");
if (targets.length === 0) throw new Error("usage: tsx bench/document-titles.ts [--json] <folder or file>...");

for (const target of targets) {
  for (const file of await filesUnder(target)) {
    const bytes = new Uint8Array(await readFile(file));
    try {
      const document = await parseDocument(bytes, path.basename(file), DEFAULT_PARSE_LIMITS);
      const firstPage = document.pages?.find((page) => page.text.trim() !== "")?.text ?? "";
      const firstLines = firstPage
        .split("\n")
        .map((line) => line.replace(/\s+/g, " ").trim())
        .filter((line) => line !== "")
        .slice(0, 6);
      process.stdout.write(
        json
          ? `${JSON.stringify({ file: path.relative(process.cwd(), file), title: document.title, firstLines })}\n`
          : `${document.title}\t${path.basename(file)}\n`,
      );
    } catch (error) {
      process.stdout.write(
        `(not read: ${error instanceof Error ? error.message : String(error)})\t${path.basename(file)}\n`,
      );
    }
  }
}
