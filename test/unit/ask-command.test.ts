/**
 * `folio ask` printed for a person (issue #41): every source is listed with its page or section and the
 * quote it is cited for, the quote printed even when the answer quotes it too.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Answer } from "../../src/answer/answer-events.js";
import type { CliOptions } from "../../src/cli/cli-options.js";
import type { CommandBackend } from "../../src/cli/command-backend.js";
import { runAskCommand } from "../../src/cli/commands/ask-command.js";

const options: CliOptions = {
  space: "handbook",
  spaceGiven: true,
  json: false,
  k: 10,
  mode: "default",
  dataset: undefined,
  docs: undefined,
  split: "test",
  store: undefined,
  runOut: undefined,
  generator: undefined,
  limit: undefined,
  keepBoth: false,
};

const ANSWER: Answer = {
  requestId: "r1",
  answer: "“You can carry over a maximum of 240 annual leave hours.” [1]\nFitness programs are covered [2].",
  noContext: false,
  citations: [
    {
      n: 1,
      documentId: "d1",
      title: "Leave types",
      file: "leave-types.md",
      pageStart: null,
      pageEnd: null,
      section: ["Leave types", "Types of leave", "Annual leave"],
      quote: "You can carry over a maximum of 240 annual leave hours.",
      url: "http://127.0.0.1:3000/files/d1?exp=1&sig=ab#section=leave-types/types-of-leave/annual-leave",
      quotedInAnswer: true,
    },
    {
      n: 2,
      documentId: "d2",
      title: "PerksPlus Health and Wellness",
      file: "perksplus.pdf",
      pageStart: 3,
      pageEnd: 4,
      quote: "Employees may expense up to $1000 for fitness-related programs.",
      url: "http://127.0.0.1:3000/files/d2?exp=1&sig=ab#page=3",
    },
  ],
  timingsMs: {},
};

const backend: CommandBackend = {
  ingestFile: async () => {
    throw new Error("not used");
  },
  finishIngest: async () => {},
  search: async () => [],
  answerQuestion: async function* () {
    yield { type: "done", answer: ANSWER };
  },
};

afterEach(() => vi.restoreAllMocks());

describe("folio ask, printed", () => {
  it("lists every source with its section or pages and its quote, also a quote the answer already shows", async () => {
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    await runAskCommand(backend, ["How", "much", "leave", "carries", "over?"], options);
    const printed = stdout.mock.calls.map(([text]) => String(text)).join("");
    expect(printed).toBe(
      [
        ANSWER.answer,
        "",
        "Sources:",
        "[1] Leave types (leave-types.md) — Leave types › Types of leave › Annual leave",
        '    "You can carry over a maximum of 240 annual leave hours."',
        `    ${ANSWER.citations[0]?.url}`,
        "[2] PerksPlus Health and Wellness (perksplus.pdf) — pp. 3–4",
        '    "Employees may expense up to $1000 for fitness-related programs."',
        `    ${ANSWER.citations[1]?.url}`,
        "",
      ].join("\n"),
    );
  });
});
