/**
 * Row labels of a table set without rules, put back together where the layout broke them: a label
 * too long for its column wraps onto more lines, its figures on the last line (set flush to the
 * bottom), on the first (flush to the top) or between them (centred); a section label ("Current
 * assets:") stands on a line of its own above the rows it groups and stays a row without values.
 * Lines closer together than the table's rows are lines of one cell; where wrapped lines and rows are
 * set equally close (most statements), a line continues a label when it starts in lower case or the
 * line before ends mid-phrase ("… net of", "…,").
 */

export type BodyLine = {
  label: string;
  values: string[];
  /** Baseline and type size of the line. */
  y: number;
  size: number;
};

export type BodyRow = { label: string; values: string[]; y: number };

/** Words a label does not end on unless it goes on: "Purchases of", "Cash paid for amounts included in the". */
const ENDS_MID_PHRASE =
  /(?:\b(?:and|or|of|to|for|in|on|by|from|with|the|a|an|at|as|less|including|excluding|plus|into|under|per|than|after|before|between|other)|[,&/(–-])$/i;

/** Lines closer than this share of the table's row pitch are lines of one cell. */
const sameCellShare = 0.75;
/** Lines further apart than this many type sizes are never one label. */
const maximumWrapGap = 1.6;

function hasValues(line: { values: string[] }): boolean {
  return line.values.some((value) => value !== "");
}

/** Whether `below` reads on from `above` as one label. */
function continuesLabel(above: string, below: string): boolean {
  if (above === "" || below === "" || /:$/.test(above)) return false;
  return /^[\p{Ll}(]/u.test(below) || ENDS_MID_PHRASE.test(above);
}

function joinText(first: string, second: string): string {
  if (first === "") return second;
  if (second === "") return first;
  return `${first} ${second}`;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? null;
}

/** How far apart the table's rows of figures usually stand. */
function rowPitch(lines: readonly BodyLine[]): number {
  const gaps: number[] = [];
  let previous: BodyLine | null = null;
  for (const line of lines) {
    if (!hasValues(line)) continue;
    if (previous !== null) gaps.push(previous.y - line.y);
    previous = line;
  }
  return median(gaps) ?? (lines[0]?.size ?? 10) * 1.2;
}

type Group = { label: string; values: string[]; top: number; bottom: number; size: number };

/** Rows set at least this many type sizes apart are "tall": a wrapped label's lines stand closer than rows. */
const tallRowPitch = 1.8;

function lineGroup(line: BodyLine): Group {
  return { label: line.label, values: [...line.values], top: line.y, bottom: line.y, size: line.size };
}

/**
 * Lines of one cell taken together where rows are tall: each label line goes with the nearest line of
 * figures within half a row (a label wrapped around figures centred on it); label lines near no
 * figures, set closer than rows, are one section label.
 */
function groupTallRows(lines: readonly BodyLine[], pitch: number): Group[] {
  const owner = lines.map((line, index) => {
    if (hasValues(line)) return index;
    let nearest = -1;
    let nearestDistance = pitch * 0.5;
    lines.forEach((other, otherIndex) => {
      const distance = Math.abs(other.y - line.y);
      if (hasValues(other) && distance < nearestDistance) {
        nearest = otherIndex;
        nearestDistance = distance;
      }
    });
    return nearest;
  });
  const groups: Group[] = [];
  const byOwner = new Map<number, Group>();
  let previous: { line: BodyLine; group: Group } | null = null;
  lines.forEach((line, index) => {
    const ownerIndex = owner[index] ?? -1;
    let group = ownerIndex >= 0 ? byOwner.get(ownerIndex) : undefined;
    if (group === undefined && ownerIndex < 0 && previous !== null && !hasValues(previous.group)) {
      // A section label wrapped over lines closer than rows.
      if (previous.line.y - line.y < pitch * sameCellShare) group = previous.group;
    }
    if (group === undefined) {
      group = lineGroup(line);
      groups.push(group);
      if (ownerIndex >= 0) byOwner.set(ownerIndex, group);
    } else {
      group.label = joinText(group.label, line.label);
      group.bottom = line.y;
    }
    if (hasValues(line)) group.values = [...line.values];
    previous = { line, group };
  });
  return groups;
}

function close(above: Group, below: Group): boolean {
  return above.bottom - below.top <= Math.max(above.size, below.size) * maximumWrapGap;
}

/**
 * The table's rows with their labels whole. Lines are top to bottom; a line with values is a row, a
 * line without values either goes on a neighbouring row's label or stays a section row.
 */
export function mergeWrappedLabels(lines: readonly BodyLine[]): BodyRow[] {
  const pitch = rowPitch(lines);
  const size = lines[0]?.size ?? 10;
  const groups = pitch >= size * tallRowPitch ? groupTallRows(lines, pitch) : lines.map(lineGroup);
  const used = new Set<number>();
  // Figures on the last line: the lines above that lead into this label.
  groups.forEach((group, index) => {
    if (!hasValues(group)) return;
    for (let head = index - 1; head >= 0; head -= 1) {
      const previous = groups[head] as Group;
      const next = groups[head + 1] as Group;
      if (hasValues(previous) || used.has(head) || !close(previous, next)) break;
      if (!continuesLabel(previous.label, head + 1 === index ? group.label : next.label)) break;
      group.label = joinText(previous.label, group.label);
      used.add(head);
    }
  });
  // Figures on the first line: lines below in lower case end the label.
  groups.forEach((group, index) => {
    if (!hasValues(group) || used.has(index)) return;
    for (let tail = index + 1; tail < groups.length; tail += 1) {
      const next = groups[tail] as Group;
      if (hasValues(next) || used.has(tail) || !close(groups[tail - 1] as Group, next)) break;
      if (!/^[\p{Ll}(]/u.test(next.label) && !ENDS_MID_PHRASE.test(group.label)) break;
      group.label = joinText(group.label, next.label);
      used.add(tail);
    }
  });
  // Section labels that wrapped: lines without values that read on from each other are one.
  const rows: BodyRow[] = [];
  let previousGroup: Group | null = null;
  groups.forEach((group, index) => {
    if (used.has(index)) return;
    const previous = rows.at(-1);
    if (
      !hasValues(group) &&
      previous !== undefined &&
      previousGroup !== null &&
      !hasValues(previous) &&
      close(previousGroup, group) &&
      continuesLabel(previous.label, group.label)
    ) {
      previous.label = joinText(previous.label, group.label);
    } else {
      rows.push({ label: group.label, values: [...group.values], y: group.top });
    }
    previousGroup = group;
  });
  return rows;
}
