/** Links in text quoted from documents are defanged for every chat client (issue #22). */
import { describe, expect, it } from "vitest";
import { defangUrls, findLinkShapes, literalMarkdown } from "../../src/answer/citations/literal-links.js";

describe("defangUrls", () => {
  it.each([
    ["https://evil.example/login", "hxxps://evil[.]example/login"],
    ["See http://10.0.0.1:8080/admin.", "See hxxp://10[.]0[.]0[.]1:8080/admin."],
    ["Go to evil.com/login now.", "Go to evil[.]com/login now."],
    ["Visit www.foo.bar/baz, then stop.", "Visit www[.]foo[.]bar/baz, then stop."],
    ["Mail admin@corp.com or mailto:x@y.org", "Mail admin@corp[.]com or mailto[:]x@y[.]org"],
    ["“https://evil.example/a”", "“hxxps://evil[.]example/a”"],
    ["ftp://files.example.org:21/a", "fxp://files[.]example[.]org:21/a"],
  ])("%s → %s", (text, expected) => {
    expect(defangUrls(text)).toBe(expected);
  });

  it("leaves prose with dots alone: decimals, abbreviations, versions, document file names", () => {
    const prose =
      "Revenue rose 3.5 percent in U.S. dollars, e.g. in v1.2.3 at 10:30 a.m., No.5 of 1,577.25, in report.pdf and Node.js.";
    expect(defangUrls(prose)).toBe(prose);
  });

  // Issue #30: found by shape, not by a list of top-level domains.
  it.each([
    ["evil.ca/login", "evil[.]ca/login"],
    ["Download evil.zip today.", "Download evil[.]zip today."],
    ["//evil.ca/login", "//evil[.]ca/login"],
    ["http:1.2.3.4/login", "hxxp:1[.]2[.]3[.]4/login"],
    ["See https:evil.ca/login.", "See hxxps:evil[.]ca/login."],
    ["evil\u200b.com/x", "evil[.]com/x"],
    ["evil。com and evil．com", "evil[.]com and evil[.]com"],
    ["ｅｖｉｌ．ｃｏｍ", "ｅｖｉｌ[.]ｃｏｍ"],
    ["http://localhost:3000/admin", "hxxp://localhost:3000/admin"],
    ["javascript:alert(1)", "javascript[:]alert(1)"],
    ["slack://open?team=T1", "slack[:]//open?team=T1"],
    ["evil.com:8080/x", "evil[.]com:8080/x"],
    ["README.md, run.py and evil.com.pdf", "README[.]md, run[.]py and evil[.]com.pdf"],
  ])("%s → %s", (text, expected) => {
    expect(defangUrls(text)).toBe(expected);
  });
});

describe("findLinkShapes", () => {
  it("finds what a client could link, trailing punctuation left out, and no decimals or versions", () => {
    expect(
      findLinkShapes("Go to evil.ca/login, or https:evil.example, not v1.2 or 3.5; see //x.org.").map(
        (link) => link.text,
      ),
    ).toEqual(["evil.ca/login", "https:evil.example", "x.org"]);
  });
});

describe("literalMarkdown", () => {
  it("ends link syntax and autolinks, and keeps [n] markers", () => {
    expect(literalMarkdown("Fees rose [2]. [Pay here](https://evil.example/pay) or <https://evil.example>.")).toBe(
      "Fees rose [2]. [Pay here]\\(hxxps://evil[.]example/pay) or \\<hxxps://evil[.]example\\>.",
    );
  });

  it("ends a Markdown reference definition, so [text][r] links nowhere", () => {
    expect(literalMarkdown("Read [the form][r] first [1].\n[r]: https:evil.ca/login")).toBe(
      "Read [the form][r] first [1].\n[r]\\: hxxps:evil[.]ca/login",
    );
  });
});
