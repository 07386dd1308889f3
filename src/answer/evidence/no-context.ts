/**
 * Decides whether retrieval found anything relevant enough to answer from. BM25 scores are unbounded
 * and depend on the corpus, so the rule uses term coverage instead: the share of the question's
 * distinct analyzed terms that occur in the best of the top three sources, read as they are indexed
 * (title, file name and section heading included). With at most two terms the question must be
 * covered fully (any threshold above 0.5 implies it).
 *
 * What a passage is asked to cover: the question's questions, less definitions and formulas after them,
 * asides in parentheses, question words ("how much", "did"), the names of the arithmetic that derives a
 * figure ("average", "ratio", "percentage") and the word "fiscal" beside a year; a financial statement the
 * question names is covered by that statement's passages under any of its names (financial-statements.ts).
 *
 * Calibration (`FOLIO_EMBED_MODEL=none npx tsx bench/no-context-calibration.ts`): the seven Northwind QA
 * PDFs ingested into an embedded Folio; coverage of the top-5 sources (20 BM25 candidates, as
 * answerQuestion retrieves) for the 249 answerable questions of northwind-rag-qa/ground_truth.jsonl and
 * for 30 plausible enterprise questions the documents do not answer (test/support/absent-fact-questions.ts,
 * checked against pdftotext; several share words with the documents, e.g. "referral bonus", "tuition
 * reimbursement"). Share of questions answered "not in the documents", before (every analyzed term of
 * the information need asked for) and after the rules above, measured the same day:
 *
 *   threshold                      0.40   0.50   0.55   0.60   0.65   0.70   0.80
 *   answerable (false), before     2.4%   4.4%   9.2%  12.9%  19.3%  26.1%  51.8%
 *   answerable (false), after      3.2%   4.4%   8.4%  12.0%  18.5%  23.7%  42.2%
 *   absent-fact (true), before    36.7%  46.7%  73.3%  73.3%  83.3%  90.0%  96.7%
 *   absent-fact (true), after     40.0%  53.3%  80.0%  80.0%  83.3%  96.7% 100.0%
 *
 * Question words are on most passages, so asking for them let absent-fact questions look covered. At
 * 0.55, most refused answerable questions are misspelt ("Wht servces r not coverd by Northwind Helth
 * Plus?") or long two-part questions whose halves sit in different chunks. Two alternatives measured
 * earlier did no better: coverage weighted by BM25 IDF (misspelt terms get the highest weights) and
 * coverage by the union of the top three sources. A lexical rule cannot separate these sets much
 * further; dense retrieval or the LLM's own "not in the sources" answer is the next step.
 */
import { statementMentions, statementOfPassage } from "../../domain/financial-statements.js";
import type { SearchResult } from "../../domain/types.js";
import { indexTextOf } from "../../ingest/index-text.js";
import { analyzeText } from "../../retrieval/text-analyzer.js";
import { contentTerms, uniqueTerms } from "./sentence-scoring.js";

export const DEFAULT_COVERAGE_THRESHOLD = 0.55;

export type RelevanceAssessment = { relevant: boolean; coverage: number };

/** Names of operations that derive a figure from printed ones. */
const ARITHMETIC_TERMS = uniqueTerms(
  "average averages mean median ratio ratios percent percentage percentages proportion",
);

/** "fiscal 2018" (information-need.ts reads "FY2018" so): a page that gives the year covers it. */
const FISCAL_YEAR = /\bfiscal\s+((?:19|20)\d{2})\b/gi;

/**
 * A sentence: up to a ".", "?" or "!" before a space or the end ("3.5 mg" goes on), with a parenthesis
 * right after it ("…? (balance sheet)").
 */
const SENTENCES = /(?:[^.?!]|[.?!](?=\S))+(?:[.?!]+(?:\s*\([^()]*\))?|$)/g;

/**
 * What a passage must cover: the question's questions, when it asks any ("What is Acme's fiscal 2017
 * DPO? DPO is defined as 365 * (average accounts payable …) / (COGS + …)."). A definition or a formula
 * after the question names the inputs, which sit on several pages, never in one passage.
 */
export function askedText(query: string): string {
  const sentences = query.match(SENTENCES) ?? [];
  const questions = sentences.filter((sentence) => /\?\s*(?:\([^()]*\))?\s*$/.test(sentence));
  const asked = questions.length > 0 ? questions.map((sentence) => sentence.trim()).join(" ") : query;
  // An aside in parentheses restates or qualifies ("Block (formerly known as Square)", "days payable
  // outstanding (DPO)"). One naming a statement counts, as does a parenthesis after the question: that
  // is what information-need.ts keeps of its directions (the statement it names).
  return asked
    .replace(ASIDE, (aside) => (statementMentions(aside).length > 0 ? aside : ""))
    .replace(/\s+/g, " ")
    .trim();
}

/** A parenthesis inside a sentence, set off by a space ("401(k)" is a word) and followed by more of it. */
const ASIDE = /\s+\([^()]*\)(?=\s*[^\s(])/g;

/**
 * Two neighbouring words of the question that a passage may write as one ("lay off" / "Layoff", "set
 * up" / "setup", "health care" / "healthcare"): the joined word's term and the terms it stands for.
 */
function joinablePairs(asked: string): Array<{ joined: string; terms: string[] }> {
  const words = asked.toLowerCase().match(/[\p{L}]+/gu) ?? [];
  const pairs: Array<{ joined: string; terms: string[] }> = [];
  for (let index = 0; index + 1 < words.length; index += 1) {
    const [joined] = analyzeText(`${words[index]}${words[index + 1]}`);
    if (joined !== undefined) pairs.push({ joined, terms: analyzeText(`${words[index]} ${words[index + 1]}`) });
  }
  return pairs;
}

export function assessRelevance(
  query: string,
  results: SearchResult[],
  threshold = DEFAULT_COVERAGE_THRESHOLD,
): RelevanceAssessment {
  const asked = askedText(query).replace(FISCAL_YEAR, "$1");
  // Question words ("how much", "did … have") say nothing about the subject, and a figure to work out
  // ("the three year average of …", "… as a percentage of revenue") is worked out from inputs that the
  // page prints without the operation's name: no passage need hold those words.
  const content = contentTerms(asked);
  const subject = new Set([...content].filter((term) => !ARITHMETIC_TERMS.has(term)));
  // "What is the average?" asks for nothing else: it keeps its word.
  const queryTerms = subject.size > 0 ? subject : content;
  if (results.length === 0 || queryTerms.size === 0) return { relevant: false, coverage: 0 };
  const namedStatements = statementMentions(asked).map((mention) => ({
    statement: mention.statement,
    terms: uniqueTerms(asked.slice(mention.start, mention.end)),
  }));
  const pairs = joinablePairs(asked);
  let coverage = 0;
  for (const result of results.slice(0, 3)) {
    // The title, file name and section headings are indexed with every passage (index-text.ts): a
    // question naming them is covered.
    const chunkTerms = uniqueTerms(indexTextOf({ title: result.title, fileName: result.file }, result));
    // A statement the question names is covered by that statement's passages under whichever of its
    // names the report uses ("income statement": "Consolidated Statements of Operations").
    const statement = statementOfPassage(result.provenance);
    for (const named of namedStatements)
      if (named.statement === statement) for (const term of named.terms) chunkTerms.add(term);
    // "How many did Maxim lay off?" is covered by "Maxim … Layoff".
    for (const pair of pairs) if (chunkTerms.has(pair.joined)) for (const term of pair.terms) chunkTerms.add(term);
    let matched = 0;
    for (const term of queryTerms) if (chunkTerms.has(term)) matched += 1;
    coverage = Math.max(coverage, matched / queryTerms.size);
  }
  return { relevant: coverage >= threshold, coverage };
}
