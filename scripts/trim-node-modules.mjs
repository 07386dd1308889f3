#!/usr/bin/env node
// Runs after every `npm ci` / `npm install` (package.json "postinstall"). Two dependencies ship far more
// than Folio loads on this machine, and together they would double the size of a default install:
// - onnxruntime-node carries its native runtime for Windows, macOS and both Linux architectures (about
//   290 MB); only this platform's folder is ever loaded.
// - onnxruntime-web (about 140 MB) is a dependency of @huggingface/transformers for browsers; the Node
//   build Folio loads (dist/transformers.node.mjs) runs models with onnxruntime-node and bundles the
//   little of the web runtime it uses.
// docker/prune-node-modules.sh does the same for the images. Safe to run again: it only removes.
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";

const modules = path.resolve(process.argv[2] ?? "node_modules");

function sizeOf(target) {
  const info = statSync(target, { throwIfNoEntry: false });
  if (!info) return 0;
  if (!info.isDirectory()) return info.size;
  return readdirSync(target).reduce((total, entry) => total + sizeOf(path.join(target, entry)), 0);
}

const removable = [];
const runtimes = path.join(modules, "onnxruntime-node", "bin");
for (const napi of existsSync(runtimes) ? readdirSync(runtimes) : []) {
  for (const platform of readdirSync(path.join(runtimes, napi))) {
    const platformDirectory = path.join(runtimes, napi, platform);
    if (platform !== process.platform) {
      removable.push(platformDirectory);
      continue;
    }
    for (const arch of readdirSync(platformDirectory)) {
      if (arch !== process.arch) removable.push(path.join(platformDirectory, arch));
    }
  }
}
// Only when transformers' Node build is what uses it: another copy of onnxruntime-web would be someone's choice.
const web = path.join(modules, "onnxruntime-web");
if (
  existsSync(path.join(modules, "@huggingface", "transformers", "dist", "transformers.node.mjs")) &&
  existsSync(web)
) {
  removable.push(web);
}

let freed = 0;
for (const target of removable) {
  freed += sizeOf(target);
  rmSync(target, { recursive: true, force: true });
}
if (freed > 0) {
  console.log(
    `folio: removed ${Math.round(freed / 1_000_000)} MB of ONNX runtimes this machine (${process.platform}/${process.arch}) never loads`,
  );
}
