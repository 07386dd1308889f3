/** Requests to Folio's Slack endpoint signed as Slack signs them (v0 HMAC-SHA256 of `v0:<timestamp>:<body>`). */
import { createHmac } from "node:crypto";

export function slackSignature(secret: string, body: string, timestamp: number): string {
  return `v0=${createHmac("sha256", secret).update(`v0:${timestamp}:${body}`).digest("hex")}`;
}

export type SignedPostOptions = {
  /** Seconds since the epoch; now by default. */
  timestamp?: number;
  /** A signature to send instead of the right one; null sends none. */
  signature?: string | null;
  /** Marks Slack's redelivery (x-slack-retry-num, reason http_timeout). */
  retryNum?: number;
};

/** POSTs `body` to `<baseUrl>/slack/events`, signed with `secret` unless `options` say otherwise. */
export function postSignedToSlack(
  baseUrl: string,
  secret: string,
  body: string,
  contentType: string,
  options: SignedPostOptions = {},
): Promise<Response> {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    "content-type": contentType,
    "x-slack-request-timestamp": String(timestamp),
  };
  const signature = options.signature === undefined ? slackSignature(secret, body, timestamp) : options.signature;
  if (signature !== null) headers["x-slack-signature"] = signature;
  if (options.retryNum !== undefined) {
    headers["x-slack-retry-num"] = String(options.retryNum);
    headers["x-slack-retry-reason"] = "http_timeout";
  }
  return fetch(`${baseUrl}/slack/events`, { method: "POST", headers, body });
}
