/**
 * Checks, while an image is built, that its pruned node_modules still loads what Folio uses there:
 * node-llama-cpp's prebuilt CPU backend (loaded for real, never compiled or downloaded), onnxruntime-node's
 * native runtime for this platform, usearch's prebuilt binary (the embedded store's approximate vector index),
 * and — for the CUDA image — that the CUDA builds are present (they can
 * only be loaded where a GPU is, which a build machine need not have). A failure stops the build with the
 * reason, instead of an image that breaks at its first question.
 *
 *   node docker/verify-node-modules.mjs cpu|cuda
 */
import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const variant = process.argv[2];
if (variant !== "cpu" && variant !== "cuda") {
  console.error("usage: node docker/verify-node-modules.mjs cpu|cuda");
  process.exit(2);
}

const require = createRequire(path.join(process.cwd(), "package.json"));
const modulesDirectory = path.join(process.cwd(), "node_modules");

function fail(message) {
  console.error(`verify-node-modules: ${message}`);
  process.exit(1);
}

const llamaPackages = readdirSync(path.join(modulesDirectory, "@node-llama-cpp")).sort();
const gpuPackages = llamaPackages.filter((name) => /cuda|vulkan|metal/.test(name));
if (variant === "cpu" && gpuPackages.length > 0) {
  fail(`the CPU image still carries GPU builds of node-llama-cpp: ${gpuPackages.join(", ")}`);
}
if (variant === "cuda") {
  for (const name of ["linux-x64-cuda", "linux-x64-cuda-ext"]) {
    if (!existsSync(path.join(modulesDirectory, "@node-llama-cpp", name, "package.json"))) {
      fail(`the CUDA image lacks @node-llama-cpp/${name}; was it installed with --omit=optional?`);
    }
  }
}

const { getLlama, LlamaLogLevel } = await import(require.resolve("node-llama-cpp"));
let llama;
try {
  llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error });
} catch (error) {
  fail(`node-llama-cpp's prebuilt CPU backend did not load: ${error instanceof Error ? error.message : error}`);
}
const cpuBuild = llama.buildType;
await llama.dispose();

const onnxRuntime = require("onnxruntime-node");
const onnxBackends = onnxRuntime.listSupportedBackends().map((backend) => backend.name);
if (!onnxBackends.includes("cpu"))
  fail(`onnxruntime-node offers no CPU backend (it offers: ${onnxBackends.join(", ")})`);
if (existsSync(path.join(modulesDirectory, "onnxruntime-web"))) fail("onnxruntime-web should have been pruned");

const usearch = await import(require.resolve("usearch"));
try {
  const index = new usearch.Index({ dimensions: 2, metric: "cos", quantization: "f16", connectivity: 16 });
  index.add(1n, new Float32Array([1, 0]));
  if (Number(index.search(new Float32Array([1, 0]), 1, 1).keys[0]) !== 1) fail("usearch answered a search wrongly");
} catch (error) {
  fail(`usearch's prebuilt binary did not load: ${error instanceof Error ? error.message : error}`);
}

console.log(
  `verify-node-modules (${variant}): node-llama-cpp packages ${llamaPackages.join(", ")}; CPU backend loads (${cpuBuild} build); onnxruntime-node backends ${onnxBackends.join(", ")}; usearch loads`,
);
