/**
 * The periods a text names, where it names them: years ("2019", "FY2019", "FY19", "fiscal 2019"),
 * fiscal years written as a span ("2018/2019", "2018/19": the year they end in), quarters ("Q1 2019",
 * "first quarter of 2019") and dates ("December 31, 2019", "31 March 2019", "Jun-2018"). One reader for
 * a table's column headers and for questions, so "FY19" in a question meets "2019" in a header.
 */

export type PeriodMention = {
  year: number;
  quarter?: number;
  /** 1–12 when a month is named. */
  month?: number;
  day?: number;
  start: number;
  end: number;
};

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
const MONTH =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";
const QUARTER_WORDS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  "1st": 1,
  "2nd": 2,
  "3rd": 3,
  "4th": 4,
};

function fullYear(digits: string): number {
  const value = Number(digits);
  return digits.length === 2 ? 2000 + value : value;
}

function monthOf(name: string): number | undefined {
  return MONTHS[
    name
      .toLowerCase()
      .replace(/\.$/, "")
      .slice(0, name.toLowerCase().startsWith("sept") ? 4 : 3)
  ];
}

type Pattern = { regex: RegExp; read: (match: RegExpExecArray) => Omit<PeriodMention, "start" | "end"> | null };

/** Most specific first: a date's year is not read again as a year of its own. */
const PATTERNS: Pattern[] = [
  {
    // "December 31, 2019", "Dec. 31 2019"
    regex: new RegExp(`\\b${MONTH}\\s+(\\d{1,2}),?\\s+((?:19|20)\\d{2})\\b`, "gi"),
    read: (match) => ({ year: Number(match[3]), month: monthOf(match[1] ?? ""), day: Number(match[2]) }),
  },
  {
    // "31 December 2019", "31 Dec 2019"
    regex: new RegExp(`\\b(\\d{1,2})\\s+${MONTH},?\\s+((?:19|20)\\d{2})\\b`, "gi"),
    read: (match) => ({ year: Number(match[3]), month: monthOf(match[2] ?? ""), day: Number(match[1]) }),
  },
  {
    // "Jun-2018", "June 2019", "Aug-19", "Aug'19" (two digits only after a dash or apostrophe: "December 31" is a day)
    regex: new RegExp(`\\b${MONTH}(?:[-\\s']((?:19|20)\\d{2})|[-'’](\\d{2}))\\b`, "gi"),
    read: (match) => ({ year: fullYear(match[2] ?? match[3] ?? ""), month: monthOf(match[1] ?? "") }),
  },
  {
    // "Q1 2019", "Q1 FY2019", "Q1'19", "1Q19", "first quarter of fiscal 2019"
    regex:
      /\b(?:q([1-4])|([1-4])q|(first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?quarter)(?:\s+(?:of\s+)?)?(?:fiscal\s+(?:year\s+)?|fy\s?)?['’]?\s*((?:19|20)\d{2}|\d{2})\b/gi,
    read: (match) => ({
      year: fullYear(match[4] ?? ""),
      quarter: Number(match[1] ?? match[2] ?? QUARTER_WORDS[(match[3] ?? "").toLowerCase()]),
    }),
  },
  {
    // "2019 Q1"
    regex: /\b((?:19|20)\d{2})\s+q([1-4])\b/gi,
    read: (match) => ({ year: Number(match[1]), quarter: Number(match[2]) }),
  },
  {
    // "2018/2019", "2018/19", "2018-19": a fiscal year named by both calendar years; it ends in the second.
    regex: /\b((?:19|20)\d{2})\s?[/–-]\s?((?:19|20)\d{2}|\d{2})\b/g,
    read: (match) => {
      const first = Number(match[1]);
      const second = fullYear(match[2] ?? "");
      return second === first + 1 ? { year: second } : null;
    },
  },
  {
    // "FY2019", "FY 19", "F19", "fiscal 2019", "fiscal year 2019", "2019"
    regex: /\b(?:fy\s?|f(?=\d{2}\b)|fiscal\s+(?:year\s+)?)?((?:19|20)\d{2}|(?<=fy\s?|\bf)\d{2})\b/gi,
    read: (match) => ({ year: fullYear(match[1] ?? "") }),
  },
];

export function periodMentions(text: string): PeriodMention[] {
  const mentions: PeriodMention[] = [];
  const taken: Array<[number, number]> = [];
  const overlaps = (start: number, end: number) => taken.some(([from, to]) => start < to && end > from);
  for (const { regex, read } of PATTERNS) {
    regex.lastIndex = 0;
    for (const match of text.matchAll(regex)) {
      const start = match.index ?? 0;
      const end = start + match[0].length;
      if (overlaps(start, end)) continue;
      const period = read(match);
      if (period === null || !Number.isFinite(period.year) || period.year < 1900 || period.year > 2099) continue;
      const clean = Object.fromEntries(Object.entries(period).filter(([, value]) => value !== undefined)) as Omit<
        PeriodMention,
        "start" | "end"
      >;
      mentions.push({ ...clean, start, end });
      taken.push([start, end]);
    }
  }
  return mentions.sort((left, right) => left.start - right.start);
}

/**
 * How well a column's period answers an asked one: 0 when they differ (another year, month or quarter),
 * higher the more the column says that the question also says.
 */
export function periodFit(asked: PeriodMention, column: PeriodMention): number {
  if (asked.year !== column.year) return 0;
  if (asked.quarter !== undefined && column.quarter !== asked.quarter) return 0;
  if (asked.quarter === undefined && column.quarter !== undefined) return 0.3;
  if (asked.month !== undefined && column.month !== undefined && asked.month !== column.month) return 0;
  if (asked.day !== undefined && column.day !== undefined && asked.day !== column.day) return 0;
  return 1 + (asked.month !== undefined && asked.month === column.month ? 0.5 : 0);
}

/** "2019", "Q1 2019", "December 31, 2019": a period as a sentence names it. */
export function describePeriod(period: Omit<PeriodMention, "start" | "end">): string {
  const monthNames = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
  ];
  if (period.quarter !== undefined) return `Q${period.quarter} ${period.year}`;
  if (period.month !== undefined && period.day !== undefined)
    return `${monthNames[period.month - 1]} ${period.day}, ${period.year}`;
  if (period.month !== undefined) return `${monthNames[period.month - 1]} ${period.year}`;
  return String(period.year);
}
