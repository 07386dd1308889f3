/**
 * Picks, among a row's answer choices, the one the cited evidence supports — or none. A choice is
 * supported when most of its own content words (stemmed, stop words out) appear in one cited passage,
 * clearly more than any other choice's; a choice that negates ("We do not use firewalls") is only
 * picked when that passage negates too, since documents describe what is done far more often than what
 * is not. No choice is ever picked without evidence: a row without an answer picks none, and when in
 * doubt none is picked (the row then needs review) rather than a guess written in.
 */
import { analyzeText } from "../../retrieval/text-analyzer.js";

/** Share of a choice's content words one cited passage must contain. */
const MIN_COVERAGE = 0.6;
/** Content words of a choice the passage must contain at least (one or two shared words are chance). */
const MIN_SHARED_WORDS = 3;
/** The best choice must lead the next by this much coverage, or the evidence does not decide. */
const MIN_LEAD = 0.15;

const NEGATION =
  /\b(no|not|none|never|don't|do not|doesn't|does not|cannot|can't|without|n\/a|we don't|isn't|aren't)\b/i;
const YES = /^(yes|y|true)\b/i;
/**
 * A question no choice of Yes or No answers: it asks what, when, where, who, which, why or how, or asks
 * to describe or list ("When does the access review happen?" is never answered "Yes"). A question that
 * can be answered Yes or No ("Do you …", "Is there …") or a requirement stated as a sentence ("Data is
 * encrypted at rest.") can be.
 */
const OPEN_QUESTION =
  /^\s*(?:[\w.()-]{1,8}\s+)?(?:what|when|where|who|whom|whose|which|why|how|describe|explain|list|provide|specify|outline|detail|summari[sz]e|name|identify)\b/i;
const NO = /^(no|n|false)\b/i;

export type ChoiceDecision = { choice: string | null; reason: string };

function coverage(choiceTerms: string[], evidence: Set<string>): { shared: number; ratio: number } {
  const unique = [...new Set(choiceTerms)];
  if (unique.length === 0) return { shared: 0, ratio: 0 };
  const shared = unique.filter((term) => evidence.has(term)).length;
  return { shared, ratio: shared / unique.length };
}

/** Each passage (cited quote) is weighed on its own: words scattered over several do not make a claim. */
export function chooseAnswerChoice(question: string, choices: string[], passages: string[]): ChoiceDecision {
  if (choices.length === 0) return { choice: null, reason: "no choices" };
  const texts = passages.filter((passage) => passage.trim() !== "");
  if (texts.length === 0) return { choice: null, reason: "no evidence" };
  const decisions = texts.map((passage) => chooseForPassage(question, choices, passage));
  const picked = [...new Set(decisions.map((decision) => decision.choice).filter((choice) => choice !== null))];
  if (picked.length === 1) return { choice: picked[0] ?? null, reason: "the cited evidence states it" };
  if (picked.length > 1) return { choice: null, reason: "the cited passages support different choices" };
  return decisions[0] ?? { choice: null, reason: "no evidence" };
}

function chooseForPassage(question: string, choices: string[], evidenceText: string): ChoiceDecision {
  const evidence = new Set(analyzeText(evidenceText));
  const evidenceNegates = NEGATION.test(evidenceText);
  // Plain Yes/No lists: "Yes" only when one passage states most of what the question asks, without negating.
  const yes = choices.find((choice) => YES.test(choice.trim()) && choice.trim().split(/\s+/).length <= 2);
  const no = choices.find((choice) => NO.test(choice.trim()) && choice.trim().split(/\s+/).length <= 2);
  if (yes && no && choices.every((choice) => choice.trim().split(/\s+/).length <= 3)) {
    if (OPEN_QUESTION.test(question)) return { choice: null, reason: "Yes or No does not answer this question" };
    const asked = coverage(analyzeText(question), evidence);
    if (!evidenceNegates && asked.shared >= MIN_SHARED_WORDS && asked.ratio >= MIN_COVERAGE) {
      return { choice: yes, reason: "the cited passage states what the question asks" };
    }
    return { choice: null, reason: "no cited passage plainly states Yes or No" };
  }
  const scored = choices
    .map((choice) => ({ choice, ...coverage(analyzeText(choice), evidence), negates: NEGATION.test(choice) }))
    .map((entry) => ({
      ...entry,
      eligible: entry.shared >= MIN_SHARED_WORDS && entry.ratio >= MIN_COVERAGE && (!entry.negates || evidenceNegates),
    }))
    .sort((a, b) => b.ratio - a.ratio || b.shared - a.shared);
  const best = scored[0];
  if (!best?.eligible) return { choice: null, reason: "no choice is stated in the cited evidence" };
  const runnerUp = scored[1];
  if (runnerUp?.eligible && best.ratio - runnerUp.ratio < MIN_LEAD) {
    return { choice: null, reason: "the evidence fits more than one choice" };
  }
  return { choice: best.choice, reason: "the cited evidence states it" };
}
