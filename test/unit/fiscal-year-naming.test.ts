import { describe, expect, it } from "vitest";
import { januaryYearShift } from "../../src/answer/question/fiscal-year-naming.js";

describe("januaryYearShift", () => {
  it("reads a stated naming, fiscal year first or year end first", () => {
    expect(januaryYearShift("Net sales for fiscal 2022, which ended January 28, 2023, rose 18%.")).toBe(-1);
    expect(januaryYearShift("For the fiscal year ended January 31, 2023 (“fiscal 2023”), revenue was …")).toBe(0);
  });

  it("counts the fiscal years an earnings release speaks of around its latest January year end", () => {
    // Ulta's Q4 release: the quarter of fiscal 2022 against fiscal 2021's, periods ended January 28, 2023.
    const ulta =
      "results for the fifty-two-week period ended January 28, 2023 compared to the same periods ended January 29, 2022. " +
      "Net sales increased compared to the fourth quarter of fiscal 2021. During fiscal 2022, the Company repurchased " +
      "shares. Fiscal 2022 net sales … fiscal 2021 … fiscal 2021 … Fiscal 2023 outlook";
    expect(januaryYearShift(ulta)).toBe(-1);
    expect(januaryYearShift("52 Weeks Ended January 28, 2023 … fiscal 2021 … fiscal 2021 … fiscal 2022")).toBe(-1);
    // A retailer naming its years after their end: last year fiscal 2022, this year 2023, the outlook 2024.
    const namedAfterEnd =
      "for the fiscal year ended January 31, 2023 compared to fiscal 2022. Fiscal 2023 sales … fiscal 2024 guidance";
    expect(januaryYearShift(namedAfterEnd)).toBe(0);
  });

  it("does not guess", () => {
    expect(januaryYearShift("For the year ended December 31, 2022, fiscal 2022 revenue was …")).toBeNull();
    expect(januaryYearShift("quarter ended January 28, 2023; fiscal 2022 and fiscal 2023")).toBeNull();
    expect(januaryYearShift("No dates here.")).toBeNull();
    // A year ending in May: its quarter ended in February says nothing of January year ends.
    expect(
      januaryYearShift(
        "fiscal 2018 ended May 31, 2018. Three months ended February 28, 2018 … fiscal 2016 … fiscal 2016",
      ),
    ).toBeNull();
  });
});
