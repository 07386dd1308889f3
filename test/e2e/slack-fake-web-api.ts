/**
 * A local stand-in for Slack's Web API (node:http) for the Slack e2e tests: it answers the methods
 * Folio calls, records every call with its decoded arguments and token, keeps the messages of each
 * channel so `conversations.replies` returns real threads (Folio's own posts included), serves
 * private file downloads only to the bot token, and can answer 429 with Retry-After. It speaks Slack's
 * chat streaming API (chat.startStream / appendStream / stopStream) or refuses it as a workspace
 * without it would, and hands out a Socket Mode URL for the app token. It answers the assistant
 * container's methods (assistant.threads.setStatus / setTitle / setSuggestedPrompts, checking their
 * arguments), channel membership (conversations.members), refuses the native `feedback_buttons`
 * element with `invalid_blocks` unless told the workspace has it, and can refuse the bot token at
 * auth.test as Slack does a revoked one. It lists a channel's top-level messages (conversations.history)
 * and takes uploads as Slack's external upload does: files.getUploadURLExternal hands out an upload
 * address on the stand-in, the bytes POSTed there are kept, and files.completeUploadExternal shares
 * the file into the channel or thread as a message with the file (each step recorded in `uploads`).
 * Methods it does not know get `unknown_method`, as from Slack.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type RecordedCall = {
  method: string;
  args: Record<string, unknown>;
  token: string | null;
  at: number;
  /** What the stand-in answered (absent for a 429). */
  result?: Record<string, unknown>;
};

export type FakeMessage = {
  channel: string;
  ts: string;
  thread_ts?: string;
  user?: string;
  bot_id?: string;
  text: string;
  blocks?: unknown[];
  /** Set while a chat.startStream message is open; cleared by chat.stopStream. */
  streaming?: boolean;
  /** Files shared with the message (a person's upload, or Folio's through completeUploadExternal). */
  files?: FakeFile[];
};

/** One external upload: reserved by getUploadURLExternal, its bytes POSTed, then completed into a channel. */
export type FakeUpload = {
  fileId: string;
  filename: string;
  length: number;
  bytes: Uint8Array | null;
  completed: { channelId: string; threadTs: string | null; title: string | null } | null;
};

/** How the stand-in answers chat.startStream: like a workspace with the streaming API, or without. */
export type FakeStreamingMode = "supported" | "unknown_method" | "not_allowed";

export type FakeFile = {
  id: string;
  name: string;
  title: string;
  mimetype: string;
  size: number;
  user: string;
  url_private: string;
  url_private_download: string;
  shares?: { public?: Record<string, Array<{ ts: string; thread_ts?: string }>> };
};

export type FakeSlackWebApi = {
  /** Base URL to configure as SLACK_API_URL (the client adds `/api/`). */
  url: string;
  calls: RecordedCall[];
  downloads: Array<{ fileId: string; authorization: string | null }>;
  uploads: FakeUpload[];
  callsTo(method: string): RecordedCall[];
  /** A person's message, so threads fetched with conversations.replies contain it. */
  addUserMessage(message: Omit<FakeMessage, "bot_id">): void;
  messagesIn(channel: string): FakeMessage[];
  /** A fresh message timestamp, later than every earlier one (Slack's ts order is time order). */
  nextTs(): string;
  addFile(input: { id: string; name: string; mimetype: string; bytes: Uint8Array; user: string }): FakeFile;
  /** The next `count` calls to `method` answer 429 with `Retry-After: retryAfterSeconds`. */
  rateLimit(method: string, count: number, retryAfterSeconds: number): void;
  /** The next `count` downloads of the file fail with 503, as Slack's file host sometimes does. */
  failDownloads(fileId: string, count: number): void;
  /** Default "unknown_method" (a workspace or API host without chat streaming). */
  setStreamingMode(mode: FakeStreamingMode): void;
  /** What apps.connections.open returns to the app token (Socket Mode). */
  setSocketModeUrl(url: string): void;
  /** auth.test answers `{ ok: false, error }` with this code (e.g. "token_revoked"); null: accepted. */
  setAuthError(error: string | null): void;
  /** Whether chat.postMessage / chat.update accept a `context_actions` block (default: `invalid_blocks`). */
  setNativeFeedbackSupported(supported: boolean): void;
  /** The members conversations.members lists for a channel; a channel never set is `channel_not_found`. */
  setChannelMembers(channel: string, members: string[]): void;
  close(): Promise<void>;
};

export const FAKE_TEAM_ID = "T0FOLIO";
export const FAKE_BOT_USER_ID = "U0FOLIOBOT";
export const FAKE_BOT_ID = "B0FOLIOBOT";
export const FAKE_BOT_TOKEN = "xoxb-test";
export const FAKE_APP_TOKEN = "xapp-test";

let envelopeCounter = 0;

/** An Events API `event_callback` envelope as Slack delivers it, over HTTP or inside a Socket Mode frame. */
export function eventCallbackEnvelope(event: Record<string, unknown>, eventId?: string) {
  envelopeCounter += 1;
  return {
    token: "legacy-verification-token",
    team_id: FAKE_TEAM_ID,
    api_app_id: "A0FOLIO",
    type: "event_callback",
    event_id: eventId ?? `Ev${String(envelopeCounter).padStart(8, "0")}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ team_id: FAKE_TEAM_ID, user_id: FAKE_BOT_USER_ID, is_bot: true }],
    event,
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Arguments whose values are structures, sent as JSON strings; every other field is text as it is. */
const JSON_ARGUMENTS = new Set(["blocks", "attachments", "chunks", "metadata", "unfurls", "prompts", "files"]);

/** The Web API client sends form fields; nested values (blocks) arrive as JSON strings. */
function decodeArguments(body: string, contentType: string): Record<string, unknown> {
  if (contentType.includes("application/json")) return body ? (JSON.parse(body) as Record<string, unknown>) : {};
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    if (JSON_ARGUMENTS.has(key)) {
      try {
        args[key] = JSON.parse(value);
        continue;
      } catch {
        // Not JSON after all: keep the string.
      }
    }
    args[key] = value;
  }
  return args;
}

export async function startFakeSlackWebApi(): Promise<FakeSlackWebApi> {
  const calls: RecordedCall[] = [];
  const downloads: FakeSlackWebApi["downloads"] = [];
  const uploads: FakeUpload[] = [];
  const messages: FakeMessage[] = [];
  const files = new Map<string, { file: FakeFile; bytes: Uint8Array }>();
  const rateLimits = new Map<string, { count: number; retryAfterSeconds: number }>();
  const failingDownloads = new Map<string, number>();
  const clock = 1_700_000_000;
  let sequence = 0;
  const nextTs = () => {
    sequence += 1;
    return `${clock + sequence}.${String(sequence).padStart(6, "0")}`;
  };
  let baseUrl = "";
  let streamingMode: FakeStreamingMode = "unknown_method";
  let socketModeUrl: string | null = null;
  let authError: string | null = null;
  let nativeFeedbackSupported = false;
  const channelMembers = new Map<string, string[]>();

  /**
   * `invalid_blocks` for a context_actions block where the workspace lacks it, or one whose
   * feedback_buttons lack the fields Slack requires; null when the blocks are acceptable.
   */
  const refuseBlocks = (blocks: unknown): string | null => {
    if (!Array.isArray(blocks)) return null;
    for (const block of blocks as Array<{ type?: string; elements?: unknown[] }>) {
      if (block.type !== "context_actions") continue;
      if (!nativeFeedbackSupported) return "invalid_blocks";
      for (const element of (block.elements ?? []) as Array<Record<string, unknown>>) {
        if (element.type !== "feedback_buttons") return "invalid_blocks";
        for (const button of [element.positive_button, element.negative_button] as Array<Record<string, unknown>>) {
          const text = (button?.text as { type?: string; text?: string } | undefined) ?? {};
          if (text.type !== "plain_text" || !text.text || typeof button?.value !== "string") return "invalid_blocks";
        }
      }
    }
    return null;
  };

  /** assistant.threads.* need the DM channel and thread of the assistant container. */
  const assistantThreadError = (args: Record<string, unknown>): string | null =>
    typeof args.channel_id === "string" && args.channel_id.startsWith("D") && typeof args.thread_ts === "string"
      ? null
      : "invalid_arguments";

  /** markdown_text, or the text of `markdown_text` chunks (what the SDK's ChatStreamer sends). */
  const streamedText = (args: Record<string, unknown>): string => {
    if (typeof args.markdown_text === "string") return args.markdown_text;
    if (!Array.isArray(args.chunks)) return "";
    return (args.chunks as Array<{ type?: string; text?: string }>)
      .map((chunk) => (chunk.type === "markdown_text" ? (chunk.text ?? "") : ""))
      .join("");
  };

  const handleMethod = (method: string, args: Record<string, unknown>): Record<string, unknown> => {
    const channel = typeof args.channel === "string" ? args.channel : "";
    const findMessage = () => messages.find((entry) => entry.channel === channel && entry.ts === args.ts);
    switch (method) {
      case "auth.test":
        if (authError !== null) return { ok: false, error: authError };
        return { ok: true, user_id: FAKE_BOT_USER_ID, bot_id: FAKE_BOT_ID, team_id: FAKE_TEAM_ID, team: "Folio Test" };
      case "chat.postMessage": {
        const refused = refuseBlocks(args.blocks);
        if (refused) return { ok: false, error: refused };
        const message: FakeMessage = {
          channel,
          ts: nextTs(),
          user: FAKE_BOT_USER_ID,
          bot_id: FAKE_BOT_ID,
          text: String(args.text ?? ""),
          ...(typeof args.thread_ts === "string" ? { thread_ts: args.thread_ts } : {}),
          ...(Array.isArray(args.blocks) ? { blocks: args.blocks } : {}),
        };
        messages.push(message);
        return { ok: true, channel, ts: message.ts, message };
      }
      case "chat.update": {
        const message = findMessage();
        if (!message) return { ok: false, error: "message_not_found" };
        // An open stream is written through appendStream/stopStream only.
        if (message.streaming) return { ok: false, error: "cant_update_message" };
        const refused = refuseBlocks(args.blocks);
        if (refused) return { ok: false, error: refused };
        message.text = String(args.text ?? "");
        message.blocks = Array.isArray(args.blocks) ? args.blocks : [];
        return { ok: true, channel, ts: message.ts, text: message.text };
      }
      case "chat.delete": {
        const index = messages.findIndex((entry) => entry.channel === channel && entry.ts === args.ts);
        if (index < 0) return { ok: false, error: "message_not_found" };
        messages.splice(index, 1);
        return { ok: true, channel, ts: args.ts };
      }
      case "chat.startStream": {
        if (streamingMode !== "supported") return { ok: false, error: streamingMode };
        if (typeof args.thread_ts !== "string") return { ok: false, error: "invalid_arguments" };
        if (!channel.startsWith("D") && (!args.recipient_user_id || !args.recipient_team_id)) {
          return { ok: false, error: "missing_recipient_user_id" };
        }
        const text = streamedText(args);
        if (!text) return { ok: false, error: "no_text" };
        const message: FakeMessage = {
          channel,
          ts: nextTs(),
          user: FAKE_BOT_USER_ID,
          bot_id: FAKE_BOT_ID,
          text,
          thread_ts: args.thread_ts,
          streaming: true,
        };
        messages.push(message);
        return { ok: true, channel, ts: message.ts };
      }
      case "chat.appendStream":
      case "chat.stopStream": {
        if (streamingMode !== "supported") return { ok: false, error: streamingMode };
        const message = findMessage();
        if (!message) return { ok: false, error: "message_not_found" };
        if (!message.streaming) return { ok: false, error: "message_not_in_streaming_state" };
        const text = streamedText(args);
        if (method === "chat.appendStream" && !text) return { ok: false, error: "no_text" };
        message.text += text;
        if (method === "chat.stopStream") {
          message.streaming = false;
          if (Array.isArray(args.blocks)) message.blocks = args.blocks;
        }
        return { ok: true, channel, ts: message.ts };
      }
      case "chat.postEphemeral":
        return { ok: true, message_ts: nextTs() };
      case "conversations.replies": {
        const ts = String(args.ts ?? "");
        const thread = messages
          .filter((entry) => entry.channel === channel && (entry.ts === ts || entry.thread_ts === ts))
          .sort((left, right) => Number(left.ts) - Number(right.ts));
        return { ok: true, messages: thread, has_more: false };
      }
      case "conversations.history": {
        const topLevel = messages
          .filter(
            (entry) => entry.channel === channel && (entry.thread_ts === undefined || entry.thread_ts === entry.ts),
          )
          .sort((left, right) => Number(right.ts) - Number(left.ts))
          .slice(0, Number(args.limit ?? 100));
        return { ok: true, messages: topLevel, has_more: false };
      }
      case "files.getUploadURLExternal": {
        const length = Number(args.length);
        if (typeof args.filename !== "string" || !args.filename || !Number.isInteger(length) || length <= 0) {
          return { ok: false, error: "invalid_arguments" };
        }
        const fileId = `F0UP${String(uploads.length + 1).padStart(4, "0")}`;
        uploads.push({ fileId, filename: args.filename, length, bytes: null, completed: null });
        return { ok: true, upload_url: `${baseUrl}/upload/v1/${fileId}`, file_id: fileId };
      }
      case "files.completeUploadExternal": {
        const requested = (Array.isArray(args.files) ? args.files : []) as Array<{ id?: string; title?: string }>;
        const entries = requested.map((item) => uploads.find((upload) => upload.fileId === item.id));
        // Like Slack: a file whose bytes never arrived, or of another length, cannot be completed.
        if (entries.length === 0 || entries.some((upload) => !upload || upload.bytes?.byteLength !== upload.length)) {
          return { ok: false, error: "file_not_found" };
        }
        const channelId = typeof args.channel_id === "string" ? args.channel_id : null;
        const threadTs = typeof args.thread_ts === "string" ? args.thread_ts : null;
        if (threadTs !== null && channelId === null) return { ok: false, error: "invalid_arguments" };
        const shared: FakeFile[] = [];
        entries.forEach((upload, index) => {
          if (!upload) return;
          const title = requested[index]?.title ?? null;
          upload.completed = channelId ? { channelId, threadTs, title } : null;
          const url = `${baseUrl}/files-pri/${upload.fileId}/${encodeURIComponent(upload.filename)}`;
          const file: FakeFile = {
            id: upload.fileId,
            name: upload.filename,
            title: title ?? upload.filename,
            mimetype: "application/octet-stream",
            size: upload.length,
            user: FAKE_BOT_USER_ID,
            url_private: url,
            url_private_download: `${url}?download=1`,
          };
          files.set(upload.fileId, { file, bytes: upload.bytes ?? new Uint8Array() });
          shared.push(file);
        });
        if (channelId) {
          messages.push({
            channel: channelId,
            ts: nextTs(),
            user: FAKE_BOT_USER_ID,
            bot_id: FAKE_BOT_ID,
            text: typeof args.initial_comment === "string" ? args.initial_comment : "",
            ...(threadTs ? { thread_ts: threadTs } : {}),
            files: shared,
          });
        }
        return { ok: true, files: shared.map((file) => ({ id: file.id, title: file.title })) };
      }
      case "files.info": {
        const entry = files.get(String(args.file ?? ""));
        return entry ? { ok: true, file: entry.file } : { ok: false, error: "file_not_found" };
      }
      case "conversations.members": {
        const members = channelMembers.get(channel);
        return members
          ? { ok: true, members, response_metadata: { next_cursor: "" } }
          : { ok: false, error: "channel_not_found" };
      }
      case "assistant.threads.setStatus": {
        const error = assistantThreadError(args);
        return error
          ? { ok: false, error }
          : typeof args.status === "string"
            ? { ok: true }
            : { ok: false, error: "invalid_arguments" };
      }
      case "assistant.threads.setTitle": {
        const error = assistantThreadError(args);
        return error ? { ok: false, error } : args.title ? { ok: true } : { ok: false, error: "invalid_arguments" };
      }
      case "assistant.threads.setSuggestedPrompts": {
        const error = assistantThreadError(args);
        if (error) return { ok: false, error };
        const prompts = args.prompts as Array<{ title?: string; message?: string }> | undefined;
        const valid =
          Array.isArray(prompts) &&
          prompts.length >= 1 &&
          prompts.length <= 4 &&
          prompts.every((prompt) => prompt.title && prompt.message);
        return valid ? { ok: true } : { ok: false, error: "invalid_arguments" };
      }
      case "users.info":
        return { ok: true, user: { id: args.user, name: "person", is_admin: false, is_bot: false } };
      default:
        return { ok: false, error: "unknown_method" };
    }
  };

  /** The app-level token opens Socket Mode connections and nothing else; the bot token everything else. */
  const answer = (method: string, args: Record<string, unknown>, token: string | null): Record<string, unknown> => {
    if (method === "apps.connections.open") {
      if (token !== FAKE_APP_TOKEN) return { ok: false, error: "not_allowed_token_type" };
      return socketModeUrl ? { ok: true, url: socketModeUrl } : { ok: false, error: "internal_error" };
    }
    return token === FAKE_BOT_TOKEN ? handleMethod(method, args) : { ok: false, error: "invalid_auth" };
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? "/", "http://localhost");
      const authorization = request.headers.authorization ?? null;
      if (request.method === "GET" && url.pathname.startsWith("/files-pri/")) {
        const fileId = url.pathname.split("/")[2] ?? "";
        downloads.push({ fileId, authorization });
        const failuresLeft = failingDownloads.get(fileId) ?? 0;
        if (failuresLeft > 0) {
          failingDownloads.set(fileId, failuresLeft - 1);
          response.writeHead(503, { "content-type": "text/plain" }).end("Service Unavailable");
          return;
        }
        const entry = files.get(fileId);
        // Like Slack: no valid bot token, no file — a sign-in page instead.
        if (!entry || authorization !== `Bearer ${FAKE_BOT_TOKEN}`) {
          response.writeHead(200, { "content-type": "text/html" }).end("<html>Sign in to Slack</html>");
          return;
        }
        response.writeHead(200, { "content-type": entry.file.mimetype }).end(Buffer.from(entry.bytes));
        return;
      }
      if (request.method === "POST" && url.pathname.startsWith("/upload/v1/")) {
        const upload = uploads.find((entry) => entry.fileId === url.pathname.split("/")[3]);
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        if (!upload) {
          response.writeHead(404).end();
          return;
        }
        upload.bytes = new Uint8Array(Buffer.concat(chunks));
        response.writeHead(200, { "content-type": "text/plain" }).end(`OK - ${upload.bytes.byteLength}`);
        return;
      }
      if (request.method !== "POST" || !url.pathname.startsWith("/api/")) {
        response.writeHead(404).end();
        return;
      }
      const method = url.pathname.slice("/api/".length);
      const args = decodeArguments(await readBody(request), request.headers["content-type"] ?? "");
      const token = authorization?.replace(/^Bearer /, "") ?? (typeof args.token === "string" ? args.token : null);
      const call: RecordedCall = { method, args, token, at: Date.now() };
      calls.push(call);
      const limit = rateLimits.get(method);
      if (limit && limit.count > 0) {
        limit.count -= 1;
        response
          .writeHead(429, { "content-type": "application/json", "retry-after": String(limit.retryAfterSeconds) })
          .end(JSON.stringify({ ok: false, error: "ratelimited" }));
        return;
      }
      const body = answer(method, args, token);
      call.result = body;
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    })();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: baseUrl,
    calls,
    downloads,
    uploads,
    callsTo: (method) => calls.filter((call) => call.method === method),
    addUserMessage(message) {
      messages.push({ ...message });
    },
    nextTs,
    messagesIn: (channel) => messages.filter((message) => message.channel === channel),
    addFile({ id, name, mimetype, bytes, user }) {
      const url = `${baseUrl}/files-pri/${id}/${encodeURIComponent(name)}`;
      const file: FakeFile = {
        id,
        name,
        title: name,
        mimetype,
        size: bytes.byteLength,
        user,
        url_private: url,
        url_private_download: `${url}?download=1`,
      };
      files.set(id, { file, bytes });
      return file;
    },
    rateLimit(method, count, retryAfterSeconds) {
      rateLimits.set(method, { count, retryAfterSeconds });
    },
    failDownloads(fileId, count) {
      failingDownloads.set(fileId, count);
    },
    setStreamingMode(mode) {
      streamingMode = mode;
    },
    setSocketModeUrl(url) {
      socketModeUrl = url;
    },
    setAuthError(error) {
      authError = error;
    },
    setNativeFeedbackSupported(supported) {
      nativeFeedbackSupported = supported;
    },
    setChannelMembers(channel, members) {
      channelMembers.set(channel, members);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
