/**
 * A small YAML reader for the deployment-file tests, so they need no YAML dependency: block mappings and
 * sequences by indentation, `- key: value` items, flow sequences (`[a, "b c"]`), plain, single- and
 * double-quoted scalars, and comments. Scalars stay strings (compose treats most of them as strings too).
 * Anything outside that subset (anchors, tags, flow mappings, block scalars, multi-line flow) throws,
 * naming the line, so a test never passes on a misread file.
 */

export type YamlValue = string | YamlValue[] | { [key: string]: YamlValue } | null;
export type YamlMapping = { [key: string]: YamlValue };

type Line = { number: number; indent: number; text: string };

export function parseYamlSubset(source: string): YamlValue {
  const lines = meaningfulLines(source);
  if (lines.length === 0) return null;
  const cursor = { index: 0 };
  const value = parseBlock(lines, cursor, lines[0]!.indent);
  if (cursor.index < lines.length) {
    const line = lines[cursor.index]!;
    throw new Error(`line ${line.number}: unexpected indentation in "${line.text}"`);
  }
  return value;
}

function meaningfulLines(source: string): Line[] {
  const lines: Line[] = [];
  source.split(/\r?\n/).forEach((raw, position) => {
    if (raw.includes("\t")) throw new Error(`line ${position + 1}: tabs are not allowed in YAML indentation`);
    const text = stripComment(raw).trimEnd();
    if (text.trim() === "" || text.trim() === "---") return;
    lines.push({ number: position + 1, indent: text.length - text.trimStart().length, text: text.trim() });
  });
  return lines;
}

/** Drops a `#` comment that starts the line or follows a space, outside quotes. */
function stripComment(line: string): string {
  let quote: string | null = null;
  for (let index = 0; index < line.length; index++) {
    const character = line[index];
    if (quote) {
      if (character === "\\" && quote === '"') index++;
      else if (character === quote) quote = null;
    } else if (character === '"' || character === "'") {
      const previous = index === 0 ? " " : line[index - 1];
      if (previous === " " || previous === "[" || previous === "," || previous === ":" || previous === "-") {
        quote = character;
      }
    } else if (character === "#" && (index === 0 || line[index - 1] === " ")) {
      return line.slice(0, index);
    }
  }
  return line;
}

function parseBlock(lines: Line[], cursor: { index: number }, indent: number): YamlValue {
  const first = lines[cursor.index]!;
  return isSequenceItem(first.text) ? parseSequence(lines, cursor, indent) : parseMapping(lines, cursor, indent);
}

function isSequenceItem(text: string): boolean {
  return text === "-" || text.startsWith("- ");
}

function parseSequence(lines: Line[], cursor: { index: number }, indent: number): YamlValue[] {
  const items: YamlValue[] = [];
  while (cursor.index < lines.length) {
    const line = lines[cursor.index]!;
    if (line.indent < indent || !isSequenceItem(line.text)) break;
    if (line.indent > indent) throw new Error(`line ${line.number}: unexpected indentation in "${line.text}"`);
    const rest = line.text.slice(1).trimStart();
    if (rest === "") {
      cursor.index++;
      items.push(childBlock(lines, cursor, indent));
    } else if (mappingEntry(rest)) {
      // "- key: value" starts a mapping whose keys sit where "key" sits.
      const itemIndent = indent + (line.text.length - rest.length);
      lines[cursor.index] = { number: line.number, indent: itemIndent, text: rest };
      items.push(parseMapping(lines, cursor, itemIndent));
    } else {
      cursor.index++;
      items.push(parseScalarOrFlow(rest, line.number));
    }
  }
  return items;
}

function parseMapping(lines: Line[], cursor: { index: number }, indent: number): YamlMapping {
  const mapping: YamlMapping = {};
  while (cursor.index < lines.length) {
    const line = lines[cursor.index]!;
    if (line.indent < indent) break;
    if (line.indent > indent) throw new Error(`line ${line.number}: unexpected indentation in "${line.text}"`);
    const entry = mappingEntry(line.text);
    if (!entry) {
      if (isSequenceItem(line.text)) break;
      throw new Error(`line ${line.number}: expected "key: value", found "${line.text}"`);
    }
    if (Object.hasOwn(mapping, entry.key)) throw new Error(`line ${line.number}: duplicate key "${entry.key}"`);
    cursor.index++;
    if (entry.value !== "") {
      mapping[entry.key] = parseScalarOrFlow(entry.value, line.number);
      continue;
    }
    const next = lines[cursor.index];
    // A sequence may sit at the key's own indentation ("key:\n- a").
    if (next && (next.indent > indent || (next.indent === indent && isSequenceItem(next.text)))) {
      mapping[entry.key] = parseBlock(lines, cursor, next.indent);
    } else {
      mapping[entry.key] = null;
    }
  }
  return mapping;
}

function childBlock(lines: Line[], cursor: { index: number }, parentIndent: number): YamlValue {
  const next = lines[cursor.index];
  if (!next || next.indent <= parentIndent) return null;
  return parseBlock(lines, cursor, next.indent);
}

/** `key: value` or `key:`; the key may be quoted. Null when the text is not a mapping entry. */
function mappingEntry(text: string): { key: string; value: string } | null {
  const quoted = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*')\s*:(?:\s+(.*))?$/.exec(text);
  if (quoted) return { key: parseQuoted(quoted[1]!, 0), value: (quoted[2] ?? "").trim() };
  const plain = /^([^\s"'[\]{},#&*!|>%@`-][^:]*?|-[^\s:][^:]*?)\s*:(?:\s+(.*))?$/.exec(text);
  if (!plain) return null;
  return { key: plain[1]!, value: (plain[2] ?? "").trim() };
}

function parseScalarOrFlow(text: string, lineNumber: number): YamlValue {
  if (text.startsWith("[")) return parseFlowSequence(text, lineNumber);
  return parseScalar(text, lineNumber);
}

function parseScalar(text: string, lineNumber: number): string | null {
  if (text.startsWith('"') || text.startsWith("'")) return parseQuoted(text, lineNumber);
  if (/^[&*!|>{%@`]/.test(text)) {
    throw new Error(`line ${lineNumber}: "${text}" uses YAML syntax this reader does not support`);
  }
  if (text === "~" || text === "null") return null;
  return text;
}

function parseQuoted(text: string, lineNumber: number): string {
  const quote = text[0];
  if (quote === "'") {
    if (!/^'(?:[^']|'')*'$/.test(text)) throw new Error(`line ${lineNumber}: unterminated string ${text}`);
    return text.slice(1, -1).replaceAll("''", "'");
  }
  if (!/^"(?:[^"\\]|\\.)*"$/.test(text)) throw new Error(`line ${lineNumber}: unterminated string ${text}`);
  const escapes: Record<string, string> = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\", "/": "/", "0": "\0" };
  return text.slice(1, -1).replace(/\\(.)/g, (_, character: string) => {
    const replacement = escapes[character];
    if (replacement === undefined) throw new Error(`line ${lineNumber}: unsupported escape \\${character}`);
    return replacement;
  });
}

function parseFlowSequence(text: string, lineNumber: number): YamlValue[] {
  if (!text.endsWith("]")) throw new Error(`line ${lineNumber}: a flow sequence must close on its line: ${text}`);
  const inner = text.slice(1, -1).trim();
  if (inner === "") return [];
  const items: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (let index = 0; index < inner.length; index++) {
    const character = inner[index]!;
    if (quote) {
      current += character;
      if (character === "\\" && quote === '"') current += inner[++index] ?? "";
      else if (character === quote) quote = null;
    } else if (character === '"' || character === "'") {
      quote = character;
      current += character;
    } else if (character === "[" || character === "{") {
      throw new Error(`line ${lineNumber}: nested flow collections are not supported: ${text}`);
    } else if (character === ",") {
      items.push(current.trim());
      current = "";
    } else {
      current += character;
    }
  }
  items.push(current.trim());
  return items.map((item) => parseScalar(item, lineNumber));
}
