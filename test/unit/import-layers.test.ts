import { describe, expect, it } from "vitest";
import { findUpwardImports } from "../../scripts/count-upward-imports.js";
import { findImportCycles } from "../../scripts/find-import-cycles.js";
import { listModules, readImportEdges } from "../../scripts/import-graph.js";

const root = new URL("../..", import.meta.url).pathname;

describe("imports between Folio's modules", () => {
  it("form no cycle, type-only imports included", () => {
    expect(findImportCycles(listModules(root), readImportEdges(root))).toEqual([]);
  });

  it("finds a cycle when there is one", () => {
    const edge = (from: string, to: string) => ({ from, to, typeOnly: false });
    const modules = ["a.ts", "b.ts", "c.ts", "d.ts"];
    expect(findImportCycles(modules, [edge("a.ts", "b.ts"), edge("b.ts", "c.ts"), edge("c.ts", "a.ts")])).toEqual([
      ["a.ts", "b.ts", "c.ts"],
    ]);
    expect(findImportCycles(modules, [edge("a.ts", "b.ts"), edge("d.ts", "d.ts")])).toEqual([["d.ts"]]);
  });

  it("run upward only where the answer library reads completed questionnaires (scripts/count-upward-imports.ts)", () => {
    const upward = findUpwardImports(root).map((entry) => `${entry.from} -> ${entry.to}`);
    expect(upward).toEqual([
      // The answer library reads completed questionnaires with the questionnaire reader and its worker
      // (src/questionnaire/read/, questionnaire-worker-pool.ts), which also writes filled copies.
      "src/answer-library/read-question-answer-pairs.ts -> src/questionnaire/questionnaire.ts",
      "src/answer-library/read-question-answer-pairs.ts -> src/questionnaire/questionnaire-worker-pool.ts",
    ]);
  });

  it("let a reader import evidence tools and compose tools, never another reader (src/answer/README.md)", () => {
    const readers = (path: string) => /^src\/answer\/readers\/[\w-]+-reader\.ts$/.test(path);
    const betweenReaders = readImportEdges(root)
      .filter((edge) => readers(edge.from) && readers(edge.to))
      .map((edge) => `${edge.from} -> ${edge.to}`);
    expect(betweenReaders).toEqual([]);
    // The test would see an import between readers if there were one.
    expect(
      readImportEdges(root).some((edge) => edge.from === "src/answer/readers/choose-answer.ts" && readers(edge.to)),
    ).toBe(true);
  });
});
