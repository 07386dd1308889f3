/**
 * The reader by meaning for prose: the candidate window (a sentence, a list with its introduction, an item
 * with the items under it, a section's opening) most likely to state what was asked, by its words, its
 * meaning, the kind of answer it holds and whether its condition fits the asker's case
 * (prose-evidence.ts). It is quoted first — two windows when the second is nearly as likely and from
 * elsewhere — with "Yes," or "No," in front of a yes/no question's deciding window when it says so plainly.
 */
import type { QuotedPassage } from "../citations/citations.js";
import type { DirectAnswer } from "../compose/direct-answer.js";
import { verdictLead } from "../compose/yes-no-verdict.js";
import { expressionFit } from "../evidence/answer-expressions.js";
import { type AnswerWindow, answerWindows } from "../evidence/answer-windows.js";
import { plainUnitText } from "../evidence/passage-units.js";
import type { ScoredCandidate } from "../evidence/prose-evidence.js";
import { isSameSentence } from "../evidence/same-sentence.js";
import { contentTerms, uniqueTerms } from "../evidence/sentence-scoring.js";
import type { AskedAnswerKind } from "../question/asked-answer.js";
import { newDirectAnswer, type Reader, type ReaderInput } from "./reader.js";

/** A second window is quoted when it is at least this likely relative to the first. */
const SECOND_WINDOW_RATIO = 0.85;
/**
 * "Yes," or "No," only in front of a window that holds this share of the question's words: a sentence that
 * shares one word with the question ("You can send a DM …" for "Are my Slack DMs private?") decides nothing.
 */
const VERDICT_COVERAGE = 0.6;

function passageOf(window: AnswerWindow, text: string): QuotedPassage {
  return { text, start: window.units[0]?.start ?? 0, end: window.units.at(-1)?.end ?? 0 };
}

function overlaps(left: AnswerWindow, right: AnswerWindow): boolean {
  if (left.source.result.chunkId !== right.source.result.chunkId) return false;
  const [leftStart, leftEnd] = [left.units[0]?.start ?? 0, left.units.at(-1)?.end ?? 0];
  const [rightStart, rightEnd] = [right.units[0]?.start ?? 0, right.units.at(-1)?.end ?? 0];
  return leftStart < rightEnd && rightStart < leftEnd;
}

/** Writes one window: a list as its introduction and items, anything else as a quote. */
function writeWindow(direct: DirectAnswer, window: AnswerWindow, lead: string): void {
  const [first] = window.units;
  if (window.kind === "list" && first !== undefined) {
    const lines = window.units.filter((unit) => unit.kind === "sentence");
    const items = window.units.filter((unit) => unit.kind === "item").map((unit) => plainUnitText(unit.text));
    const introduction =
      lines.length > 0
        ? lines
            .map((unit) => plainUnitText(unit.text))
            .join(" ")
            .replace(/:\s*$/, "")
        : (window.context.split(" › ").at(-1) ?? "");
    direct.addList(window.source, introduction, items, passageOf(window, introduction), lead);
    return;
  }
  // An item is read under its list's introduction: "under $10,000" is said there, not in the item.
  if (window.kind === "item" && window.introduction !== undefined) {
    const items = window.units.map((unit) => plainUnitText(unit.text));
    const introduction = window.introduction.replace(/:\s*$/, "");
    direct.addList(window.source, introduction, items, passageOf(window, introduction), lead);
    return;
  }
  direct.addQuote(window.source, passageOf(window, window.text), lead);
}

/**
 * The smallest window that says as much: a pair whose first sentence holds every question word the pair
 * holds, and the kind of answer asked as well, is quoted as that sentence alone.
 */
function smallestWindow(window: AnswerWindow, input: ReaderInput): AnswerWindow {
  const [antecedent] = window.units;
  if (window.kind !== "pair" || antecedent === undefined) return window;
  // The second sentence points back ("This is called …"): only the first can stand alone.
  const asked = contentTerms(input.need);
  const held = (text: string) => new Set([...uniqueTerms(text)].filter((term) => asked.has(term)));
  const text = plainUnitText(antecedent.text);
  const alone = held(text);
  const saysAsMuch = [...held(window.text)].every((term) => alone.has(term));
  const fits = expressionFit(text, input.prose.asked) >= expressionFit(window.text, input.prose.asked);
  return saysAsMuch && fits ? { ...window, kind: "sentence", units: [antecedent], text } : window;
}

/** Whether one window says what the other does: the same sentence, or one holding the other's opening (overlapping passages). */
function repeats(text: string, other: string): boolean {
  const opening = (value: string) => value.slice(0, 80).toLowerCase();
  return (
    isSameSentence(text, other) ||
    text.toLowerCase().includes(opening(other)) ||
    other.toLowerCase().includes(opening(text))
  );
}

/** A sentence that introduces a list ("Before taking leave, be sure to:") is answered with the list. */
function withItsList(window: AnswerWindow): AnswerWindow {
  const last = window.units.at(-1);
  if ((window.kind !== "sentence" && window.kind !== "pair") || last === undefined || !/:\s*$/.test(window.text))
    return window;
  const list = answerWindows(window.source).find(
    (candidate) => candidate.kind === "list" && candidate.units[0]?.start === last.start,
  );
  // A pair ("… during the first two weeks. Those include:") keeps its first sentence before the list.
  return list === undefined ? window : { ...list, units: [...window.units.slice(0, -1), ...list.units] };
}

/** Share of the question's content words (those the documents lack too) a text holds. */
function shareOfQuestionIn(text: string, input: ReaderInput): number {
  const asked = contentTerms(input.need);
  const held = uniqueTerms(text);
  return asked.size === 0 ? 0 : [...asked].filter((term) => held.has(term)).length / asked.size;
}

/** The question's words less its names: what a yes/no verdict is read against. */
function askedTerms(input: ReaderInput): Set<string> {
  const names = uniqueTerms(input.analysis.entities.join(" "));
  return new Set([...contentTerms(input.need)].filter((term) => !names.has(term)));
}

/**
 * Below the fixed scores of the readers of figures: a cell or a calculation read from a table stands, and
 * the window reader's embedding is not paid for once one answered.
 */
const WINDOW_CEILING = 0.9;

/**
 * Kinds of answer that are a value (answer-expressions.ts): only a window stating one answers. Not a
 * date: "When do people use Meet rather than Zoom?" asks in which case, not on which day.
 */
const VALUE_KINDS = new Set<AskedAnswerKind>(["duration", "frequency", "money", "quantity"]);

export const windowReader: Reader = {
  name: "window",
  ceiling: WINDOW_CEILING,
  async read(input) {
    const candidates = await input.prose.candidates();
    // "How long…", "How often…", "How much…": a window holding no value of that kind does not answer it.
    const [best, ...others] = VALUE_KINDS.has(input.prose.asked.kind)
      ? candidates.filter((candidate) => candidate.features.fit > 0)
      : candidates;
    if (best === undefined) return null;
    const verdict = input.prose.asked.kind === "verdict";
    const decides = verdict && shareOfQuestionIn(best.window.text, input) >= VERDICT_COVERAGE;
    const direct = newDirectAnswer(input);
    const window = withItsList(smallestWindow(best.window, input));
    writeWindow(direct, window, decides ? verdictLead(input.need, window.text, askedTerms(input)) : "");
    const second = others.find(
      (candidate: ScoredCandidate) =>
        candidate.likelihood >= SECOND_WINDOW_RATIO * best.likelihood &&
        !overlaps(candidate.window, best.window) &&
        !repeats(candidate.window.text, best.window.text),
    );
    if (second !== undefined && !verdict) writeWindow(direct, second.window, "");
    const score = Math.min(best.likelihood, WINDOW_CEILING);
    return { reader: "window", grounds: "text", score, direct, uncovered: null, missingNames: [] };
  },
};
