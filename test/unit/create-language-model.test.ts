import { describe, expect, it } from "vitest";
import type { LlmRuntimeConfig } from "../../src/config/config.js";
import { FolioError } from "../../src/errors.js";
import { createLanguageModel, importLlamaCppModel } from "../../src/llm/create-language-model.js";
import { openAiApiRoot } from "../../src/llm/openai-compatible-model.js";
import { silentLogger } from "../../src/logger.js";
import { llamaCppMissing } from "../support/llama-cpp-runtime.js";

const runtime: LlmRuntimeConfig = { gpu: "cpu", threads: 1, parallel: null, queueLimit: 16, timeoutSeconds: 120 };

describe("createLanguageModel", () => {
  it("builds nothing when no LLM is configured", async () => {
    expect(await createLanguageModel({ kind: "none" }, runtime, silentLogger)).toBeNull();
  });

  it("builds the OpenAI-compatible model with the configured parallelism", async () => {
    const model = await createLanguageModel(
      { kind: "openai-compatible", baseUrl: "http://vllm:8000/v1", model: "qwen", apiKey: null },
      { ...runtime, parallel: 8 },
      silentLogger,
    );
    expect(model?.name).toBe("qwen");
    expect(model?.capabilities.parallelSequences).toBe(8);
    expect(model?.contextTokens).toBe(8192);
  });

  // The file is checked by the runtime itself: without node-llama-cpp the runtime's absence is reported first.
  it.skipIf(llamaCppMissing !== null)("names the missing GGUF file and how to get one", async () => {
    const error = await createLanguageModel(
      { kind: "local", modelPath: "/nowhere/m.gguf" },
      runtime,
      silentLogger,
    ).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(FolioError);
    expect((error as FolioError).code).toBe("llm_model_not_found");
    expect((error as FolioError).message).toBe(
      "The language model file /nowhere/m.gguf does not exist; set FOLIO_LLM_MODEL to a GGUF file or run `folio models pull llm`.",
    );
  });
});

describe("importLlamaCppModel", () => {
  it("says how to install node-llama-cpp when the opt-in package is absent", async () => {
    const missing = Object.assign(
      new Error("Cannot find package 'node-llama-cpp' imported from /app/src/llm/llama-cpp-model.ts"),
      { code: "ERR_MODULE_NOT_FOUND" },
    );
    const error = await importLlamaCppModel(() => Promise.reject(missing)).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(FolioError);
    expect((error as FolioError).code).toBe("llm_runtime_missing");
    expect((error as FolioError).message).toBe(
      "FOLIO_LLM_MODEL is set, but node-llama-cpp (the local LLM runtime, an opt-in of the install) is not installed — run `npm run setup:llm` (again after every `npm ci`), or unset FOLIO_LLM_MODEL to answer without a language model, or set LLM_BASE_URL and LLM_MODEL to use an OpenAI-compatible server.",
    );
  });

  it("lets any other failure through unchanged", async () => {
    const other = Object.assign(new Error("Cannot find module './chunk-channel.js'"), { code: "ERR_MODULE_NOT_FOUND" });
    await expect(importLlamaCppModel(() => Promise.reject(other))).rejects.toBe(other);
  });
});

describe("openAiApiRoot", () => {
  it("accepts the base URL with or without /v1 and trailing slashes", () => {
    expect(openAiApiRoot("http://vllm:8000")).toBe("http://vllm:8000/v1");
    expect(openAiApiRoot("http://vllm:8000/v1/")).toBe("http://vllm:8000/v1");
    expect(openAiApiRoot("https://gateway.example/llm")).toBe("https://gateway.example/llm/v1");
  });
});
