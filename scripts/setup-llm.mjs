#!/usr/bin/env node
// `npm run setup:llm`: installs node-llama-cpp, the runtime for a local GGUF language model
// (FOLIO_LLM_MODEL), which the default install leaves out: with its prebuilt CPU, CUDA and Vulkan builds
// it adds about 700 MB on Linux x64, and Folio answers without it (extractive answers, or an
// OpenAI-compatible server through LLM_BASE_URL). The version is the one package.json pins under
// folio.optionalPackages (not a dependency of any kind: npm would then install it, or refuse to).
// Installed without --save, so package.json and the lockfile stay as they are; an `npm ci` removes it
// again, so run this after each one. Extra arguments go to npm (`npm run setup:llm -- --omit=dev` in a
// production install).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const version = manifest.folio?.optionalPackages?.["node-llama-cpp"];
if (!version) {
  console.error("setup:llm: package.json pins no node-llama-cpp version under folio.optionalPackages");
  process.exit(1);
}
const npmArguments = ["install", "--no-save", "--no-audit", "--no-fund", `node-llama-cpp@${version}`];
// node-llama-cpp's install script (npm 10 runs it) would fetch and compile llama.cpp from GitHub where no
// prebuilt build fits; Folio loads the prebuilt builds only (build: "never").
const installEnvironment = { ...process.env, NODE_LLAMA_CPP_SKIP_DOWNLOAD: "true" };
// Under `npm run`, npm_execpath is the npm that runs us: use the same one (and no shell on Windows).
const npmCli = process.env.npm_execpath;
const result = npmCli
  ? spawnSync(process.execPath, [npmCli, ...npmArguments, ...process.argv.slice(2)], {
      stdio: "inherit",
      env: installEnvironment,
    })
  : spawnSync("npm", [...npmArguments, ...process.argv.slice(2)], {
      stdio: "inherit",
      env: installEnvironment,
      shell: process.platform === "win32",
    });
if (result.status !== 0) {
  console.error(`setup:llm: npm install node-llama-cpp@${version} failed (exit ${result.status ?? result.signal})`);
  process.exit(result.status ?? 1);
}
// `npm install <package>` brings back what the postinstall trimmed (and does not run it again).
spawnSync(process.execPath, [fileURLToPath(new URL("trim-node-modules.mjs", import.meta.url))], { stdio: "inherit" });
console.log(`setup:llm: node-llama-cpp ${version} installed; set FOLIO_LLM_MODEL to a .gguf file to use it`);
