#!/usr/bin/env node
/**
 * `npm run teams:package`: builds the Teams app package (manifest.json + color.png + outline.png in
 * one zip) to upload in the Teams admin center or the Developer Portal. Fills the manifest template
 * (adapters/teams/manifest/manifest.json) from MICROSOFT_APP_ID, FOLIO_PUBLIC_URL and the organisation's
 * own privacy statement and terms of use (TEAMS_PRIVACY_URL, TEAMS_TERMS_URL: Teams shows them on the
 * app's page, and Folio's own address only serves the console, which answers this machine alone),
 * checks what Teams would refuse, and writes dist/teams/folio-teams.zip (or the first argument's path).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { zipSync } from "fflate";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const manifestDir = path.join(root, "adapters", "teams", "manifest");
const output = path.resolve(process.argv[2] ?? path.join(root, "dist", "teams", "folio-teams.zip"));

function fail(message) {
  process.stderr.write(`teams:package: ${message}\n`);
  process.exit(3);
}

const appId = process.env.MICROSOFT_APP_ID?.trim() ?? "";
const publicUrl = (process.env.FOLIO_PUBLIC_URL?.trim() ?? "").replace(/\/+$/, "");
const problems = [];
if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(appId)) {
  problems.push("MICROSOFT_APP_ID must be the Azure Bot's Microsoft App ID (a GUID)");
}
let host = "";
try {
  const url = new URL(publicUrl);
  if (url.protocol !== "https:")
    problems.push("FOLIO_PUBLIC_URL must start with https:// (Teams opens citation links from it)");
  host = url.host;
} catch {
  problems.push("FOLIO_PUBLIC_URL must be Folio's external https:// address, e.g. https://folio.example.com");
}
for (const [variable, what] of [
  ["TEAMS_PRIVACY_URL", "privacy statement"],
  ["TEAMS_TERMS_URL", "terms of use"],
]) {
  const value = process.env[variable]?.trim() ?? "";
  if (!/^https:\/\/[^/\s]+/i.test(value)) {
    problems.push(
      `${variable} must be your organisation's https:// ${what} (Teams shows it on the app's page; Folio's own address serves only the console)`,
    );
  }
}
if (problems.length > 0) fail(problems.join("; "));

const template = readFileSync(path.join(manifestDir, "manifest.json"), "utf8");
const filled = template
  .replaceAll("{{MICROSOFT_APP_ID}}", appId.toLowerCase())
  .replaceAll("{{FOLIO_PUBLIC_URL}}", publicUrl)
  .replaceAll("{{FOLIO_PUBLIC_HOST}}", host)
  .replaceAll("{{TEAMS_PRIVACY_URL}}", process.env.TEAMS_PRIVACY_URL?.trim() ?? "")
  .replaceAll("{{TEAMS_TERMS_URL}}", process.env.TEAMS_TERMS_URL?.trim() ?? "");
const manifest = JSON.parse(filled);
const leftover = /\{\{[A-Z_]+\}\}/.exec(JSON.stringify(manifest));
if (leftover) fail(`the manifest template has an unknown placeholder ${leftover[0]}`);

const zip = zipSync({
  "manifest.json": new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`),
  "color.png": readFileSync(path.join(manifestDir, "color.png")),
  "outline.png": readFileSync(path.join(manifestDir, "outline.png")),
});
mkdirSync(path.dirname(output), { recursive: true });
writeFileSync(output, zip);
process.stdout.write(`${output}\n`);
