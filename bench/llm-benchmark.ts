/**
 * The configured language model's latency under load: a fixed ~500-token RAG-shaped prompt (sources
 * and a question), answered at concurrency 1 and 4. Reports time to first token, total latency (p50,
 * p95) and generation speed: per request (tokens after the first / decode time) and in aggregate
 * (all answer tokens / wall time of the run). Answer tokens are counted with the model's countTokens.
 * Configuration comes from the environment like `folio serve` (FOLIO_LLM_MODEL or LLM_BASE_URL,
 * FOLIO_LLM_THREADS, FOLIO_LLM_PARALLEL, ...); with no LLM configured it runs the shared SmolLM2 GGUF
 * on one CPU thread.
 * Usage: tsx bench/llm-benchmark.ts [requests per level, default 8] [answer tokens, default 32]
 */
import { existsSync } from "node:fs";
import { loadConfig } from "../src/config/config.js";
import { summarizeLatency } from "../src/evaluation/latency.js";
import { createLanguageModel } from "../src/llm/create-language-model.js";
import type { ChatMessage, LanguageModel } from "../src/llm/language-model.js";
import { createLogger } from "../src/logger.js";
import { sharedModel } from "../test/support/shared-paths.js";

const [requestsArgument = "8", answerTokensArgument = "32"] = process.argv.slice(2);
const requestsPerLevel = Number(requestsArgument);
const answerTokens = Number(answerTokensArgument);
const PROMPT_TOKENS = 500;

const environment = { ...process.env };
if (!environment.FOLIO_LLM_MODEL && !environment.LLM_BASE_URL) {
  const fallback = sharedModel("SmolLM2-135M-Instruct.Q4_1.gguf");
  if (!existsSync(fallback)) throw new Error(`No LLM configured and no ${fallback}; set FOLIO_LLM_MODEL.`);
  environment.FOLIO_LLM_MODEL = fallback;
  environment.FOLIO_LLM_THREADS ??= "1";
}
const config = loadConfig(environment);
const logger = createLogger({ level: config.logLevel });
const model = await createLanguageModel(config.llm, config.llmRuntime, logger);
if (!model) throw new Error("No language model configured.");

const SOURCE_SENTENCES = [
  "Employees may carry over up to five days of unused annual leave into the next calendar year.",
  "Travel expenses above 500 euros need written approval from the budget owner before booking.",
  "The on-call engineer acknowledges a page within fifteen minutes and updates the incident channel.",
  "Laptops are replaced every four years, or earlier when a repair would cost more than half a new one.",
  "Customer data is kept in the EU region and deleted ninety days after a contract ends.",
  "New hires receive their accounts on the first morning and meet their buddy before lunch.",
];

/** Sources of about PROMPT_TOKENS tokens, numbered like Folio's prompts, then the question. */
async function buildPrompt(languageModel: LanguageModel, variant: number): Promise<ChatMessage[]> {
  const lines: string[] = [];
  for (let index = 0; ; index += 1) {
    const source = `[${index + 1}] ${SOURCE_SENTENCES[index % SOURCE_SENTENCES.length]}`;
    const candidate = [...lines, source].join("\n");
    if ((await languageModel.countTokens(candidate)) > PROMPT_TOKENS - 40) break;
    lines.push(source);
  }
  return [
    { role: "system", content: "Answer from the numbered sources only and cite them as [n]." },
    { role: "user", content: `Sources:\n${lines.join("\n")}\n\nQuestion ${variant}: how many leave days carry over?` },
  ];
}

type Measurement = { firstTokenMs: number; totalMs: number; tokens: number };

async function measure(languageModel: LanguageModel, messages: ChatMessage[]): Promise<Measurement> {
  const started = performance.now();
  let firstTokenMs = Number.NaN;
  let text = "";
  for await (const chunk of languageModel.stream(messages, { maxTokens: answerTokens })) {
    if (Number.isNaN(firstTokenMs)) firstTokenMs = performance.now() - started;
    text += chunk;
  }
  return { firstTokenMs, totalMs: performance.now() - started, tokens: await languageModel.countTokens(text) };
}

async function runLevel(languageModel: LanguageModel, concurrency: number): Promise<void> {
  const prompts = await Promise.all(
    Array.from({ length: requestsPerLevel }, (_, index) => buildPrompt(languageModel, index)),
  );
  const measurements: Measurement[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < prompts.length) {
        const prompt = prompts[next];
        next += 1;
        if (prompt) measurements.push(await measure(languageModel, prompt));
      }
    }),
  );
  const wallSeconds = (performance.now() - started) / 1000;
  const firstToken = summarizeLatency(measurements.map((entry) => entry.firstTokenMs));
  const total = summarizeLatency(measurements.map((entry) => entry.totalMs));
  const decodeRates = measurements.map(
    (entry) => (entry.tokens - 1) / Math.max(0.001, (entry.totalMs - entry.firstTokenMs) / 1000),
  );
  const perRequest = decodeRates.reduce((sum, rate) => sum + rate, 0) / decodeRates.length;
  const aggregate = measurements.reduce((sum, entry) => sum + entry.tokens, 0) / wallSeconds;
  process.stdout.write(
    `| ${concurrency} | ${measurements.length} | ${firstToken.p50} | ${firstToken.p95} | ${total.p50} | ${total.p95} | ${perRequest.toFixed(1)} | ${aggregate.toFixed(1)} |\n`,
  );
}

const promptTokens = await model.countTokens(
  (await buildPrompt(model, 0)).map((message) => message.content).join("\n"),
);
process.stdout.write(
  `model ${model.name}, parallel ${model.capabilities.parallelSequences}, threads ${config.llmRuntime.threads || "auto"}, ` +
    `prompt ~${promptTokens} tokens (+ chat template), answers up to ${answerTokens} tokens\n\n`,
);
process.stdout.write(
  "| concurrency | requests | TTFT p50 ms | TTFT p95 ms | total p50 ms | total p95 ms | tokens/s per request | tokens/s aggregate |\n" +
    "| --- | --- | --- | --- | --- | --- | --- | --- |\n",
);
// One unmeasured answer first, so loading and first-use costs stay out of the numbers.
await measure(model, await buildPrompt(model, -1));
for (const concurrency of [1, 4]) await runLevel(model, concurrency);
await model.close();
