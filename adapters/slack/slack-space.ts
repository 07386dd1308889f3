/**
 * Which Folio spaces a Slack conversation maps to: a channel's documents live in
 * `slack:<team>:<channel>`, a direct message's in `slack:<team>:user:<user>`, and questions may also
 * search the shared library space when one is configured.
 */
import type { SpaceId } from "../../src/domain/types.js";

export type SlackConversation = {
  teamId: string;
  channelId: string;
  userId: string;
  isDirectMessage: boolean;
};

/** Direct-message channel ids start with `D`; events also say `channel_type: "im"`. */
export function isDirectMessageChannel(channelId: string, channelType?: string): boolean {
  if (channelType !== undefined) return channelType === "im";
  return channelId.startsWith("D");
}

export function spaceIdForConversation(conversation: SlackConversation): SpaceId {
  return conversation.isDirectMessage
    ? `slack:${conversation.teamId}:user:${conversation.userId}`
    : `slack:${conversation.teamId}:${conversation.channelId}`;
}

/** The spaces a question may search: the conversation's own, then the library (if any). */
export function searchSpaceIds(spaceId: SpaceId, librarySpaceId: string | null): SpaceId[] {
  return librarySpaceId && librarySpaceId !== spaceId ? [spaceId, librarySpaceId] : [spaceId];
}
