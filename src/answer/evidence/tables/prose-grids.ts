/**
 * Figures a sentence states for several periods, read as a one-row table so the same plans answer them:
 * "Amounts capitalized … for the years ended December 31, 2019 and 2018 were $3,800 and $6,690,
 * respectively." and "… amounted to $19.5 million in 2019 and $20.8 million in 2018." become a row
 * ("Amounts capitalized …") with a column per period. The row's label is the sentence's subject: what
 * stands before its verb, less its periods.
 */
import { splitSentences } from "../../../../ingestion/split-sentences.js";
import type { SearchResult } from "../../../domain/types.js";
import { uniqueTerms } from "../sentence-scoring.js";
import { parseCellNumber, type UnitScale } from "../table-cells.js";
import { type PeriodMention, periodMentions } from "./period-mentions.js";
import type { GridColumn, GridValue, TableGrid } from "./table-grid.js";

/** An amount as prose prints it: "$3,800", "$2.5 million", "S$1.75 billion", "(19)", "12.4%". */
const AMOUNT =
  /(?<![\w.])(?:(?:US|S|A|C|HK)?[$€£¥]\s?|(?:USD|EUR|GBP|RMB|INR)\s)?\(?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\)?(?:\s?(?:%|percent\b)|\s(?:thousand|million|billion)\b|(?:bn|m)\b)?/g;

const SCALE_WORDS: Record<string, UnitScale> = {
  thousand: "thousand",
  million: "million",
  m: "million",
  billion: "billion",
  bn: "billion",
};

type Amount = { text: string; start: number; end: number; value: GridValue; scale: UnitScale | null };

function amountsIn(sentence: string, periods: PeriodMention[]): Amount[] {
  const amounts: Amount[] = [];
  for (const match of sentence.matchAll(AMOUNT)) {
    const start = match.index ?? 0;
    const end = start + match[0].length;
    if (periods.some((period) => start < period.end && end > period.start)) continue;
    const text = match[0].trim();
    const scaleWord = /\s?(thousand|million|billion|bn|m)$/i.exec(text)?.[1]?.toLowerCase();
    const bare = text
      .replace(/\s?(?:thousand|million|billion|bn|m)$/i, "")
      .replace(/^(?:US|S|A|C|HK)(?=[$])/, "")
      .replace(/^(?:USD|EUR|GBP|RMB|INR)\s/, "$");
    const parsed = parseCellNumber(bare.replace(/\s?percent$/i, "%"));
    // A bare small integer ("3 segments", "Note 14") is no figure; an amount has a currency, a unit, a scale or separators.
    if (parsed === null || (!/[$€£¥%,.]/.test(bare) && scaleWord === undefined)) continue;
    amounts.push({
      text: bare,
      start,
      end,
      value: { text: bare, number: parsed.number, percent: parsed.percent, currency: parsed.currency },
      scale: scaleWord === undefined ? null : (SCALE_WORDS[scaleWord] ?? null),
    });
  }
  return amounts;
}

/** The periods and amounts a sentence pairs: by "respectively", or each amount beside its period. */
function pairs(sentence: string): Array<{ period: PeriodMention; amount: Amount }> {
  const periods = periodMentions(sentence);
  const amounts = amountsIn(sentence, periods);
  if (periods.length < 2 || amounts.length < 2) return [];
  const respectively = sentence.match(/\brespectively\b/gi)?.length ?? 0;
  // "… were $12,548 and $12,643 …, respectively, of which $9,028 and $9,189, respectively, …": which run is which is unclear.
  if (respectively > 1) return [];
  if (respectively === 1) {
    // The last run of as many amounts as there are periods, in order.
    const distinct = periods.filter(
      (period, index) =>
        periods.findIndex(
          (other) => other.year === period.year && other.month === period.month && other.quarter === period.quarter,
        ) === index,
    );
    if (amounts.length < distinct.length) return [];
    const run = amounts.slice(0, distinct.length);
    return distinct.map((period, index) => ({ period, amount: run[index] as Amount }));
  }
  // "$19.5 million in 2019 and $20.8 million in 2018": each amount with the period right after (or before) it.
  const found: Array<{ period: PeriodMention; amount: Amount }> = [];
  for (const amount of amounts) {
    const after = periods.find(
      (period) =>
        period.start >= amount.end &&
        /^\s*(?:in|for|during|at|as of|of)?\s*(?:fiscal\s+(?:year\s+)?|the\s+year\s+ended\s+|fy\s?)?$/i.test(
          sentence.slice(amount.end, period.start),
        ),
    );
    const before = periods.find(
      (period) =>
        period.end <= amount.start &&
        /^\s*[:,]?\s*(?:was|were|of)?\s*$/i.test(sentence.slice(period.end, amount.start)),
    );
    const period = after ?? before;
    if (period !== undefined && !found.some((pair) => pair.period === period)) found.push({ period, amount });
  }
  return found.length >= 2 ? found : [];
}

/** A phrase that places a figure in time, right before a period: "for the years ended June 30,", "in fiscal", "as of". */
const PERIOD_PHRASE =
  /\b(?:for|during|in|at|as\s+of|as\s+at|of)(?:\s+the)?(?:\s+(?:fiscal|financial|calendar))?(?:\s+(?:years?|quarters?|months?|periods?|weeks?))?(?:\s+(?:ended|ending))?\s*(?:[A-Za-z]+\.?\s+\d{1,2},?\s*)?$/i;

/** The sentence's subject: what stands before its verb, cut before its first period ("Amounts capitalized … operations"). */
function subjectOf(sentence: string, firstAmount: number): string {
  let head = sentence.slice(0, firstAmount);
  const verb =
    /\s(?:was|were|is|are|totaled|totalled|amounted\s+to|increased|decreased|rose|fell|included|includes|reached)\s/i.exec(
      head,
    );
  if (verb !== null) head = head.slice(0, verb.index);
  const firstPeriod = periodMentions(head)[0];
  if (firstPeriod !== undefined) {
    const before = head.slice(0, firstPeriod.start);
    const phrase = PERIOD_PHRASE.exec(before);
    head = phrase === null ? before : before.slice(0, phrase.index);
  }
  return head
    .replace(/^\W*(?:\(\d+\)\s*)?/, "")
    .replace(/\s+/g, " ")
    .replace(/[\s,;:]+$/, "")
    .trim();
}

/** Amounts in one scale: "$757.3 million" beside "$1.2 billion" is 1,200 million. */
function inOneScale(
  found: Array<{ period: PeriodMention; amount: Amount }>,
): Array<{ period: PeriodMention; amount: Amount }> {
  const factors: Record<UnitScale, number> = { thousand: 1e3, million: 1e6, billion: 1e9 };
  const scales = found.map((pair) => pair.amount.scale).filter((scale): scale is UnitScale => scale !== null);
  if (new Set(scales).size <= 1) return found;
  const smallest = scales.reduce((least, scale) => (factors[scale] < factors[least] ? scale : least));
  return found.map((pair) => {
    const { amount } = pair;
    if (amount.scale === null || amount.scale === smallest || amount.value.number === null) return pair;
    const number = (amount.value.number * factors[amount.scale]) / factors[smallest];
    return {
      ...pair,
      amount: { ...amount, scale: smallest, value: { ...amount.value, number, text: String(number) } },
    };
  });
}

export type ProseGrid = { grid: TableGrid; start: number; end: number };

/** Every sentence of a prose passage that states one figure for two or more periods, as a one-row grid. */
export function proseGrids(result: Pick<SearchResult, "text" | "kind">): ProseGrid[] {
  if (result.kind === "table") return [];
  const grids: ProseGrid[] = [];
  for (const { start, end } of splitSentences(result.text)) {
    const sentence = result.text.slice(start, end);
    const found = inOneScale(pairs(sentence));
    if (found.length < 2) continue;
    const label = subjectOf(sentence, Math.min(...found.map((pair) => pair.amount.start)));
    if (label === "" || uniqueTerms(label).size === 0) continue;
    const columns: GridColumn[] = found.map((pair, index) => ({
      index: index + 1,
      header: sentence.slice(pair.period.start, pair.period.end),
      period: pair.period,
      terms: new Set<string>(),
      percentColumn: false,
      scale: pair.amount.scale,
    }));
    const currency = found.map((pair) => pair.amount.value.currency).find(Boolean) ?? null;
    grids.push({
      grid: {
        columns,
        rows: [{ label, section: null, values: found.map((pair) => pair.amount.value), start, end }],
        scale: null,
        unitNote: null,
        currency,
        turned: false,
        contextTerms: uniqueTerms(sentence),
      },
      start,
      end,
    });
  }
  return grids;
}
