/**
 * What adapters and the command line may do with a space's approved answers (FolioCore.approvedAnswers):
 * add a completed questionnaire, list, remove. Matching is ApprovedAnswerSource's job.
 */
import type { AddQuestionnaireRequest, AddQuestionnaireResult } from "./approved-answer-library.js";
import type { ApprovedAnswerRecord } from "./approved-answer-store.js";

export interface ApprovedAnswers {
  addQuestionnaire(request: AddQuestionnaireRequest): Promise<AddQuestionnaireResult>;
  list(spaceId: string): Promise<ApprovedAnswerRecord[]>;
  /** False when the space holds no approved answer with this id. */
  remove(spaceId: string, id: string): Promise<boolean>;
}

/** An approved answer as JSON (CLI --json, console and local API): the record, its time as ISO 8601. */
export type ApprovedAnswerJson = Omit<ApprovedAnswerRecord, "addedAt"> & { addedAt: string };

export function toApprovedAnswerJson(record: ApprovedAnswerRecord): ApprovedAnswerJson {
  return { ...record, addedAt: record.addedAt.toISOString() };
}
