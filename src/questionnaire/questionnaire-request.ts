/**
 * Whether a chat message asks Folio to answer a questionnaire ("answer this questionnaire", "fill in
 * the RFP"), as opposed to a question that merely mentions one. Shared by the chat adapters.
 */
const QUESTIONNAIRE_REQUEST =
  /\b(answer|fill(?:\s+in|\s+out)?|complete)\s+(this|the|that|my|our)\s+(questionnaire|rfp|security review|form)\b/i;

export function isQuestionnaireRequest(text: string): boolean {
  return QUESTIONNAIRE_REQUEST.test(text);
}
