/**
 * Slack signs each HTTP request with its timestamp; Bolt refuses one older than five minutes but not one
 * dated in the future, which would stay replayable until five minutes past that date. Checked here,
 * before Bolt, in both directions. (Replays inside the window are caught by trigger id in the adapter:
 * a slash command or button click carries one that is new on every real use.)
 */

/** How far a request's timestamp may be from the server's clock, either way (Slack's own rule). */
export const SLACK_TIMESTAMP_TOLERANCE_SECONDS = 300;

export type SlackTimestampCheck = "fresh" | "missing" | "stale" | "future";

export function checkSlackTimestamp(header: string | string[] | undefined, nowSeconds: number): SlackTimestampCheck {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\d{1,12}$/.test(value)) return "missing";
  const timestamp = Number(value);
  if (timestamp < nowSeconds - SLACK_TIMESTAMP_TOLERANCE_SECONDS) return "stale";
  if (timestamp > nowSeconds + SLACK_TIMESTAMP_TOLERANCE_SECONDS) return "future";
  return "fresh";
}
