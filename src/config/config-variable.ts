/**
 * The kinds of environment variable Folio reads. Each is a valibot schema for the value as written (trimmed,
 * never empty: an empty variable counts as unset) together with what a person needs to know about it —
 * what it accepts, its default and what it is for — so that the check, the error message and the table in
 * docs/configuration.md all come from one declaration (config-variables.ts).
 */
import { isIP } from "node:net";
import * as v from "valibot";
import { type HubFileReference, isHubReference, parseHubFileReference } from "../models/hub-file-reference.js";

export type ConfigVariable<Value> = {
  /** Parses the value as set; the message of its first issue is the problem reported for the variable. */
  schema: v.GenericSchema<string, Value>;
  /** The value when the variable is unset (or set to nothing but spaces). */
  default: Value;
  /** What it accepts, in the words the error uses: "a whole number from 0 to 65535". */
  accepts: string;
  /** The default as docs/configuration.md shows it. */
  shownDefault: string;
  /** What the variable is for, as docs/configuration.md says it. */
  help: string;
  /** Read only when this other variable is set; unset, this one is neither read nor checked. */
  onlyWith?: string;
};

/** What every declaration says besides its kind's own settings. */
export type Described = { help: string; shownDefault?: string; onlyWith?: string };

type Declared<Value> = Described & { schema: v.GenericSchema<string, Value>; default: Value; accepts: string };

function declare<Value>(declared: Declared<Value>): ConfigVariable<Value> {
  return {
    schema: declared.schema,
    default: declared.default,
    accepts: declared.accepts,
    shownDefault: declared.shownDefault ?? showValue(declared.default),
    help: declared.help,
    ...(declared.onlyWith ? { onlyWith: declared.onlyWith } : {}),
  };
}

function showValue(value: unknown): string {
  if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) return "—";
  if (typeof value === "boolean") return value ? "`1`" : "`0`";
  return `\`${String(value)}\``;
}

/** `"eighty" must be …`: the value as written, then what would have been accepted. */
const mustBe = (accepts: string) => (issue: { input?: unknown }) => `"${String(issue.input)}" must be ${accepts}`;

/** Free text (a name, a key, a path); the default is null unless given. */
export function text(options: Described & { default?: string; accepts?: string }): ConfigVariable<string | null> {
  return declare<string | null>({
    ...options,
    schema: v.string(),
    default: options.default ?? null,
    accepts: options.accepts ?? "text",
  });
}

/** Free text that must start as the platform's tokens do; the value itself never appears in the error. */
export function token(options: Described & { prefix: string; kind: string }): ConfigVariable<string | null> {
  const accepts = `${options.kind} starting with ${options.prefix}`;
  return declare<string | null>({
    ...options,
    schema: v.pipe(v.string(), v.startsWith(options.prefix, `must be ${accepts}`)),
    default: null,
    accepts,
  });
}

/** A secret of a least length; the value itself never appears in the error. */
export function secret(options: Described & { minLength: number; hint: string }): ConfigVariable<string | null> {
  const accepts = `at least ${options.minLength} characters`;
  return declare<string | null>({
    ...options,
    schema: v.pipe(v.string(), v.minLength(options.minLength, `must be ${accepts} ${options.hint}`)),
    default: null,
    accepts,
  });
}

/** Text of a given shape (a collection name, say). */
export function pattern(
  options: Described & { pattern: RegExp; accepts: string; default: string },
): ConfigVariable<string> {
  return declare<string>({ ...options, schema: v.pipe(v.string(), v.regex(options.pattern, mustBe(options.accepts))) });
}

/** A URL with one of the given protocols ("http:"), any trailing slashes dropped. */
export function url(options: Described & { protocols: readonly string[] }): ConfigVariable<string | null> {
  const schemes = options.protocols.map((protocol) => `${protocol}//`).join(" or ");
  return declare<string | null>({
    ...options,
    schema: v.pipe(
      v.string(),
      v.check(
        (value) => URL.canParse(value),
        (issue) => `"${String(issue.input)}" is not a valid URL (example: ${options.protocols[0]}//host:port)`,
      ),
      v.check(
        (value) => options.protocols.includes(new URL(value).protocol),
        (issue) => `"${String(issue.input)}" must start with ${schemes}`,
      ),
      v.transform((value) => value.replace(/\/+$/, "")),
    ),
    default: null,
    accepts: `a URL starting with ${schemes}`,
  });
}

/** A whole number in a range; `default: null` for a setting whose absence means something of its own. */
export function integer<Default extends number | null>(
  options: Described & { min: number; max: number; default: Default },
): ConfigVariable<number | Default> {
  const accepts = `a whole number from ${options.min} to ${options.max}`;
  const inRange = (value: string) => {
    const parsed = Number(value);
    return Number.isInteger(parsed) && parsed >= options.min && parsed <= options.max;
  };
  return declare<number | Default>({
    ...options,
    schema: v.pipe(v.string(), v.check(inRange, mustBe(accepts)), v.transform(Number)),
    accepts,
  });
}

/** Any number in a range. */
export function decimal(options: Described & { min: number; max: number; default: number }): ConfigVariable<number> {
  const accepts = `a number from ${options.min} to ${options.max}`;
  const inRange = (value: string) => {
    const parsed = Number(value);
    return Number.isFinite(parsed) && parsed >= options.min && parsed <= options.max;
  };
  return declare<number>({
    ...options,
    schema: v.pipe(v.string(), v.check(inRange, mustBe(accepts)), v.transform(Number)),
    accepts,
  });
}

/** One of a few words, exactly as written; `default: null` when unset means "decide from the rest". */
export function oneOf<const Value extends string, Default extends Value | null>(
  options: Described & { values: readonly Value[]; default: Default },
): ConfigVariable<Value | Default> {
  const accepts = `one of ${options.values.join(", ")}`;
  const words = v.pipe(v.string(), v.picklist(options.values, mustBe(accepts)));
  return declare<Value | Default>({ ...options, schema: words as v.GenericSchema<string, Value>, accepts });
}

const FLAG_WORDS = new Map<string, boolean>([
  ...["1", "true", "yes", "on"].map((word) => [word, true] as const),
  ...["0", "false", "no", "off"].map((word) => [word, false] as const),
]);

/** On or off: 1/0, true/false, yes/no, on/off, in any case. */
export function flag(options: Described & { default: boolean }): ConfigVariable<boolean> {
  const accepts = "1 or 0 (true/false, yes/no)";
  return declare<boolean>({
    ...options,
    schema: v.pipe(
      v.string(),
      v.check((value) => FLAG_WORDS.has(value.toLowerCase()), mustBe(accepts)),
      v.transform((value) => FLAG_WORDS.get(value.toLowerCase()) === true),
    ),
    accepts,
  });
}

/** A comma-separated list of ids, spaces around each trimmed and empty entries dropped. */
export function list(options: Described): ConfigVariable<string[]> {
  return declare<string[]>({
    ...options,
    schema: v.pipe(v.string(), v.transform(splitList)),
    default: [],
    accepts: "names, comma-separated",
  });
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** An address to listen on: an IP address (`0.0.0.0`, `::`, an interface's) or a host name; unset by default. */
export function listenAddress(options: Described): ConfigVariable<string | null> {
  const accepts = "an IP address or a host name (0.0.0.0 for every interface)";
  return declare<string | null>({
    ...options,
    schema: v.pipe(
      v.string(),
      v.check((value) => isIP(value) !== 0 || HOST_NAME.test(value.toLowerCase()), mustBe(accepts)),
    ),
    default: null,
    accepts,
  });
}

/** A comma-separated list of host names (no scheme, port or path), lower-cased. */
export function hostList(options: Described & { example: string }): ConfigVariable<string[]> {
  const accepts = `host names only, comma-separated (example: ${options.example})`;
  return declare<string[]>({
    ...options,
    schema: v.pipe(
      v.string(),
      v.transform((value) => splitList(value.toLowerCase())),
      v.check(
        (hosts) => hosts.every((host) => HOST_NAME.test(host)),
        (issue) => {
          const bad = issue.input.filter((host) => !HOST_NAME.test(host));
          return `${bad.map((host) => `"${host}"`).join(", ")} must be ${accepts}`;
        },
      ),
    ),
    default: [],
    accepts,
  });
}

/** A model file: a path, or a hub reference (hf:owner/repo/file.gguf) checked as one. */
export type ModelFileSetting = { text: string; hubFile: HubFileReference | null };

export function modelFile(options: Described): ConfigVariable<ModelFileSetting | null> {
  return declare<ModelFileSetting | null>({
    ...options,
    schema: v.pipe(
      v.string(),
      v.rawTransform(({ dataset, addIssue, NEVER }) => {
        const value = dataset.value;
        if (!isHubReference(value)) return { text: value, hubFile: null };
        try {
          return { text: value, hubFile: parseHubFileReference(value) };
        } catch (error) {
          addIssue({ message: error instanceof Error ? error.message : String(error) });
          return NEVER;
        }
      }),
    ),
    default: null,
    accepts: "a path, or hf:<owner>/<repo>/<file>.gguf[#revision]",
  });
}

/** A word read loosely (case and punctuation ignored), mapped to the value it stands for. */
export function spelledOneOf<const Value extends string>(
  options: Described & { spellings: Record<string, Value>; default: Value; accepts: string },
): ConfigVariable<Value> {
  const known = Object.keys(options.spellings) as [string, ...string[]];
  return declare<Value>({
    ...options,
    schema: v.pipe(
      v.string(),
      v.transform((value) => value.toLowerCase().replace(/[^a-z]/g, "")),
      v.picklist(known, `must be ${options.accepts}`),
      v.transform((spelling) => options.spellings[spelling] as Value),
    ),
  });
}

/** A name, or the word that turns the feature off (null). */
export function nameOrOff(options: Described & { default: string; off: string }): ConfigVariable<string | null> {
  return declare<string | null>({
    ...options,
    schema: v.pipe(
      v.string(),
      v.transform((value) => (value.toLowerCase() === options.off ? null : value)),
    ),
    accepts: `a folder name, or ${options.off}`,
  });
}

function splitList(value: string): string[] {
  return value
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}
