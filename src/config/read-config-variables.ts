/**
 * Reads every declared variable (config-variables.ts) from an environment: each value parsed by its
 * schema, or its default when unset, when bad (the problem is kept) or when the variable it goes with is
 * unset. Collecting instead of throwing at the first is what lets one run report every bad variable.
 */
import * as v from "valibot";
import type { ConfigProblem, Environment } from "./config-error.js";
import { CONFIG_VARIABLES, type ConfigValues, type ConfigVariableName } from "./config-variables.js";

export type ReadVariables = {
  values: ConfigValues;
  problems: ConfigProblem[];
  /** Whether the variable is set to something other than spaces. */
  isSet(name: ConfigVariableName): boolean;
  /** Whether the variable is set to a value it does not accept. */
  isBad(name: ConfigVariableName): boolean;
};

const NAMES = Object.keys(CONFIG_VARIABLES) as ConfigVariableName[];

export function readConfigVariables(environment: Environment): ReadVariables {
  const written = new Map<ConfigVariableName, string>();
  for (const name of NAMES) {
    const value = environment[name]?.trim();
    if (value) written.set(name, value);
  }
  const values: Record<string, unknown> = {};
  const problems: ConfigProblem[] = [];
  const bad = new Set<ConfigVariableName>();
  for (const name of NAMES) {
    const variable = CONFIG_VARIABLES[name];
    const value = written.get(name);
    values[name] = variable.default;
    if (value === undefined) continue;
    if (variable.onlyWith && !written.has(variable.onlyWith as ConfigVariableName)) continue;
    // The first failed check is the one reported: later checks of a pipe assume the earlier ones held.
    const parsed = v.safeParse(variable.schema, value, { abortPipeEarly: true });
    if (parsed.success) {
      values[name] = parsed.output;
    } else {
      bad.add(name);
      problems.push({ variable: name, problem: parsed.issues[0]?.message ?? `"${value}" is not accepted` });
    }
  }
  return {
    values: values as ConfigValues,
    problems,
    isSet: (name) => written.has(name),
    isBad: (name) => bad.has(name),
  };
}

/** Problems in the order the variables are declared (a problem about several, by the first it names). */
export function inDeclaredOrder(problems: readonly ConfigProblem[]): ConfigProblem[] {
  const position = (problem: ConfigProblem) => {
    const index = NAMES.indexOf(problem.variable.split(",")[0]?.trim() as ConfigVariableName);
    return index < 0 ? NAMES.length : index;
  };
  return [...problems].sort((a, b) => position(a) - position(b));
}
