/**
 * Expands the paths given to `folio ingest` into files: folders are walked recursively in name
 * order; hidden files and folders are skipped.
 */
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { UsageError } from "./cli-error.js";

export async function collectFiles(paths: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const given of paths) {
    const info = await stat(given).catch(() => null);
    if (!info) throw new UsageError(`no such file or folder: ${given}`);
    if (info.isDirectory()) files.push(...(await walkFolder(given)));
    else files.push(given);
  }
  return files;
}

async function walkFolder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  entries.sort((left, right) => left.name.localeCompare(right.name));
  const files: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    const fullPath = path.join(folder, entry.name);
    if (entry.isDirectory()) files.push(...(await walkFolder(fullPath)));
    else if (entry.isFile()) files.push(fullPath);
  }
  return files;
}
