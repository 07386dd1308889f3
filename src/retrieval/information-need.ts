/**
 * The information need of a question: what is asked, without the instructions and persona text people
 * wrap around it ("Assume that you are a public equities analyst.", "Answer in USD millions.",
 * "Round your answer to two decimal places.", "By drawing conclusions from the income statement, …").
 * Those words are in no document, so they dilute BM25 and the embedding and count against the
 * question's coverage in the no-context decision. Retrieval and that decision use the need; the
 * generator still reads the whole question (it must follow the instructions).
 *
 * The rules are about the shape of English requests, not about any document set:
 * - a sentence that is an instruction (it starts with an imperative such as "answer", "round",
 *   "assume", "please …", or sets a persona: "you are …", "as a … analyst") is dropped; a sentence
 *   that introduces the question after a colon ("Answer the following question …: what is …?") keeps
 *   the part after the colon;
 * - a leading clause that only says where to look or how to reason ("Using the cash flow statement,",
 *   "Based on the balance sheet,") is dropped, but the statement it names is kept: it is what the
 *   page is called ("… cash flow statement");
 * - a parenthetical about units or rounding ("(in USD millions)") is dropped;
 * - conditional instructions ("If X is not a useful metric …, then state that and explain why.") go.
 * When nothing would remain, the question is used as asked.
 */

/** Verbs (and politeness) that open an instruction to the answerer rather than a question. */
const INSTRUCTION_OPENERS = [
  "act",
  "address",
  "answer",
  "approach",
  "assume",
  "base",
  "basing",
  "calculate",
  "compute",
  "consider",
  "do not",
  "don't",
  "explain",
  "express",
  "format",
  "give",
  "imagine",
  "include",
  "keep",
  "make sure",
  "note",
  "please",
  "pretend",
  "provide",
  "reply",
  "respond",
  "round",
  "show",
  "state",
  "use",
  "utilize",
  "write",
];

const INSTRUCTION_SENTENCE = new RegExp(
  `^(?:(?:${INSTRUCTION_OPENERS.map((word) => word.replace(/'/g, "['’]")).join("|")})\\b|you are\\b|you're\\b|as an? [^,]{0,60}(?:analyst|expert|advisor|adviser|assistant)\\b|we need to\\b|i need you to\\b|if [^,.]{0,200}?(?:is not|isn't|is n't) (?:a )?(?:useful|relevant|meaningful|applicable)\\b)`,
  "i",
);

/** What introduces the asker's question after a colon: "Answer the following question …:". */
const QUESTION_INTRODUCTION = /\b(?:question|following|answer|respond|response|reply)\b/i;

/** Leading clauses that say where to look or how to reason: "Using the cash flow statement, …". */
const GUIDANCE_CLAUSE =
  /^(?:(?:primarily |only |mainly |by |when |while )*(?:using|utilizing|utilising|referencing|referring to|relying on|drawing (?:conclusions )?from|looking at|considering|taking into account|based on|basing (?:your |the )?(?:judg(?:e)?ments?|answer|response)?\s*(?:off of|off|on|by|upon|from)|according to|in (?:light|view) of|with reference to)\b)([^,?]{0,200}),\s*/i;

/** Statement and report names worth keeping from a guidance clause: they are what the page is called. */
const NAMED_SOURCE =
  /\b(?:(?:consolidated )?(?:balance sheets?|income statements?|cash flows? statements?|statements? of (?:cash flows?|income|operations|financial position|comprehensive income|(?:stockholders'?|shareholders'?) equity)|p&l(?: statement)?|profit and loss(?: statement)?|(?:financial|segment) (?:statements?|results?|information|data)|notes? to the financial statements))\b/gi;

/** "(in USD millions)", "(in units of percents and round to one decimal place)". */
const UNITS_PARENTHETICAL =
  /\s*\((?:[^()]{0,80}\b(?:in (?:usd|us\$|\$|units?|percent|percents|millions?|billions?|thousands?)|round(?:ed)?|decimal|expressed)\b[^()]{0,80})\)/gi;

/** "FY2018" is one token that no page contains; pages say "2018" or "fiscal 2018". */
const FISCAL_YEAR = /\bFY\s?((?:19|20)\d{2})\b/gi;

/** Splits after ". ", "? " or "! " when the next sentence starts with a capital, a digit or a quote. */
const SENTENCE_BREAK = /(?<=[.?!])\s+(?=["'“‘(]?[\p{Lu}\p{N}])/u;

/** The clause's object, when it is short enough to be a subject rather than directions ("Looking at VaR,"). */
const MAX_KEPT_OBJECT_WORDS = 3;

/** Capitalized runs ("Northwind Health Plus Benefits Details", "VaR"): names a guidance clause may carry. */
const NAME_RUN = /(?<![\p{L}\p{N}])\p{Lu}[\p{L}\p{N}&'’.-]*(?:\s+(?:(?:of|and|&)\s+)?\p{Lu}[\p{L}\p{N}&'’.-]*)*/gu;

/**
 * The sentence without its leading guidance clause. What the clause points at survives when it is a
 * named statement, a name, or short enough to be a subject rather than directions ("Looking at VaR,").
 */
function withoutGuidance(sentence: string): string {
  const match = GUIDANCE_CLAUSE.exec(sentence);
  if (!match) return sentence;
  const rest = sentence.slice(match[0].length);
  const object = (match[1] ?? "").trim();
  const words = object
    .replace(/^(?:the|a|an)\s+/i, "")
    .split(/\s+/)
    .filter(Boolean);
  const kept =
    words.length > 0 && words.length <= MAX_KEPT_OBJECT_WORDS
      ? [words.join(" ")]
      : [...(object.match(NAMED_SOURCE) ?? []), ...(object.match(NAME_RUN) ?? [])];
  return kept.length > 0 ? `${rest} (${kept.join(", ")})` : rest;
}

function needOfSentence(sentence: string): string {
  const trimmed = sentence.trim();
  const guided = withoutGuidance(trimmed);
  // "Using the cash flow statement, answer the following question: how much …?" — read what follows the clause.
  if (guided !== trimmed) return needOfSentence(guided);
  if (!INSTRUCTION_SENTENCE.test(trimmed)) return trimmed;
  // "Answer the following question …: what is the FY2018 net PPNE for 3M?" — the question follows the colon.
  const colon = trimmed.indexOf(":");
  const introduction = colon >= 0 ? trimmed.slice(0, colon) : "";
  if (colon >= 0 && colon < trimmed.length - 1 && QUESTION_INTRODUCTION.test(introduction)) {
    const after = trimmed.slice(colon + 1).trim();
    const named = introduction.match(NAMED_SOURCE);
    if (
      /\?\s*$/.test(after) ||
      /^(?:what|which|how|who|when|where|why|is|are|was|were|did|does|do|can)\b/i.test(after)
    ) {
      const need = needOfSentence(after);
      return named ? `${need} (${named.join(", ")})` : need;
    }
  }
  // A question is no instruction, though it opens with a word that can be one ("State disability: who qualifies?").
  if (/\?\s*$/.test(trimmed)) return trimmed;
  // "Give a response … relying on the cash flow statement." — the statement it names is what the page is called.
  const named = trimmed.match(NAMED_SOURCE);
  return named ? `(${named.join(", ")})` : "";
}

/** The question's information need, for retrieval and the no-context decision (see the module comment). */
export function informationNeed(question: string): string {
  const text = question.replace(/\s+/g, " ").trim();
  if (text.length === 0) return text;
  const sentences = text.split(SENTENCE_BREAK);
  const kept = sentences
    .map((sentence) => needOfSentence(sentence).replace(UNITS_PARENTHETICAL, "").trim())
    .filter((sentence) => /[\p{L}\p{N}]/u.test(sentence));
  return (kept.length === 0 ? text : kept.join(" ")).replace(FISCAL_YEAR, "fiscal $1");
}
