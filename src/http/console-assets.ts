/**
 * The console's static files (adapters/console): found from wherever the code runs — from src/ under
 * tsx and from dist/src/ once compiled, by walking up to the directory that holds package.json — and
 * served under a policy that loads nothing from elsewhere.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FolioError } from "../errors.js";

export function locateConsoleAssets(moduleUrl: string = import.meta.url): string {
  let directory = path.dirname(fileURLToPath(moduleUrl));
  for (;;) {
    if (existsSync(path.join(directory, "package.json"))) {
      const assets = path.join(directory, "adapters", "console");
      if (existsSync(path.join(assets, "index.html"))) return assets;
    }
    const parent = path.dirname(directory);
    if (parent === directory) {
      throw new FolioError(
        "console_assets_missing",
        "The console files (adapters/console/index.html) were not found above the installed code — reinstall Folio from its repository or package.",
      );
    }
    directory = parent;
  }
}

export type ConsoleAsset = { file: string; contentType: string };

export const CONSOLE_ASSETS: Partial<Record<string, ConsoleAsset>> = {
  "/": { file: "index.html", contentType: "text/html; charset=utf-8" },
  "/index.html": { file: "index.html", contentType: "text/html; charset=utf-8" },
  "/console.css": { file: "console.css", contentType: "text/css; charset=utf-8" },
  "/console.js": { file: "console.js", contentType: "text/javascript; charset=utf-8" },
  "/console-spaces.js": { file: "console-spaces.js", contentType: "text/javascript; charset=utf-8" },
  "/favicon.svg": { file: "favicon.svg", contentType: "image/svg+xml" },
  "/favicon.ico": { file: "favicon.svg", contentType: "image/svg+xml" },
};

/** The console loads nothing from elsewhere: it must work offline and inside a locked-down network. */
const CONSOLE_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export async function serveConsoleAsset(
  response: ServerResponse,
  assetsDir: string,
  asset: ConsoleAsset,
): Promise<void> {
  const body = await readFile(path.join(assetsDir, asset.file));
  response.writeHead(200, {
    "Content-Type": asset.contentType,
    "Content-Length": body.byteLength,
    "Content-Security-Policy": CONSOLE_CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
  });
  response.end(body);
}
