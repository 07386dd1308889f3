/**
 * scripts/trim-node-modules.mjs, the postinstall that keeps the default install small: on a fake
 * node_modules it keeps this platform's ONNX runtime only and drops onnxruntime-web when transformers'
 * Node build is there, and leaves everything else alone.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const script = path.resolve("scripts/trim-node-modules.mjs");
const created: string[] = [];
afterEach(() => {
  for (const directory of created.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function fakeNodeModules(files: string[]): string {
  const root = mkdtempSync(path.join(tmpdir(), "folio-trim-"));
  created.push(root);
  const modules = path.join(root, "node_modules");
  for (const file of files) {
    mkdirSync(path.dirname(path.join(modules, file)), { recursive: true });
    writeFileSync(path.join(modules, file), "x".repeat(1_000_000));
  }
  return modules;
}

describe("trim-node-modules", () => {
  it("keeps this platform's onnxruntime-node and removes the rest and onnxruntime-web", () => {
    const here = `${process.platform}/${process.arch}`;
    const modules = fakeNodeModules([
      `onnxruntime-node/bin/napi-v6/${here}/onnxruntime_binding.node`,
      `onnxruntime-node/bin/napi-v6/${process.platform}/other-arch/onnxruntime_binding.node`,
      "onnxruntime-node/bin/napi-v6/plan9/x64/onnxruntime_binding.node",
      "onnxruntime-web/dist/ort.wasm",
      "@huggingface/transformers/dist/transformers.node.mjs",
      "pino/package.json",
    ]);
    const output = execFileSync(process.execPath, [script, modules], { encoding: "utf8" });
    expect(output).toBe(
      `folio: removed 3 MB of ONNX runtimes this machine (${process.platform}/${process.arch}) never loads\n`,
    );
    expect(readdirSync(path.join(modules, "onnxruntime-node/bin/napi-v6"))).toEqual([process.platform]);
    expect(readdirSync(path.join(modules, "onnxruntime-node/bin/napi-v6", process.platform))).toEqual([process.arch]);
    expect(existsSync(path.join(modules, "onnxruntime-web"))).toBe(false);
    expect(existsSync(path.join(modules, "pino/package.json"))).toBe(true);
  });

  it("keeps onnxruntime-web when transformers' Node build is not what uses it, and is silent with nothing to do", () => {
    const modules = fakeNodeModules(["onnxruntime-web/dist/ort.wasm"]);
    expect(execFileSync(process.execPath, [script, modules], { encoding: "utf8" })).toBe("");
    expect(existsSync(path.join(modules, "onnxruntime-web/dist/ort.wasm"))).toBe(true);
  });
});
