/**
 * Where a questionnaire job asked from a chat reports its progress and its filled copy. The core keeps
 * it with the job and never reads inside `address`: the adapter named by `adapter` owns that JSON (Slack:
 * channel, thread and progress message; Teams: the conversation reference for proactive messages), so
 * a job resumed after a restart is followed by the adapter it came from. Jobs from the console or the CLI
 * have none.
 */
export type QuestionnaireDestination = {
  /** Which adapter follows the job ("slack", "teams"). */
  adapter: string;
  /** The adapter's own JSON; opaque to the core. */
  address: Record<string, unknown>;
};

/** A stored value read back as a destination, or null when it is not one (a row written by hand). */
export function readDestination(value: unknown): QuestionnaireDestination | null {
  if (typeof value !== "object" || value === null) return null;
  const { adapter, address } = value as { adapter?: unknown; address?: unknown };
  if (typeof adapter !== "string" || typeof address !== "object" || address === null) return null;
  return { adapter, address: address as Record<string, unknown> };
}
