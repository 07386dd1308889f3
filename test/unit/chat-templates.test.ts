/**
 * The answer prompt is model-neutral: a system message (the rules) and one user message (the sources,
 * the checked facts, the question), which node-llama-cpp renders in each model's own chat template and
 * an OpenAI-compatible server receives as plain messages. Rendered here through the ChatML template
 * (Qwen, SmolLM2) and the Llama 3.1 template: the rules land in the system turn, the sources and the
 * question in the user turn, in that order, nothing else of ours in between.
 */
import { describe, expect, it } from "vitest";
import { fitSources } from "../../src/answer/generate/fit-sources.js";
import type { NumberedSource } from "../../src/answer/generate/generator.js";
import { fillTemplate, loadAnswerPrompts } from "../../src/answer/generate/prompt-templates.js";
import { llamaCppMissing } from "../support/llama-cpp-runtime.js";

if (llamaCppMissing) console.warn(`chat-templates: skipped — ${llamaCppMissing}`);

const SOURCE: NumberedSource = {
  n: 1,
  result: {
    chunkId: "c1",
    documentId: "d1",
    spaceId: "console:test",
    file: "leave.md",
    title: "Leave",
    mediaType: "text/markdown",
    pageStart: null,
    pageEnd: null,
    score: 1,
    text: "You can carry over up to 240 hours of annual leave into the next leave year.",
    provenance: {},
    kind: "text",
  },
};

async function promptMessages() {
  const prompts = await loadAnswerPrompts();
  const fitted = await fitSources({
    question: "How much annual leave can I carry over?",
    sources: [SOURCE],
    prompts,
    facts: ["Carry-over limit: 240 hours [1]."],
    countTokens: (text) => text.length / 4,
    budgetTokens: 4000,
    sourceTokens: 640,
  });
  return { prompts, messages: fitted.messages };
}

describe.skipIf(llamaCppMissing !== null)("the answer prompt in chat templates", () => {
  it("is a system message with the rules and a user message with the sources, facts and question", async () => {
    const { prompts, messages } = await promptMessages();
    expect(messages.map((message) => message.role)).toEqual(["system", "user"]);
    expect(messages[0]?.content).toBe(fillTemplate(prompts.system, {}));
    expect(messages[1]?.content).toBe(
      "Sources:\n\n[1] Leave (no page numbers)\nYou can carry over up to 240 hours of annual leave into the next leave year.\n\nChecked facts:\n- Carry-over limit: 240 hours [1].\n\nQuestion: How much annual leave can I carry over?\n\nAnswer from the sources above, with the source number in brackets after each sentence, like [1].",
    );
  });

  it("renders in ChatML and in Llama 3.1 with the rules in the system turn and the rest in the user turn", async () => {
    const { ChatMLChatWrapper, Llama3_1ChatWrapper } = await import("node-llama-cpp");
    const { messages } = await promptMessages();
    const [system, user] = messages.map((message) => message.content) as [string, string];
    const history = [
      { type: "system" as const, text: system },
      { type: "user" as const, text: user },
    ];
    const chatMl = new ChatMLChatWrapper().generateContextState({ chatHistory: history }).contextText.toString();
    expect(chatMl).toBe(
      `BOS<|im_start|>system\n${system}<|im_end|>\n<|im_start|>user\n${user}<|im_end|>\n<|im_start|>assistant\n`,
    );
    const llama = new Llama3_1ChatWrapper().generateContextState({ chatHistory: history }).contextText.toString();
    const systemTurn = llama.indexOf("<|start_header_id|>system<|end_header_id|>");
    const userTurn = llama.indexOf("<|start_header_id|>user<|end_header_id|>\n\n");
    expect(systemTurn).toBeGreaterThanOrEqual(0);
    expect(llama.indexOf(system)).toBeGreaterThan(systemTurn);
    expect(llama.indexOf(system)).toBeLessThan(userTurn);
    expect(llama.slice(userTurn)).toBe(`<|start_header_id|>user<|end_header_id|>\n\n${user}<|eot_id|>`);
  });
});
