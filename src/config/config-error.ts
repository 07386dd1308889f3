/**
 * The error a bad configuration raises: every problem found, each naming its variable and how to fix it,
 * in one line (the CLI prints it and exits 3).
 */
import { FolioError } from "../errors.js";

export type Environment = Record<string, string | undefined>;

/** One problem with one variable, phrased so the reader knows how to fix it. */
export type ConfigProblem = { variable: string; problem: string };

export class ConfigError extends FolioError {
  readonly problems: ConfigProblem[];

  constructor(problems: ConfigProblem[]) {
    const summary = problems.map((entry) => `${entry.variable}: ${entry.problem}`).join("; ");
    super("invalid_configuration", `Invalid configuration — ${summary}`, { details: { problems } });
    this.name = "ConfigError";
    this.problems = problems;
  }
}
