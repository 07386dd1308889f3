/**
 * Keeps secrets and bearer URLs out of log lines. Two layers: field names that always hold a secret
 * are censored wherever they sit (pino's redact), and the finished line is scrubbed of token-shaped
 * text (Slack tokens, bearer credentials, signed-link signatures, passwords in connection URLs) that
 * reached it inside a message, an error's text or a stack.
 */

const CENSORED = "[redacted]";

/** Fields whose value is a credential or an address that grants access on its own. */
const SECRET_FIELDS = [
  "authorization",
  "cookie",
  "token",
  "botToken",
  "appToken",
  "accessToken",
  "apiKey",
  "password",
  "secret",
  "signingSecret",
  "linkSecret",
  "downloadUrl",
  "url_private",
  "url_private_download",
  "x-slack-signature",
];

/** pino `redact.paths`: each secret field at the top level, one level down, and in request headers. */
export const REDACTED_LOG_PATHS: string[] = SECRET_FIELDS.flatMap((field) =>
  /^[A-Za-z_$][\w$]*$/.test(field)
    ? [field, `*.${field}`, `*.headers.${field}`, `headers.${field}`]
    : [`headers["${field}"]`, `*.headers["${field}"]`],
);

export const REDACTION_CENSOR = CENSORED;

type Scrub = { pattern: RegExp; replacement: string };

const SCRUBS: Scrub[] = [
  // Slack bot/user/app/refresh tokens and app-level tokens.
  { pattern: /\bxox[abposre]-[A-Za-z0-9-]+/g, replacement: `xox-${CENSORED}` },
  { pattern: /\bxapp-[A-Za-z0-9-]+/g, replacement: `xapp-${CENSORED}` },
  // Authorization header values written out as text.
  { pattern: /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g, replacement: `$1 ${CENSORED}` },
  // Slack's private file addresses: fetching them only needs the bot token, and they name the file.
  {
    pattern: /https?:\/\/files\.slack\.com\/files-pri\/[^\s"\\]+/g,
    replacement: `https://files.slack.com/${CENSORED}`,
  },
  // Signed links and keyed URLs: the signature or key in the query string is what grants access.
  {
    pattern: /([?&](?:sig|signature|token|access_token|api_key|apikey|key|code)=)[^&#\s"\\]+/gi,
    replacement: `$1${CENSORED}`,
  },
  // user:password@ in connection URLs (DATABASE_URL, QDRANT_URL with credentials).
  { pattern: /(\b[a-z][a-z0-9+.-]*:\/\/[^:/@\s"\\]+:)[^@/\s"\\]+@/gi, replacement: `$1${CENSORED}@` },
];

/** The text with every token-shaped secret replaced; used on each finished log line. */
export function scrubSecrets(text: string): string {
  let scrubbed = text;
  for (const { pattern, replacement } of SCRUBS) scrubbed = scrubbed.replace(pattern, replacement);
  return scrubbed;
}
