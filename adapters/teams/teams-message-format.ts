/**
 * Pure formatting of what Folio says in Teams: the final answer as a message activity whose `[n]`
 * markers are Teams citations (a schema.org `Message` entity with `Claim` entries), the AI-generated
 * label and the feedback loop; the streaming activities of a personal chat; and the short texts for
 * uploads, commands and failures. Plain objects only (no SDK), so every rule is unit-tested.
 */

import type { Answer, Citation } from "../../src/answer/answer-events.js";
import { defangUrls, literalMarkdown } from "../../src/answer/citations/literal-links.js";
import { labelDocumentWithin } from "../../src/domain/document-label.js";
import { describeSection, describeSourcePlace } from "../../src/domain/source-place.js";
import { showInvisibleCharacters } from "../../src/domain/visible-text.js";
import { describeIngestOutcome } from "../../src/ingest/describe-ingest-outcome.js";
import type { IngestResult, MeaningUpdate } from "../../src/ingest/ingest-result.js";

/** Limits Teams enforces on citation appearances; longer values get the message rejected. */
export const TEAMS_CITATION_LIMITS = {
  name: 80,
  abstract: 160,
  citationsPerMessage: 20,
} as const;

/** Teams refuses messages past about 28 KB; keep the text well under it. */
export const TEAMS_TEXT_LIMIT = 24_000;

export const PLACEHOLDER_TEXT = "Searching your documents…";

/** A message or typing activity as Folio sends it: a subset of the Bot Framework Activity. */
export type OutgoingActivity = {
  type: "message" | "typing";
  text?: string;
  textFormat?: "markdown" | "plain";
  entities?: Array<Record<string, unknown>>;
  channelData?: Record<string, unknown>;
};

export type StreamType = "informative" | "streaming" | "final";

/**
 * Text that came from an upload or a document — a file name, a title, a message naming them — as
 * Markdown that links nothing and hides nothing: direction controls shown and zero-width characters
 * dropped (visible-text.ts), links ended and defanged (literal-links.ts). Issue #30: file names were
 * posted as they came.
 */
export function literalDocumentText(text: string): string {
  return literalMarkdown(showInvisibleCharacters(text));
}

/** Shortens to at most `limit` characters, at a word boundary when one is near, ending with `…`. */
export function truncateText(text: string, limit: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= limit) return flat;
  const room = limit - 1;
  const space = flat.lastIndexOf(" ", room);
  let cut = space > room / 2 ? space : room;
  const code = flat.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return `${flat.slice(0, cut).trimEnd()}…`;
}

export function formatPages(pageStart: number | null, pageEnd: number | null): string {
  if (pageStart === null) return "";
  if (pageEnd === null || pageEnd === pageStart) return `p. ${pageStart}`;
  return `pp. ${pageStart}–${pageEnd}`;
}

/** The file-type icon Teams shows beside a citation, from the names Teams knows. */
export function citationIconName(fileName: string): string {
  const extension = fileName.toLowerCase().split(".").pop() ?? "";
  if (extension === "pdf") return "PDF";
  if (extension === "docx" || extension === "doc") return "Microsoft Word";
  if (["xlsx", "xls", "csv"].includes(extension)) return "Microsoft Excel";
  return "Text";
}

/** A section path past this many characters is named by its last heading: the title line has 80 in all. */
const SECTION_LIMIT = 36;

/** "p. 3", "Leave › Annual leave", or the last heading alone ("Annual leave") when the path is long. */
function placeOf(citation: Citation): string {
  const place = describeSourcePlace(citation);
  if (citation.pageStart !== null || place.length <= SECTION_LIMIT) return place;
  return truncateText(describeSection((citation.section ?? []).slice(-1)), SECTION_LIMIT);
}

/** The citation's title line: the document's title, its file name and its page or section, within Teams' 80 characters. */
export function citationName(citation: Citation): string {
  const place = defangUrls(placeOf(citation));
  const suffix = place ? ` — ${place}` : "";
  // The pages are what makes the citation checkable, so the title gives way to them (then to the file name).
  // A title comes from the document (PDF metadata, a heading): a URL in it is text, like any quote.
  const label = labelDocumentWithin(
    defangUrls(citation.title),
    defangUrls(citation.file),
    TEAMS_CITATION_LIMITS.name - suffix.length,
    truncateText,
  );
  return `${label}${suffix}`;
}

export type TeamsClaim = {
  "@type": "Claim";
  position: number;
  appearance: {
    "@type": "DigitalDocument";
    name: string;
    abstract: string;
    url: string;
    image: { "@type": "ImageObject"; name: string };
  };
};

export function buildClaim(citation: Citation): TeamsClaim {
  return {
    "@type": "Claim",
    position: citation.n,
    appearance: {
      "@type": "DigitalDocument",
      name: citationName(citation),
      abstract: truncateText(defangUrls(citation.quote), TEAMS_CITATION_LIMITS.abstract),
      url: citation.url,
      image: { "@type": "ImageObject", name: citationIconName(citation.file) },
    },
  };
}

/** The entity that turns `[n]` into citations and shows the "AI generated" label. */
export function buildMessageEntity(citations: Citation[]): Record<string, unknown> {
  return {
    type: "https://schema.org/Message",
    "@type": "Message",
    "@context": "https://schema.org",
    "@id": "",
    additionalType: ["AIGeneratedContent"],
    citation: citations.slice(0, TEAMS_CITATION_LIMITS.citationsPerMessage).map(buildClaim),
  };
}

/** Keeps the text under Teams' size limit without cutting a surrogate pair. */
export function limitText(text: string, limit: number = TEAMS_TEXT_LIMIT): string {
  if (text.length <= limit) return text;
  let cut = limit - 1;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return `${text.slice(0, cut)}…`;
}

/**
 * The answer text: the core's Markdown (Teams renders its emphasis) made literal where it could link,
 * and every citation the text does not mark listed with its marker — for a no-context answer the closest
 * sources, else the further sources an answer that leads with a direct answer leaves out of its quotes —
 * because Teams shows a citation only where its `[n]` stands in the text.
 */
export function buildAnswerText(answer: Answer): string {
  const body = literalMarkdown(answer.answer.trim() || "I could not write an answer.");
  const cited = answer.citations.slice(0, TEAMS_CITATION_LIMITS.citationsPerMessage);
  const unmarked = answer.noContext ? cited : cited.filter((citation) => !body.includes(`[${citation.n}]`));
  if (unmarked.length === 0) return limitText(body);
  const heading = answer.noContext ? "**Closest sources:**" : "**Further sources:**";
  const lines = unmarked.map((citation) => `- ${citationName(citation)} [${citation.n}]`);
  return limitText([body, "", heading, ...lines].join("\n"));
}

export function streamInfoEntity(
  streamType: StreamType,
  options: { streamId?: string | null; sequence?: number },
): Record<string, unknown> {
  return {
    type: "streaminfo",
    streamType,
    ...(options.streamId ? { streamId: options.streamId } : {}),
    ...(options.sequence !== undefined ? { streamSequence: options.sequence } : {}),
  };
}

/** The final answer as one message: text with markers, the citation entity, the feedback loop. */
export function buildAnswerActivity(answer: Answer, stream?: { streamId: string } | null): OutgoingActivity {
  const entities: Array<Record<string, unknown>> = [buildMessageEntity(answer.citations)];
  if (stream) entities.unshift(streamInfoEntity("final", { streamId: stream.streamId }));
  return {
    type: "message",
    text: buildAnswerText(answer),
    textFormat: "markdown",
    entities,
    channelData: { feedbackLoopEnabled: true },
  };
}

/** An informative or streaming update of a personal chat's streamed answer (a typing activity). */
export function buildStreamingActivity(
  streamType: "informative" | "streaming",
  text: string,
  options: { streamId: string | null; sequence: number },
): OutgoingActivity {
  return {
    type: "typing",
    text: streamType === "streaming" ? limitText(literalMarkdown(text)) : text,
    entities: [streamInfoEntity(streamType, options)],
  };
}

export function buildApologyText(requestId: string, detail?: string): string {
  const reason = detail ? ` ${detail}` : "";
  return `Sorry — something went wrong while answering.${reason} Reference: \`${requestId}\``;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function describeSize(result: IngestResult): string {
  return result.pages === null
    ? plural(result.chunks, "chunk")
    : `${plural(result.pages, "page")}, ${plural(result.chunks, "chunk")}`;
}

/**
 * The reply once an upload has been handled, one sentence per outcome; edited with `meaning` while its
 * passages are embedded after it and when they are (teams-meaning-follower.ts).
 */
export function buildIngestResultText(result: IngestResult, target?: string | null, meaning?: MeaningUpdate): string {
  const where = target ? ` for ${target}` : "";
  if (result.status === "ingested") {
    const outcome = describeIngestOutcome(result, meaning);
    return `Indexed ${literalDocumentText(result.file)}${where}: ${describeSize(result)}${outcome ? `. ${literalDocumentText(outcome)}` : ""}`;
  }
  if (result.status === "unchanged") {
    return `${literalDocumentText(result.file)} is already indexed${where} (${describeSize(result)}) — nothing changed.`;
  }
  const reason = result.error ? literalDocumentText(result.error.message) : "the file could not be read.";
  return `Could not index ${literalDocumentText(result.file)}: ${reason}`;
}

/** The reply to a file posted in a channel or group chat, which a bot receives only as a SharePoint link. */
export function buildChannelFileText(names: string[], uploadCode: string, kind: "channel" | "groupChat" | "personal") {
  const where = kind === "channel" ? "this channel" : "this chat";
  return `I can't open files posted here: Teams keeps them in SharePoint, out of a bot's reach. To add ${names.map(literalDocumentText).join(", ")} to ${where}'s documents, send it to me in a 1:1 chat with the message \`channel ${uploadCode}\`.`;
}
