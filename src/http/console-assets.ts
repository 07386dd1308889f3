/**
 * Finds the console's static files (adapters/console) from wherever the code runs: from src/ under
 * tsx and from dist/src/ once compiled, by walking up to the directory that holds package.json.
 */
import { existsSync } from "node:fs";
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
