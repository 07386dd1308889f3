import { describe, expect, it } from "vitest";
import { periodFit, periodMentions } from "../../src/answer/evidence/tables/period-mentions.js";

const read = (text: string) => periodMentions(text).map(({ start: _start, end: _end, ...period }) => period);

describe("periodMentions", () => {
  it.each([
    ["2019", [{ year: 2019 }]],
    ["FY19 and fiscal 2018", [{ year: 2019 }, { year: 2018 }]],
    ["2018/2019", [{ year: 2019 }]],
    ["December 31, 2019", [{ year: 2019, month: 12, day: 31 }]],
    ["31 March 2019", [{ year: 2019, month: 3, day: 31 }]],
    ["Jun-2018", [{ year: 2018, month: 6 }]],
    [
      "Q1 2019 and the second quarter of fiscal 2020",
      [
        { year: 2019, quarter: 1 },
        { year: 2020, quarter: 2 },
      ],
    ],
  ])("reads %j", (text, periods) => {
    expect(read(text)).toEqual(periods);
  });

  it("reads no year in a day of the month ('December 31,')", () => {
    expect(read("Years Ended December 31,")).toEqual([]);
  });

  it("fits a year to a date of that year, never to another year or quarter", () => {
    const [year] = periodMentions("2019");
    const [date] = periodMentions("December 31, 2019");
    const [quarter] = periodMentions("Q3 2019");
    if (!year || !date || !quarter) throw new Error("no periods");
    expect(periodFit(year, date)).toBeGreaterThan(0);
    expect(periodFit(year, quarter)).toBeLessThan(periodFit(year, date));
    expect(periodFit(quarter, year)).toBe(0);
  });
});
