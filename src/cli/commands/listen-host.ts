/**
 * Where `folio serve` listens (#37). With only the local console it has no one to serve beyond this
 * machine — the console refuses other callers anyway — so it listens on loopback alone, and a port
 * scan of the network finds nothing. Slack and Teams need more: their events arrive from outside, and
 * the people they answer open the citation links (FOLIO_PUBLIC_URL/files/…) from their own machines;
 * so does FOLIO_CONSOLE=open, which serves the console to the network on purpose. HOST, when set, wins
 * (the Docker image and compose set 0.0.0.0: a container's loopback is its own).
 */
import type { FolioConfig } from "../../config/config.js";

export const LOOPBACK_HOST = "127.0.0.1";
export const EVERY_INTERFACE = "0.0.0.0";

export function listenHost(config: Pick<FolioConfig, "host" | "slack" | "teams" | "consoleAccess">): string {
  if (config.host !== null) return config.host;
  const needsNetwork = config.slack !== null || config.teams !== null || config.consoleAccess === "open";
  return needsNetwork ? EVERY_INTERFACE : LOOPBACK_HOST;
}
