/**
 * Whether a chat message asks Folio to answer a questionnaire ("answer this questionnaire", "fill in
 * the RFP"), as opposed to a question that merely mentions one. Shared by the chat adapters.
 */
const QUESTIONNAIRE_REQUEST =
  /\b(answer|fill(?:\s+in|\s+out)?|complete)\s+(this|the|that|my|our)\s+(questionnaire|rfp|security review|form)\b/i;

export function isQuestionnaireRequest(text: string): boolean {
  return QUESTIONNAIRE_REQUEST.test(text);
}

/** "cancel the questionnaire", "stop this RFP", "cancel". */
const QUESTIONNAIRE_CANCEL =
  /^\s*(?:<@[^>]+>\s*)?(?:please\s+)?(cancel|stop)(\s+(this|the|that|my)?\s*(questionnaire|rfp))?[\s.!]*$/i;

export function isQuestionnaireCancel(text: string): boolean {
  return QUESTIONNAIRE_CANCEL.test(text);
}
