/**
 * Whether a chat message asks Folio to add a completed questionnaire (the file in the message, or the
 * one shared in the thread) to the conversation's approved answers: "add these as approved answers",
 * "add this to the answer library". A question that merely mentions approved answers is not one. Shared
 * by the chat adapters.
 */
const APPROVED_ANSWERS_REQUEST =
  /\badd\b(?:\s+(?:these|this|them|it|the|this file|these answers|the answers|this questionnaire))?\s+(?:as|to)\s+(?:the\s+|our\s+)?(?:approved\s+answers|answer\s+library)\b/i;

export function isApprovedAnswersRequest(text: string): boolean {
  return APPROVED_ANSWERS_REQUEST.test(text);
}
