/**
 * The candidate answers of a prose passage: each sentence, and one that opens by pointing back with the
 * sentence before it ("… at least one year in grade. This is called the time-in-grade requirement."); a
 * sentence that introduces a list ("The
 * medical note should include:") with its items; each list item with the items nested under it; and the
 * opening sentences of a section (what a heading's term is); in a table passage, each row with its cells
 * named by their columns ("Level 5: 3.85%"). Each window carries its context — the passage's heading path,
 * the line that introduces its list, a table's title — which a reader weighs with it but does not quote.
 * Figures and calculations from tables are the table readers' (tables/); a row here is quoted as it is.
 */
import type { NumberedSource } from "../generate/generator.js";
import { type PassageUnit, passageUnits, plainUnitText } from "./passage-units.js";
import { tableRows } from "./sentence-scoring.js";

export type AnswerWindow = {
  source: NumberedSource;
  kind: "sentence" | "pair" | "list" | "item" | "section" | "row";
  /** What would be quoted, in order. */
  units: PassageUnit[];
  /** Headings and the list's introducing line: read with the window, never quoted as its answer. */
  context: string;
  /** The quoted units as one line of plain text (links as their text, no emphasis marks). */
  text: string;
  /** An item's list introduction ("When ordering services under $10,000:"), shown above it when quoted. */
  introduction?: string;
};

/** A sentence that opens by pointing back ("This is called …", "These include …") needs the one before it. */
const POINTS_BACK = /^(?:this|these|that|those|it|they|such|the\s+latter|the\s+former|he|she)\b/i;
/** A list window quotes this many items at most. */
const MAX_LIST_ITEMS = 12;
/** A section's opening: the sentences after its heading. */
const SECTION_OPENING_SENTENCES = 3;

function windowOf(
  source: NumberedSource,
  kind: AnswerWindow["kind"],
  units: PassageUnit[],
  context: string[],
): AnswerWindow {
  return {
    source,
    kind,
    units,
    context: context.filter((part) => part !== "").join(" › "),
    text: units.map((unit) => plainUnitText(unit.text)).join(kind === "list" || kind === "item" ? "; " : " "),
  };
}

/** The items of the list that starts at `from` (one block), nested ones included. */
function listItems(units: PassageUnit[], from: number): PassageUnit[] {
  const first = units[from];
  if (first?.kind !== "item") return [];
  const items: PassageUnit[] = [];
  for (let index = from; index < units.length; index += 1) {
    const unit = units[index] as PassageUnit;
    if (unit.kind !== "item" || unit.block !== first.block) break;
    items.push(unit);
  }
  return items;
}

/** An item with the items nested under it. */
function itemWithChildren(items: PassageUnit[], index: number): PassageUnit[] {
  const item = items[index] as PassageUnit;
  const children: PassageUnit[] = [];
  for (let next = index + 1; next < items.length && (items[next] as PassageUnit).depth > item.depth; next += 1)
    children.push(items[next] as PassageUnit);
  return [item, ...children];
}

/** A table passage's rows, each a window under the table's heading and the lines above its rows. */
function rowWindows(source: NumberedSource, rows: NonNullable<ReturnType<typeof tableRows>>): AnswerWindow[] {
  const headingPath = source.result.provenance.headingPath ?? [];
  const caption = plainUnitText(source.result.text.slice(0, rows[0]?.start ?? 0)).slice(0, 200);
  return rows.map((row) => ({
    source,
    kind: "row" as const,
    units: [{ kind: "item" as const, text: row.text, start: row.start, end: row.end, depth: 0, block: 0 }],
    context: [...headingPath, caption].filter((part) => part !== "").join(" › "),
    text: plainUnitText(row.text),
  }));
}

/** Every candidate window of one numbered source. */
export function answerWindows(source: NumberedSource): AnswerWindow[] {
  const rows = tableRows(source.result);
  if (rows !== null) return rowWindows(source, rows);
  const headingPath = source.result.provenance.headingPath ?? [];
  const units = passageUnits(source.result.text, headingPath);
  const windows: AnswerWindow[] = [];
  // The innermost heading in force: the passage's own path, then any heading line inside it.
  let heading = headingPath.at(-1) ?? "";
  const sectionPath = () => [...headingPath.slice(0, -1), heading].filter((part) => part !== "");
  let sectionSentences: PassageUnit[] = [];
  let afterHeading = false;
  for (let index = 0; index < units.length; index += 1) {
    const unit = units[index] as PassageUnit;
    if (unit.kind === "heading") {
      heading = plainUnitText(unit.text);
      sectionSentences = [];
      afterHeading = true;
      continue;
    }
    if (unit.kind === "sentence") {
      windows.push(windowOf(source, "sentence", [unit], sectionPath()));
      const previous = units[index - 1];
      if (previous?.kind === "sentence" && previous.block === unit.block && POINTS_BACK.test(plainUnitText(unit.text)))
        windows.push(windowOf(source, "pair", [previous, unit], sectionPath()));
      if (afterHeading && sectionSentences.length < SECTION_OPENING_SENTENCES) {
        sectionSentences.push(unit);
        if (sectionSentences.length >= 2)
          windows.push(windowOf(source, "section", [...sectionSentences], sectionPath()));
      }
      const items = listItems(units, index + 1);
      if (items.length >= 2 && /:\s*$/.test(unit.text))
        windows.push(windowOf(source, "list", [unit, ...items.slice(0, MAX_LIST_ITEMS)], sectionPath()));
      continue;
    }
    // The first item of a list: the list as a whole under its heading, then each item.
    const previous = units[index - 1];
    if (previous === undefined || previous.kind !== "item" || previous.block !== unit.block) {
      afterHeading = false;
      const items = listItems(units, index);
      const introduction =
        previous?.kind === "sentence" && /:\s*$/.test(previous.text) ? plainUnitText(previous.text) : "";
      if (items.length >= 2 && introduction === "")
        windows.push(windowOf(source, "list", items.slice(0, MAX_LIST_ITEMS), sectionPath()));
      for (let itemIndex = 0; itemIndex < items.length; itemIndex += 1) {
        const item = windowOf(source, "item", itemWithChildren(items, itemIndex), [...sectionPath(), introduction]);
        windows.push(introduction === "" ? item : { ...item, introduction });
      }
    }
  }
  return windows;
}
