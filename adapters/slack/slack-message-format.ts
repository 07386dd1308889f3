/**
 * Pure formatting of what Folio says in Slack: answers turned into mrkdwn, split safely under Slack's
 * message limits, the numbered source list with page links, the feedback buttons, and the short
 * texts for uploads and failures. No Slack client here, so every rule is unit-tested.
 */

import type { Answer, Citation } from "../../src/answer/answer-events.js";
import { defangUrls } from "../../src/answer/citations/literal-links.js";
import { labelDocument } from "../../src/domain/document-label.js";
import { describeSourcePlace } from "../../src/domain/source-place.js";
import { showInvisibleCharacters } from "../../src/domain/visible-text.js";
import { describeIngestOutcome } from "../../src/ingest/describe-ingest-outcome.js";
import type { IngestProgress, IngestResult, IngestStage, MeaningUpdate } from "../../src/ingest/ingest-result.js";

/** Slack's documented limits: text of one section block, blocks per message, `text` per message. */
export const SLACK_LIMITS = {
  sectionText: 3_000,
  blocksPerMessage: 50,
  messageText: 40_000,
} as const;

export const PLACEHOLDER_TEXT = "Searching your documents…";
export const FEEDBACK_ACTION_UP = "folio_feedback_up";
export const FEEDBACK_ACTION_DOWN = "folio_feedback_down";
/** The action of Slack's native `feedback_buttons` element; the clicked button's value carries the rating. */
export const FEEDBACK_ACTION_NATIVE = "folio_feedback";
const QUOTE_LENGTH = 160;

export type SlackTextObject = { type: "mrkdwn" | "plain_text"; text: string; emoji?: boolean };

export type SlackBlock =
  | { type: "section"; text: SlackTextObject }
  | { type: "context"; elements: SlackTextObject[] }
  | { type: "divider" }
  | {
      type: "context_actions";
      block_id: string;
      elements: Array<{
        type: "feedback_buttons";
        action_id: string;
        positive_button: FeedbackButton;
        negative_button: FeedbackButton;
      }>;
    }
  | {
      type: "actions";
      block_id: string;
      elements: Array<{
        type: "button";
        action_id: string;
        text: SlackTextObject;
        value: string;
      }>;
    };

type FeedbackButton = { text: SlackTextObject; accessibility_label: string; value: string };

export type SlackMessage = { text: string; blocks: SlackBlock[] };

/**
 * How answers ask for feedback: Slack's native `feedback_buttons` element in a `context_actions` block,
 * or (where the workspace refuses that block) two ordinary buttons in an `actions` block.
 */
export type FeedbackStyle = "native" | "buttons";

export type FeedbackRating = "up" | "down";

/**
 * What a feedback button carries back to us when clicked. The native element sends only the clicked
 * button's value, so its values also carry the rating; the ordinary buttons tell it by their action id.
 */
export type FeedbackButtonValue = { answerId: string; spaceId: string; rating?: FeedbackRating };

/** Slack treats `&`, `<` and `>` as control characters in every text field. */
export function escapeMrkdwn(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/**
 * Text that came from an upload or a document — a file name, a title, a question read from a
 * questionnaire, a message naming them — as mrkdwn that links nothing and hides nothing: direction
 * controls shown and zero-width characters dropped (visible-text.ts), anything a client would link
 * defanged (literal-links.ts), Slack's control characters escaped (issue #30: file names and approved
 * questions were posted with only the escaping).
 */
export function escapeDocumentText(text: string): string {
  return escapeMrkdwn(defangUrls(showInvisibleCharacters(text)));
}

/** A URL inside `<url|label>` must not contain the delimiters `|` and `>`. */
function escapeLinkUrl(url: string): string {
  return url.replaceAll("&", "&amp;").replaceAll("<", "%3C").replaceAll(">", "%3E").replaceAll("|", "%7C");
}

/** A label inside `<url|label>`: escaped, and without `|`, which would end the label early. */
function escapeLinkLabel(label: string): string {
  return escapeMrkdwn(label.replaceAll("|", "¦"));
}

export function formatLink(url: string, label: string): string {
  return `<${escapeLinkUrl(url)}|${escapeLinkLabel(label)}>`;
}

function convertInlineMarkdown(escaped: string): string {
  return escaped
    .replace(/^#{1,6}\s+(.+)$/gm, "*$1*")
    .replace(/\*\*([^*\n]+)\*\*/g, "*$1*")
    .replace(/__([^_\n]+)__/g, "*$1*");
}

/**
 * The generator writes Markdown-ish text (bold, headings, `[n]` markers); Slack speaks mrkdwn. The text
 * quotes documents, so nothing in it becomes a link: `[label](url)` stays as written (mrkdwn has no such
 * syntax) and every URL is defanged, since Slack links bare URLs and domains by itself. Everything is
 * escaped as well, so a document quoting `<script>` or `a & b` cannot break the message.
 */
export function markdownToMrkdwn(markdown: string): string {
  return convertInlineMarkdown(escapeMrkdwn(defangUrls(markdown)));
}

/** Moves a cut point back so it never lands inside an entity (`&amp;`), a link (`<…>`) or a surrogate pair. */
function safeCutPoint(text: string, cut: number): number {
  let position = cut;
  const openLink = text.lastIndexOf("<", position - 1);
  if (openLink > text.lastIndexOf(">", position - 1) && openLink > 0) position = openLink;
  const ampersand = text.lastIndexOf("&", position - 1);
  if (ampersand >= 0 && position - ampersand < 6 && !text.slice(ampersand, position).includes(";") && ampersand > 0) {
    position = ampersand;
  }
  const code = text.charCodeAt(position - 1);
  if (code >= 0xd800 && code <= 0xdbff) position -= 1;
  return position;
}

/**
 * Splits mrkdwn into pieces of at most `limit` characters, preferring paragraph, line, sentence and
 * word boundaries, and never cutting through an escape, a link or an emoji.
 */
export function splitMrkdwn(text: string, limit: number = SLACK_LIMITS.sectionText): string[] {
  if (limit < 16) throw new RangeError("limit must be at least 16 characters");
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    const window = rest.slice(0, limit + 1);
    const floor = Math.floor(limit / 2);
    let cut = -1;
    for (const separator of ["\n\n", "\n", ". ", " "]) {
      const found = window.lastIndexOf(separator, limit - separator.length);
      if (found >= floor) {
        cut = found + separator.length;
        break;
      }
    }
    if (cut < 0) cut = limit;
    cut = safeCutPoint(rest, Math.min(cut, limit));
    if (cut <= 0) cut = limit;
    const piece = rest.slice(0, cut).trimEnd();
    if (piece.length > 0) pieces.push(piece);
    rest = rest.slice(cut).replace(/^\s+/, "");
  }
  if (rest.trim().length > 0) pieces.push(rest.trimEnd());
  return pieces;
}

export function formatPages(pageStart: number | null, pageEnd: number | null): string {
  if (pageStart === null) return "";
  if (pageEnd === null || pageEnd === pageStart) return `p. ${pageStart}`;
  return `pp. ${pageStart}–${pageEnd}`;
}

function shortenQuote(quote: string): string {
  const flat = quote.replace(/\s+/g, " ").trim();
  if (flat.length <= QUOTE_LENGTH) return flat;
  const cut = flat.lastIndexOf(" ", QUOTE_LENGTH - 1);
  return `${flat.slice(0, cut > QUOTE_LENGTH / 2 ? cut : QUOTE_LENGTH - 1)}…`;
}

/** One source line: `[n] <url|Title (file.pdf) — p. N>` (or `— Leave › Annual leave`) and, below it, a short quote. */
export function formatSource(citation: Citation): string {
  // A section's headings come from the document: a URL in one is text, like any quote.
  const place = defangUrls(describeSourcePlace(citation));
  const name = labelDocument(citation.title, citation.file);
  const label = place ? `${name} — ${place}` : name;
  const line = `[${citation.n}] ${formatLink(citation.url, label)}`;
  // The answer already quotes it (an extractive answer is its quotes): the same words twice help no one.
  const quote = citation.quotedInAnswer ? "" : shortenQuote(citation.quote);
  return quote ? `${line}\n> ${escapeMrkdwn(defangUrls(quote))}` : line;
}

export function encodeFeedbackValue(value: FeedbackButtonValue): string {
  return JSON.stringify({ a: value.answerId, s: value.spaceId, ...(value.rating ? { r: value.rating } : {}) });
}

export function decodeFeedbackValue(raw: string): FeedbackButtonValue | null {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== "object" || parsed === null) return null;
    const { a, s, r } = parsed as Record<string, unknown>;
    if (typeof a !== "string" || typeof s !== "string") return null;
    return r === "up" || r === "down" ? { answerId: a, spaceId: s, rating: r } : { answerId: a, spaceId: s };
  } catch {
    return null;
  }
}

/** Slack's native thumbs (a `feedback_buttons` element inside a `context_actions` block). */
export function buildNativeFeedbackBlock(value: FeedbackButtonValue): SlackBlock {
  return {
    type: "context_actions",
    block_id: "folio_feedback",
    elements: [
      {
        type: "feedback_buttons",
        action_id: FEEDBACK_ACTION_NATIVE,
        positive_button: {
          text: { type: "plain_text", text: "👍", emoji: true },
          accessibility_label: "Mark this answer as helpful",
          value: encodeFeedbackValue({ ...value, rating: "up" }),
        },
        negative_button: {
          text: { type: "plain_text", text: "👎", emoji: true },
          accessibility_label: "Mark this answer as not helpful",
          value: encodeFeedbackValue({ ...value, rating: "down" }),
        },
      },
    ],
  };
}

/** The rating of a clicked feedback control: the value's own for the native element, else by button. */
export function feedbackRating(actionId: string, value: FeedbackButtonValue): FeedbackRating | null {
  if (actionId === FEEDBACK_ACTION_UP) return "up";
  if (actionId === FEEDBACK_ACTION_DOWN) return "down";
  if (actionId === FEEDBACK_ACTION_NATIVE) return value.rating ?? null;
  return null;
}

export function buildFeedbackBlock(value: FeedbackButtonValue): SlackBlock {
  const encoded = encodeFeedbackValue(value);
  return {
    type: "actions",
    block_id: "folio_feedback",
    elements: [
      {
        type: "button",
        action_id: FEEDBACK_ACTION_UP,
        text: { type: "plain_text", text: "👍 Helpful", emoji: true },
        value: encoded,
      },
      {
        type: "button",
        action_id: FEEDBACK_ACTION_DOWN,
        text: { type: "plain_text", text: "👎 Not helpful", emoji: true },
        value: encoded,
      },
    ],
  };
}

function section(text: string): SlackBlock {
  return { type: "section", text: { type: "mrkdwn", text } };
}

/** Groups source lines into section blocks of at most one section's length each. */
function sourceSections(citations: Citation[], heading: string): string[] {
  const lines = citations.map(formatSource);
  const sections: string[] = [];
  let current = `*${heading}*`;
  for (const line of lines) {
    for (const piece of splitMrkdwn(line)) {
      if (current.length + 1 + piece.length > SLACK_LIMITS.sectionText) {
        sections.push(current);
        current = piece;
      } else {
        current = `${current}\n${piece}`;
      }
    }
  }
  sections.push(current);
  return sections;
}

/**
 * The final answer as one or more Slack messages (the first replaces the placeholder, the others follow
 * in the thread): answer text, the sources and the feedback buttons, each message within Slack's limits.
 */
export function buildAnswerMessages(
  answer: Answer,
  spaceId: string,
  feedbackStyle: FeedbackStyle = "buttons",
): SlackMessage[] {
  const answerText = markdownToMrkdwn(answer.answer.trim() || "I could not write an answer.");
  const answerPieces = splitMrkdwn(answerText);
  const blocks: Array<{ block: SlackBlock; text: string }> = answerPieces.map((piece) => ({
    block: section(piece),
    text: piece,
  }));
  if (answer.citations.length > 0) {
    blocks.push({ block: { type: "divider" }, text: "" });
    const heading = answer.noContext ? "Closest sources" : "Sources";
    for (const text of sourceSections(answer.citations, heading)) blocks.push({ block: section(text), text: "" });
  }
  const feedback = { answerId: answer.requestId, spaceId };
  const feedbackBlock = feedbackStyle === "native" ? buildNativeFeedbackBlock(feedback) : buildFeedbackBlock(feedback);
  blocks.push({ block: feedbackBlock, text: "" });

  const messages: SlackMessage[] = [];
  let current: SlackMessage = { text: "", blocks: [] };
  for (const { block, text } of blocks) {
    const joined = current.text ? `${current.text}\n\n${text}` : text;
    const full = current.blocks.length + 1 > SLACK_LIMITS.blocksPerMessage || joined.length > SLACK_LIMITS.messageText;
    if (full && current.blocks.length > 0) {
      messages.push(current);
      current = { text, blocks: [block] };
    } else {
      current = { text: text ? joined : current.text, blocks: [...current.blocks, block] };
    }
  }
  messages.push(current);
  // Notifications and thread history read `text`; a sources-only message still needs one.
  for (const message of messages) if (!message.text) message.text = "Sources";
  return messages;
}

/** The message while the answer streams in: plain escaped text, kept under the `text` limit. */
export function buildStreamingText(partial: string): string {
  const budget = SLACK_LIMITS.messageText - 100;
  const escaped = escapeMrkdwn(defangUrls(partial.trim()));
  const shown = escaped.length > budget ? `…${escaped.slice(escaped.length - budget)}` : escaped;
  return `${shown} …`;
}

export function buildStatusText(message: string): string {
  return `_${escapeMrkdwn(message)}_`;
}

export function buildApologyText(requestId: string, detail?: string): string {
  const reason = detail ? ` ${escapeMrkdwn(detail)}` : "";
  return `Sorry — something went wrong while answering.${reason} Reference: \`${requestId}\``;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

const STAGE_WORDS: Record<IngestStage, string> = {
  queued: "Busy with other files; waiting in line to read",
  received: "Received",
  parsing: "Reading",
  chunking: "Splitting",
  embedding: "Reading for meaning",
  indexing: "Indexing",
  done: "Finishing",
};

export function buildIngestProgressText(fileName: string, stage: IngestStage, progress?: IngestProgress): string {
  const share = progress && progress.total > 0 ? ` (${Math.floor((100 * progress.done) / progress.total)}%)` : "";
  return `${STAGE_WORDS[stage]} ${escapeDocumentText(fileName)}…${share}`;
}

function describeSize(result: IngestResult): string {
  return result.pages === null
    ? plural(result.chunks, "chunk")
    : `${plural(result.pages, "page")}, ${plural(result.chunks, "chunk")}`;
}

/**
 * The reply in the file's thread once ingestion has finished, one sentence per outcome; edited with
 * `meaning` while its passages are embedded after it ("embedding 120/310 passages…") and when done.
 */
export function buildIngestResultText(result: IngestResult, meaning?: MeaningUpdate): string {
  const name = escapeDocumentText(result.file);
  if (result.status === "ingested") {
    const outcome = describeIngestOutcome(result, meaning);
    return `Indexed ${name}: ${describeSize(result)}${outcome ? `. ${escapeDocumentText(outcome)}` : ""}`;
  }
  if (result.status === "unchanged") return `${name} is already indexed (${describeSize(result)}) — nothing changed.`;
  const reason = result.error ? escapeDocumentText(result.error.message) : "the file could not be read.";
  return `Could not index ${name}: ${reason}`;
}
