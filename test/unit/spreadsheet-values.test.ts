/**
 * Pure pieces of the spreadsheet readers, worked out by hand: how numbers, percentages and dates read
 * as text, the BIFF RK number encoding, and BIFF strings that run across CONTINUE records.
 */
import { describe, expect, it } from "vitest";
import { BiffFormatError, BiffReader, readRecords } from "../../ingestion/biff-records.js";
import {
  excelSerialToDate,
  formatCellDate,
  formatCellNumber,
  formatGeneralNumber,
  isDateFormatCode,
} from "../../ingestion/cell-values.js";
import { decodeRk } from "../../ingestion/parse-xls.js";

describe("cell values as text", () => {
  it("shows numbers as Excel's General format does, without binary noise", () => {
    expect(formatGeneralNumber(0.1 + 0.2)).toBe("0.3");
    expect(formatGeneralNumber(42)).toBe("42");
    expect(formatGeneralNumber(-1234.5)).toBe("-1234.5");
    expect(formatGeneralNumber(1 / 3)).toBe("0.333333333333333");
  });

  it("reads date format codes, ignoring literal text, escapes and colours", () => {
    expect(isDateFormatCode("yyyy-mm-dd")).toBe(true);
    expect(isDateFormatCode("[$-409]d-mmm-yy;@")).toBe(true);
    expect(isDateFormatCode("h:mm AM/PM")).toBe(true);
    expect(isDateFormatCode("[h]:mm:ss")).toBe(true);
    expect(isDateFormatCode("General")).toBe(false);
    expect(isDateFormatCode('#,##0.00 "days"')).toBe(false);
    expect(isDateFormatCode("[Red]0.00;[Blue]-0.00")).toBe(false);
    expect(isDateFormatCode("0.00\\h")).toBe(false);
  });

  it("turns serials into dates in both date systems, across the 1900 leap-year bug", () => {
    expect(excelSerialToDate(1, false).toISOString().slice(0, 10)).toBe("1900-01-01");
    expect(excelSerialToDate(59, false).toISOString().slice(0, 10)).toBe("1900-02-28");
    expect(excelSerialToDate(61, false).toISOString().slice(0, 10)).toBe("1900-03-01");
    expect(excelSerialToDate(45352, false).toISOString().slice(0, 10)).toBe("2024-03-01");
    expect(excelSerialToDate(43890, true).toISOString().slice(0, 10)).toBe("2024-03-01");
  });

  it("formats numeric cells under their number format", () => {
    expect(formatCellNumber(45352, { builtInId: 14 }, false)).toBe("2024-03-01");
    expect(formatCellNumber(45352.75, { code: "yyyy-mm-dd hh:mm" }, false)).toBe("2024-03-01 18:00");
    expect(formatCellNumber(0.5, { code: "h:mm" }, false)).toBe("12:00");
    expect(formatCellNumber(0.5, { builtInId: 20 }, false)).toBe("12:00");
    expect(formatCellNumber(0.5, { builtInId: 21 }, false)).toBe("12:00:00");
    expect(formatCellNumber(0.255, { builtInId: 10 }, false)).toBe("25.5%");
    expect(formatCellNumber(0.3, { code: "0%" }, false)).toBe("30%");
    expect(formatCellNumber(45352, { builtInId: 0 }, false)).toBe("45352");
    expect(formatCellNumber(45352, {}, false)).toBe("45352");
  });

  it("rounds times to the second and shows seconds only where the format does", () => {
    expect(formatCellNumber(0.41666666, { code: "h:mm" }, false)).toBe("10:00");
    expect(formatCellNumber(0.41666666, { builtInId: 20 }, false)).toBe("10:00");
    expect(formatCellNumber(0.5 + 15 / 86400, { code: "hh:mm:ss" }, false)).toBe("12:00:15");
  });

  it("counts elapsed-time formats in total hours, minutes or seconds", () => {
    expect(formatCellNumber(1.5, { code: "[h]:mm:ss" }, false)).toBe("36:00:00");
    expect(formatCellNumber(1.5, { builtInId: 46 }, false)).toBe("36:00:00");
    expect(formatCellNumber(2.25, { code: "[h]:mm" }, false)).toBe("54:00");
    expect(formatCellNumber(0.5, { code: "[mm]:ss" }, false)).toBe("720:00");
    expect(formatCellNumber(0.001, { code: "[ss]" }, false)).toBe("86");
  });

  it("shows serials outside Excel's calendar as numbers", () => {
    expect(formatCellNumber(2_958_466, { builtInId: 14 }, false)).toBe("2958466");
    expect(formatCellNumber(2_958_000, { builtInId: 14 }, true)).toBe("2958000");
    expect(formatCellNumber(-1, { builtInId: 14 }, false)).toBe("-1");
  });

  it("formats dates a reader already decoded (exceljs) the same way, in both date systems", () => {
    expect(formatCellDate(new Date(Date.UTC(2024, 2, 1)), { code: "mm-dd-yy" }, false)).toBe("2024-03-01");
    expect(formatCellDate(new Date(Date.UTC(1899, 11, 30, 9, 30)), { code: "h:mm" }, false)).toBe("09:30");
    expect(formatCellDate(new Date(Date.UTC(1904, 0, 1, 12, 0)), { code: "h:mm" }, true)).toBe("12:00");
    expect(formatCellDate(new Date(Date.UTC(1899, 11, 31, 12, 0)), { code: "[h]:mm" }, false)).toBe("36:00");
    expect(formatCellDate(new Date(Date.UTC(2024, 2, 1, 14, 30)), {}, false)).toBe("2024-03-01 14:30");
  });
});

describe("BIFF8 records", () => {
  it("decodes RK numbers: integers, truncated doubles, and both divided by 100", () => {
    expect(decodeRk((5 << 2) | 0x02)).toBe(5);
    expect(decodeRk((-7 << 2) | 0x02)).toBe(-7);
    expect(decodeRk((123 << 2) | 0x03)).toBe(1.23);
    expect(decodeRk(0x3ff00000)).toBe(1); // high word of 1.0
    expect(decodeRk(0x3ff00000 | 0x01)).toBe(0.01);
  });

  it("attaches CONTINUE records to the record before them and stops after EOF", () => {
    const stream = Uint8Array.from([
      ...[0xfc, 0x00, 0x02, 0x00, 0xaa, 0xbb],
      ...[0x3c, 0x00, 0x01, 0x00, 0xcc],
      ...[0x0a, 0x00, 0x00, 0x00],
      ...[0x01, 0x00, 0x00, 0x00],
    ]);
    const records = [...readRecords(stream, 0, 0x0a)];
    expect(records.map((record) => record.type)).toEqual([0xfc, 0x0a]);
    expect(records[0]?.segments.map((segment) => [...segment])).toEqual([[0xaa, 0xbb], [0xcc]]);
    expect(() => [...readRecords(Uint8Array.from([0xfc, 0x00, 0x09, 0x00, 0x01]), 0, 0x0a)]).toThrow(BiffFormatError);
  });

  it("reads a string whose characters run into the next segment, which switches to 16-bit", () => {
    // "ab" compressed in the first segment; "cΔ" in the next, whose option byte says 16-bit.
    const first = Uint8Array.from([0x04, 0x00, 0x00, 0x61, 0x62]);
    const second = Uint8Array.from([0x01, 0x63, 0x00, 0x94, 0x03, 0x01, 0x00, 0x00, 0x7a]);
    const reader = new BiffReader([first, second]);
    expect(reader.unicodeString()).toBe("abcΔ");
    // The next string's header starts straight after, with no option byte of its own segment.
    expect(reader.unicodeString()).toBe("z");
    expect(reader.atEnd).toBe(true);
  });

  it("skips rich-text runs and phonetic data, even when they cross into the next segment", () => {
    // cch 2, flags rich (0x08) + ext (0x04): 1 run, 3 bytes of phonetic data.
    const first = Uint8Array.from([0x02, 0x00, 0x0c, 0x01, 0x00, 0x03, 0x00, 0x00, 0x00, 0x68, 0x69, 0, 0]);
    const second = Uint8Array.from([0, 0, 1, 2, 3, 0x01, 0x00, 0x00, 0x21]);
    const reader = new BiffReader([first, second]);
    expect(reader.unicodeString()).toBe("hi");
    expect(reader.unicodeString()).toBe("!");
  });

  it("refuses a string longer than its record", () => {
    const reader = new BiffReader([Uint8Array.from([0x10, 0x00, 0x00, 0x61])]);
    expect(() => reader.unicodeString()).toThrow(BiffFormatError);
  });
});
