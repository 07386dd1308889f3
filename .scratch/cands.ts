import { proseEvidence } from "../src/answer/evidence/prose-evidence.js";
import { contentTerms } from "../src/answer/evidence/sentence-scoring.js";
import { createPassageMeaning } from "../src/answer/evidence/window-meaning.js";
import { createFolio } from "../src/composition-root.js";
import { loadConfig } from "../src/config/config.js";
import { createLogger } from "../src/logger.js";
import { informationNeed } from "../src/retrieval/information-need.js";
import { termId } from "../src/retrieval/text-analyzer.js";
const config = loadConfig(process.env);
const folio = await createFolio({ ...config, llm: { kind: "none" } }, createLogger({ level: "warn" }), {});
const [spaceId, q] = process.argv.slice(2) as [string, string];
const need = informationNeed(q);
const results = await folio.retriever.search({ query: q, spaceIds: [spaceId], limit: 20 });
const terms = [...contentTerms(need)];
const st = await folio.catalog.getTermStatistics([spaceId], terms.map(termId));
const corpus = { passages: st.chunkCount, frequencies: new Map(terms.map((t) => [t, st.documentFrequencies.get(termId(t)) ?? 0])) };
const meaning = folio.embedder ? createPassageMeaning(folio.embedder) : undefined;
const prose = proseEvidence({ need, question: q, corpus, ...(meaning ? { meaning } : {}) }, results);
console.log(prose.asked, terms);
for (const c of (await prose.candidates()).slice(0, 8)) {
  const f = c.features;
  console.log(c.likelihood.toFixed(3), c.window.kind, c.window.source.n, `w${f.words.toFixed(2)} o${f.ownWords.toFixed(2)} fit${f.fit} c${f.condition} m${f.meaning?.toFixed(3)} u${f.unknown.toFixed(2)}`, c.window.text.slice(0, 140));
}
await folio.close();
