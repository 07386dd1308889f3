/**
 * Reads an incoming Teams activity — which conversation it comes from (personal chat, group chat,
 * channel thread), the question without Folio's mention, the files it carries — and decides what it
 * asks of Folio, before any network call. Its own small types (not the SDK's), so the rules are pure
 * and unit-tested, and the space ids that scope every search are derived here.
 */

import { isApprovedAnswersRequest } from "../../src/answer-library/approved-answers-request.js";
import type { SpaceId } from "../../src/domain/types.js";
import { isQuestionnaireCancel, isQuestionnaireRequest } from "../../src/questionnaire/questionnaire-request.js";

/** Attachment type of a file sent to a bot in a personal chat (manifest `supportsFiles: true`). */
export const FILE_DOWNLOAD_INFO = "application/vnd.microsoft.teams.file.download.info";

/** The fields of an incoming activity this adapter reads. */
export type TeamsActivity = {
  type?: string;
  id?: string;
  name?: string;
  text?: string;
  serviceUrl?: string;
  channelId?: string;
  replyToId?: string;
  from?: { id?: string; name?: string; aadObjectId?: string };
  recipient?: { id?: string; name?: string };
  conversation?: { id?: string; conversationType?: string; tenantId?: string; isGroup?: boolean };
  channelData?: { tenant?: { id?: string }; channel?: { id?: string; name?: string }; team?: { id?: string } };
  entities?: Array<{ type?: string; mentioned?: { id?: string; name?: string }; text?: string }>;
  attachments?: Array<{ contentType?: string; contentUrl?: string; name?: string; content?: unknown }>;
  value?: unknown;
};

export type ConversationKind = "personal" | "groupChat" | "channel";

export type TeamsConversation = {
  kind: ConversationKind;
  tenantId: string;
  /** The conversation as Teams names it; in a channel it carries `;messageid=<root>` of the thread. */
  conversationId: string;
  /** The channel or chat, without the thread part: what documents are scoped to. */
  spaceKey: string;
  /** The asker: their Entra object id where Teams gives it, else their Teams user id. */
  userId: string;
};

export type TeamsFile = { name: string; downloadUrl: string; fileType: string | null };

/** Where Teams lets the bot put a file the user consented to (the `uploadInfo` of a fileConsent invoke). */
export type TeamsUploadInfo = {
  name: string;
  uploadUrl: string;
  contentUrl: string;
  uniqueId: string;
  fileType: string;
};

export type ActivityDecision =
  | { kind: "ignore"; reason: string }
  | { kind: "question"; text: string }
  | { kind: "files"; files: TeamsFile[]; text: string }
  /** A 1:1 file sent with "answer this questionnaire": answered as questions, never indexed. */
  | { kind: "questionnaire"; file: TeamsFile }
  /** A 1:1 file sent with "add these as approved answers": its pairs added to the chat's space, never indexed. */
  | { kind: "approved-answers"; file: TeamsFile }
  /** "cancel" in a 1:1 chat: stops the person's questionnaire being answered there. */
  | { kind: "cancel-questionnaire" }
  /** The user's answer to a file consent card (the filled copy of questionnaire job `jobId`). */
  | { kind: "file-consent"; action: "accept" | "decline"; jobId: string; uploadInfo: TeamsUploadInfo | null }
  | { kind: "channel-files"; names: string[] }
  | { kind: "feedback"; messageId: string; rating: "up" | "down"; comment: string | null };

export function conversationKind(activity: TeamsActivity): ConversationKind {
  const type = activity.conversation?.conversationType;
  if (type === "channel" || type === "groupChat" || type === "personal") return type;
  return activity.conversation?.isGroup ? "groupChat" : "personal";
}

/** Where an activity comes from; null when it lacks what every Teams activity carries. */
export function readConversation(activity: TeamsActivity): TeamsConversation | null {
  const conversationId = activity.conversation?.id;
  const userId = activity.from?.aadObjectId ?? activity.from?.id;
  if (!conversationId || !userId) return null;
  const kind = conversationKind(activity);
  const tenantId = activity.conversation?.tenantId ?? activity.channelData?.tenant?.id ?? "unknown";
  const spaceKey =
    kind === "channel"
      ? (activity.channelData?.channel?.id ?? conversationId.split(";")[0] ?? conversationId)
      : conversationId;
  return { kind, tenantId, conversationId, spaceKey, userId };
}

export function spaceIdForConversation(conversation: Pick<TeamsConversation, "tenantId" | "spaceKey">): SpaceId {
  return `teams:${conversation.tenantId}:${conversation.spaceKey}`;
}

/** The spaces a question may search: the conversation's own, then the library (if any). */
export function searchSpaceIds(spaceId: SpaceId, librarySpaceId: string | null): SpaceId[] {
  return librarySpaceId && librarySpaceId !== spaceId ? [spaceId, librarySpaceId] : [spaceId];
}

const HTML_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/**
 * The question as typed: Folio's `<at>…</at>` mention removed (other people's names kept as plain
 * text), the little HTML Teams wraps channel messages in stripped, entities decoded.
 */
export function questionText(activity: TeamsActivity): string {
  let text = activity.text ?? "";
  const botId = activity.recipient?.id;
  for (const entity of activity.entities ?? []) {
    if (entity.type === "mention" && entity.mentioned?.id === botId && entity.text) {
      text = text.split(entity.text).join(" ");
    }
  }
  return text
    .replace(/<at>([^<]*)<\/at>/g, "$1")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<[^>]+>/g, " ")
    .replace(/&(amp|lt|gt|quot|apos|nbsp|#\d+);/g, (_match, name: string) =>
      name.startsWith("#") ? String.fromCodePoint(Number(name.slice(1))) : (HTML_ENTITIES[name] ?? ""),
    )
    .replace(/[ \t]+/g, " ")
    .replace(/\s*\n\s*/g, "\n")
    .trim();
}

export function mentionsRecipient(activity: TeamsActivity): boolean {
  const botId = activity.recipient?.id;
  return (activity.entities ?? []).some((entity) => entity.type === "mention" && entity.mentioned?.id === botId);
}

function readDownloadInfo(attachment: NonNullable<TeamsActivity["attachments"]>[number]): TeamsFile | null {
  if (attachment.contentType !== FILE_DOWNLOAD_INFO) return null;
  const content = attachment.content as { downloadUrl?: unknown; fileType?: unknown } | undefined;
  if (typeof content?.downloadUrl !== "string") return null;
  return {
    name: attachment.name ?? "file",
    downloadUrl: content.downloadUrl,
    fileType: typeof content.fileType === "string" ? content.fileType : null,
  };
}

/** Files posted in a channel or group chat reach bots only as SharePoint links (`reference`). */
function channelFileNames(activity: TeamsActivity): string[] {
  return (activity.attachments ?? [])
    .filter((attachment) => attachment.contentType === "reference" || attachment.contentType === FILE_DOWNLOAD_INFO)
    .map((attachment) => attachment.name ?? "the file");
}

function readFeedback(activity: TeamsActivity): ActivityDecision {
  const value = activity.value as
    | { actionName?: unknown; actionValue?: { reaction?: unknown; feedback?: unknown } }
    | undefined;
  if (value?.actionName !== "feedback" || !activity.replyToId) return { kind: "ignore", reason: "not feedback" };
  const reaction = value.actionValue?.reaction;
  if (reaction !== "like" && reaction !== "dislike") return { kind: "ignore", reason: "unknown reaction" };
  let comment: string | null = null;
  const raw = value.actionValue?.feedback;
  if (typeof raw === "string") {
    try {
      const parsed = JSON.parse(raw) as { feedbackText?: unknown };
      comment = typeof parsed.feedbackText === "string" && parsed.feedbackText.trim() ? parsed.feedbackText : null;
    } catch {
      comment = raw.trim() || null;
    }
  }
  return { kind: "feedback", messageId: activity.replyToId, rating: reaction === "like" ? "up" : "down", comment };
}

function readFileConsent(activity: TeamsActivity): ActivityDecision {
  const value = activity.value as
    | { action?: unknown; context?: { jobId?: unknown }; uploadInfo?: Partial<TeamsUploadInfo> }
    | undefined;
  const jobId = value?.context?.jobId;
  if ((value?.action !== "accept" && value?.action !== "decline") || typeof jobId !== "string") {
    return { kind: "ignore", reason: "file consent without a job" };
  }
  const info = value.uploadInfo;
  const uploadInfo =
    typeof info?.uploadUrl === "string" && typeof info.contentUrl === "string"
      ? {
          name: String(info.name ?? "filled questionnaire"),
          uploadUrl: info.uploadUrl,
          contentUrl: info.contentUrl,
          uniqueId: String(info.uniqueId ?? ""),
          fileType: String(info.fileType ?? ""),
        }
      : null;
  if (value.action === "accept" && uploadInfo === null)
    return { kind: "ignore", reason: "accepted without uploadInfo" };
  return { kind: "file-consent", action: value.action, jobId, uploadInfo };
}

/**
 * What an activity asks: in a personal chat every message is a question and files are uploads; in a
 * channel or group chat only messages that mention Folio count (Teams sends bots little else there).
 */
export function classifyActivity(activity: TeamsActivity): ActivityDecision {
  if (activity.type === "invoke") {
    if (activity.name === "fileConsent/invoke") return readFileConsent(activity);
    return activity.name === "message/submitAction" ? readFeedback(activity) : { kind: "ignore", reason: "invoke" };
  }
  if (activity.type !== "message") return { kind: "ignore", reason: `activity ${activity.type ?? "without type"}` };
  if (!readConversation(activity)) return { kind: "ignore", reason: "incomplete activity" };
  if (activity.from?.id && activity.from.id === activity.recipient?.id) return { kind: "ignore", reason: "from Folio" };
  const kind = conversationKind(activity);
  const text = questionText(activity);
  if (kind === "personal") {
    const files = (activity.attachments ?? []).flatMap((attachment) => readDownloadInfo(attachment) ?? []);
    const [first] = files;
    if (first && files.length === 1 && isQuestionnaireRequest(text)) return { kind: "questionnaire", file: first };
    if (first && files.length === 1 && isApprovedAnswersRequest(text)) return { kind: "approved-answers", file: first };
    if (files.length > 0) return { kind: "files", files, text };
    if (isQuestionnaireCancel(text)) return { kind: "cancel-questionnaire" };
    return text ? { kind: "question", text } : { kind: "ignore", reason: "empty" };
  }
  if (!mentionsRecipient(activity)) return { kind: "ignore", reason: "not addressed to Folio" };
  const names = channelFileNames(activity);
  if (names.length > 0) return { kind: "channel-files", names };
  return { kind: "question", text };
}
