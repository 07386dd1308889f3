/**
 * The extractive generator with the real bge-small-en-v1.5 embedder in the inference worker: a
 * question that names an acronym quotes the sentence that spells it out, though another sentence
 * shares more of the question's words, and the citation points at that sentence's page. (The small
 * model does not know the expansion by itself: a page that never writes "AES" is not found this way.)
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildCitations } from "../../src/answer/citations/citations.js";
import { createExtractiveGenerator } from "../../src/answer/generate/extractive-generator.js";
import type { NumberedSource } from "../../src/answer/generate/generator.js";
import type { PageText } from "../../src/domain/types.js";
import { createTransformersEmbedder } from "../../src/embedding/transformers-embedder.js";
import { createInferenceClient } from "../../src/inference/inference-client.js";
import { silentLogger } from "../../src/logger.js";
import { pageChunk } from "../support/page-chunk.js";
import { sharedModelsDir } from "../support/shared-paths.js";

const hasEmbedder = existsSync(path.join(sharedModelsDir, "bge-small-en-v1.5", "onnx", "model_quantized.onnx"));
if (!hasEmbedder) console.warn(`extractive-answers: skipped — no bge-small-en-v1.5 model in ${sharedModelsDir}.`);

const PAGES: PageText[] = [
  {
    pageNumber: 1,
    text: "Encryption keys for AES stand in the key vault and are rotated every ninety days. Laptops use full-disk encryption.",
  },
  {
    pageNumber: 2,
    text: "The Advanced Encryption Standard (AES) is the symmetric block cipher NIST adopted in 2001.",
  },
];

describe.skipIf(!hasEmbedder)("extractive answers with the real embedder", () => {
  const inference = createInferenceClient({ threads: 1, logger: silentLogger });
  afterAll(() => inference.close());

  it('answers "What does AES stand for?" with the sentence naming the Advanced Encryption Standard', async () => {
    const embedder = await createTransformersEmbedder({
      inference,
      modelsDir: sharedModelsDir,
      modelId: "bge-small-en-v1.5",
    });
    const sources: NumberedSource[] = [{ n: 1, result: pageChunk("security-policy", "Security policy", PAGES) }];
    const question = "What does AES stand for?";
    const answer = async (generator: ReturnType<typeof createExtractiveGenerator>) => {
      let text = "";
      for await (const piece of generator.generate(question, sources)) text += piece;
      return text;
    };
    // By shared words alone the key-vault sentence wins ("AES", "stand"; "standard" is another stem).
    expect(await answer(createExtractiveGenerator())).toBe(
      "“Encryption keys for AES stand in the key vault and are rotated every ninety days.” [1]",
    );
    const generated = await answer(createExtractiveGenerator({ embedder }));
    expect(generated).toBe(
      "“The Advanced Encryption Standard (AES) is the symmetric block cipher NIST adopted in 2001.” [1]",
    );
    const { citations } = await buildCitations(
      generated,
      sources,
      async () => PAGES,
      ({ documentId, page }) => `https://folio.test/files/${documentId}#page=${page}`,
    );
    expect(citations.map(({ n, pageStart, pageEnd, url }) => ({ n, pageStart, pageEnd, url }))).toEqual([
      { n: 1, pageStart: 2, pageEnd: 2, url: "https://folio.test/files/security-policy#page=2" },
    ]);
  });
});
