/**
 * What a person can ask Folio to do with a file shared in Slack, besides indexing it: answer it as a
 * questionnaire, add it as approved answers, or cancel the questionnaire being answered in a thread. The
 * same requests arrive from mentions, DMs, the assistant pane and `/folio`; this module finds the file
 * meant (the newest one shared in the thread, else in the conversation), runs the request and, for a file
 * shared with the ask in the same message, claims the upload so it is never indexed as a document.
 */
import type { webApi } from "@slack/bolt";
import type { FolioCore } from "../../src/folio-core.js";
import { addApprovedAnswersFromFile, type SlackApprovedAnswersDependencies } from "./slack-approved-answers.js";
import type { SlackFileObject } from "./slack-events.js";
import { escapeDocumentText } from "./slack-message-format.js";
import {
  answerQuestionnaireInThread,
  findLatestSharedFile,
  type SlackMessageWithFiles,
  type SlackQuestionnaireDependencies,
} from "./slack-questionnaire.js";
import { readSlackJobAddress } from "./slack-questionnaire-follower.js";
import { type SlackConversation, spaceIdForConversation } from "./slack-space.js";

/** A request made in a message: its conversation, its thread (null outside one) and its own ts. */
export type FileRequest = { conversation: SlackConversation; threadTs: string | null; ts: string };

/** A request made with the file in the same message. */
export type SharedFileRequest = { conversation: SlackConversation; file: SlackFileObject; threadTs: string };

export type SharedFile = { file: SlackFileObject; message: SlackMessageWithFiles };

export type SlackFileRequests = {
  /** The newest file shared in the thread, or (outside a thread, or none there) in the conversation. */
  findSharedFile(channel: string, threadTs: string | null): Promise<SharedFile | null>;
  answerQuestionnaire(request: FileRequest): Promise<void>;
  /** Answers a file already found (`/folio questionnaire`); reports in the file's thread. */
  answerFoundQuestionnaire(conversation: SlackConversation, found: SharedFile): Promise<void>;
  answerSharedQuestionnaire(request: SharedFileRequest): Promise<void>;
  /** Stops the questionnaire this process answers in the thread; false when none is (then it is a question). */
  cancelQuestionnaire(request: { conversation: SlackConversation; threadTs: string }): Promise<boolean>;
  addApprovedAnswers(request: FileRequest): Promise<void>;
  /** Adds a file already found (`/folio answers add`); replies in the file's thread. */
  addFoundApprovedAnswers(conversation: SlackConversation, found: SharedFile): Promise<void>;
  addSharedApprovedAnswers(request: SharedFileRequest): Promise<void>;
};

export function createSlackFileRequests(dependencies: {
  client: webApi.WebClient;
  core: Pick<FolioCore, "listDocuments" | "deleteDocument" | "markEventProcessed" | "questionnaires">;
  questionnaires: SlackQuestionnaireDependencies;
  approvedAnswers: SlackApprovedAnswersDependencies;
}): SlackFileRequests {
  const { client, core } = dependencies;

  const findSharedFile = async (channel: string, threadTs: string | null) => {
    if (threadTs) {
      const replies = await client.conversations.replies({ channel, ts: threadTs, limit: 200 });
      const inThread = findLatestSharedFile((replies.messages ?? []) as SlackMessageWithFiles[]);
      if (inThread) return inThread;
    }
    const history = await client.conversations.history({ channel, limit: 50 });
    return findLatestSharedFile((history.messages ?? []) as SlackMessageWithFiles[]);
  };

  /**
   * A shared file is indexed as a document when it arrives; once someone asks to answer it, it is a
   * questionnaire, and its questions must not be cited as their own answers: that copy is removed.
   */
  const removeIndexedCopy = async (conversation: SlackConversation, file: { name?: string; user?: string }) => {
    const spaceId = spaceIdForConversation(conversation);
    const copies = (await core.listDocuments(spaceId)).filter(
      (document) => document.fileName === file.name && document.uploader === (file.user ?? conversation.userId),
    );
    for (const copy of copies) await core.deleteDocument(copy.id);
    return copies.length;
  };

  /** Claimed like an upload, so the file's `file_shared` announcement does not index it as a document. */
  const claimUpload = (conversation: SlackConversation, file: SlackFileObject) =>
    core.markEventProcessed(`slack-file:${spaceIdForConversation(conversation)}:${file.id}`);

  const threadOf = (found: SharedFile, fallback: string) => found.message.thread_ts ?? found.message.ts ?? fallback;

  const answerFoundQuestionnaire = async (conversation: SlackConversation, found: SharedFile) => {
    const threadTs = threadOf(found, "");
    await answerQuestionnaireInThread(dependencies.questionnaires, {
      file: found.file,
      conversation,
      threadTs,
      async onAccepted() {
        if ((await removeIndexedCopy(conversation, found.file)) === 0) return;
        await client.chat.postMessage({
          channel: conversation.channelId,
          thread_ts: threadTs,
          text: `${found.file.name ?? "This file"} is a questionnaire, not a source: I removed it from this conversation's documents so its questions are not cited as answers.`,
        });
      },
    });
  };

  const addFoundApprovedAnswers = (conversation: SlackConversation, found: SharedFile) =>
    addApprovedAnswersFromFile(dependencies.approvedAnswers, {
      file: found.file,
      conversation,
      threadTs: threadOf(found, ""),
    });

  /** Runs `run` on the file the request means, or says in the thread that there is none. */
  const withSharedFile = async (request: FileRequest, missing: string, run: (found: SharedFile) => Promise<void>) => {
    const found = await findSharedFile(request.conversation.channelId, request.threadTs);
    if (found) return run(found);
    await client.chat.postMessage({
      channel: request.conversation.channelId,
      thread_ts: request.threadTs ?? request.ts,
      text: missing,
    });
  };

  return {
    findSharedFile,
    answerFoundQuestionnaire,
    addFoundApprovedAnswers,
    answerQuestionnaire: (request) =>
      withSharedFile(
        request,
        "I found no file to answer here — share the questionnaire (XLSX, CSV or DOCX), then ask again in its thread.",
        (found) => answerFoundQuestionnaire(request.conversation, found),
      ),
    async answerSharedQuestionnaire({ conversation, file, threadTs }) {
      await claimUpload(conversation, file);
      await answerQuestionnaireInThread(dependencies.questionnaires, { file, conversation, threadTs });
    },
    async cancelQuestionnaire({ conversation, threadTs }) {
      const questionnaires = core.questionnaires;
      if (!questionnaires) return false;
      const followedHere = dependencies.questionnaires.threadJobs?.get(`${conversation.channelId}:${threadTs}`);
      if (followedHere) {
        // The follower sees the job settle as cancelled and says so in the thread.
        await questionnaires.cancel(followedHere);
        return true;
      }
      // Answered by another replica: find the thread's open job in the catalog; the cancel is recorded there.
      const jobs = await questionnaires.listJobs(spaceIdForConversation(conversation));
      const job = jobs.find((candidate) => {
        const address = readSlackJobAddress(candidate.destination);
        const open = candidate.status === "queued" || candidate.status === "running";
        return open && address?.channelId === conversation.channelId && address.threadTs === threadTs;
      });
      if (!job || !(await questionnaires.cancel(job.id))) return false;
      await client.chat.postMessage({
        channel: conversation.channelId,
        thread_ts: threadTs,
        text: `Cancelling *${escapeDocumentText(job.fileName)}*: answering stops after the row in progress.`,
      });
      return true;
    },
    addApprovedAnswers: (request) =>
      withSharedFile(
        request,
        "I found no file to add here — share the completed questionnaire (XLSX, CSV or DOCX) with question and answer columns, then ask again in its thread.",
        (found) => addFoundApprovedAnswers(request.conversation, found),
      ),
    async addSharedApprovedAnswers({ conversation, file, threadTs }) {
      await claimUpload(conversation, file);
      await addApprovedAnswersFromFile(dependencies.approvedAnswers, { file, conversation, threadTs });
    },
  };
}
