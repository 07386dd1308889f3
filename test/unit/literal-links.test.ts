/** Links in text quoted from documents are defanged for every chat client (issue #22). */
import { describe, expect, it } from "vitest";
import { defangUrls, literalMarkdown } from "../../src/answer/literal-links.js";

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

  it("leaves prose with dots alone", () => {
    const prose = "Revenue rose 3.5 percent in U.S. dollars, e.g. in v1.2.3 of report.pdf and Node.js.";
    expect(defangUrls(prose)).toBe(prose);
  });
});

describe("literalMarkdown", () => {
  it("ends link syntax and autolinks, and keeps [n] markers", () => {
    expect(literalMarkdown("Fees rose [2]. [Pay here](https://evil.example/pay) or <https://evil.example>.")).toBe(
      "Fees rose [2]. [Pay here]\\(hxxps://evil[.]example/pay) or \\<hxxps://evil[.]example\\>.",
    );
  });
});
