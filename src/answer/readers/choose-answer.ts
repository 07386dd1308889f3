/**
 * The chooser: asks each reader in turn and keeps the most likely answer (README.md, "Readers"). A reader
 * that says the documents do not cover a name or a period the question asks about ends the choice: the
 * reply says so. An answer less likely than the question's answerable bar is no answer: with none left,
 * the reply says the documents do not hold one and shows the closest sources.
 */
import type { DirectAnswer } from "../compose/direct-answer.js";
import type { NumberedSource } from "../generate/generator.js";
import { comparisonReader } from "./comparison-reader.js";
import { coverageReader } from "./coverage-reader.js";
import { definitionReader } from "./definition-reader.js";
import { figureReader } from "./figure-reader.js";
import { footnoteReader } from "./footnote-reader.js";
import { listReader } from "./list-reader.js";
import { ratioReader } from "./ratio-reader.js";
import type { Reader, ReaderInput, Reading } from "./reader.js";
import { tableReader } from "./table-reader.js";
import { windowReader } from "./window-reader.js";
import { yesNoReader } from "./yes-no-reader.js";

/** In order: a refusal ends the choice, and on equal scores the earlier reader's answer stands. */
export const READERS: readonly Reader[] = [
  coverageReader,
  ratioReader,
  tableReader,
  figureReader,
  listReader,
  yesNoReader,
  footnoteReader,
  definitionReader,
  comparisonReader,
  windowReader,
];

export type ChosenAnswer = {
  direct: DirectAnswer | null;
  /** Set when the documents do not cover a name or a year the question asks about. */
  uncovered: string | null;
  /** Names no found document gives, for which an answer may still go ahead under a caveat. */
  missingNames: string[];
  /** The reader whose answer stands, and its score; null and 0 when none answered. */
  reader: string | null;
  score: number;
  /**
   * The likelihood of the best prose candidate when no reader answered (or the documents do not cover a
   * name): whether the passages are still about the rest of the question. 0 when a reader answered.
   */
  proseLikelihood: number;
  /** The likelihood an answer needs (the prose evidence's bar): below it the documents do not hold one. */
  answerable: number;
  /** The answer's numbered sources: those given, and any the chosen answer appended. */
  sources: readonly NumberedSource[];
};

/** `observe` is told of every reading (diagnostics: answer-question logs them at debug level). */
export function chooseAnswer(input: ReaderInput, observe?: (reading: Reading) => void): Promise<ChosenAnswer> {
  return chooseAmong(READERS, input, observe);
}

/** The choice among `readers`, in their order (the chooser's rules above). */
export async function chooseAmong(
  readers: readonly Reader[],
  input: ReaderInput,
  observe?: (reading: Reading) => void,
): Promise<ChosenAnswer> {
  let best: Reading | null = null;
  const missingNames = new Set<string>();
  for (const reader of readers) {
    if (best !== null && best.score >= reader.ceiling) continue;
    const reading = await reader.read(input);
    if (reading === null) continue;
    observe?.(reading);
    for (const name of reading.missingNames) missingNames.add(name);
    if (reading.uncovered !== null)
      return {
        ...reading,
        missingNames: [...missingNames],
        proseLikelihood: await bestProseLikelihood(input),
        answerable: input.prose.answerable,
        sources: input.sources,
      };
    const answers =
      reading.direct !== null &&
      reading.score >= input.prose.answerable &&
      (reading.grounds === "figures" || reading.reader !== "window" || (await input.prose.holdsAnswer()));
    if (answers && (best === null || reading.score > best.score)) best = reading;
  }
  return {
    direct: best?.direct ?? null,
    uncovered: null,
    missingNames: [...missingNames],
    reader: best?.reader ?? null,
    score: best?.score ?? 0,
    proseLikelihood: best === null ? await bestProseLikelihood(input) : 0,
    answerable: input.prose.answerable,
    sources: best?.direct?.numberedSources() ?? input.sources,
  };
}

async function bestProseLikelihood(input: ReaderInput): Promise<number> {
  return (await input.prose.candidates())[0]?.likelihood ?? 0;
}
