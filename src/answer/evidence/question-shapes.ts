/**
 * Two shapes of a figure question that decide which reader looks its figure up: a plain lookup of a value
 * ("What was Nike's revenue in 2018?"), looked up the way filings print line items, and a comparison of two
 * companies ("Amazon's 2016 net income with Nike's"), each side looked up in its own document.
 */
import type { SearchResult } from "../../domain/types.js";
import type { QuestionAnalysis } from "../question/question-analysis.js";
import type { DocumentFactsIndex } from "./evidence-coverage.js";
import { readTableQuestion } from "./tables/table-question.js";

type ShapeInput = { need: string; analysis: QuestionAnalysis; results: SearchResult[]; facts: DocumentFactsIndex };

/** A value asked of a company's statements: one figure, no calculation. */
export function isPlainLookup(input: Pick<ShapeInput, "need" | "analysis">): boolean {
  return input.analysis.kind === "figure" && readTableQuestion(input.need).operation === "lookup";
}

/** "Amazon's", "Nike’s", "Sales of the Ulta Beauty's": a name written as an owner is a company or a person. */
function writtenAsOwner(question: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`\\b${escaped}['’]s?\\b`, "i").test(question);
}

/**
 * Whether a comparison's names are two sides — each with a found document about it and not about the
 * other ("Amazon" and "Nike", each with its own filing), or written as an owner ("Amazon's 2016 net
 * income", whose filing the question's search may not have found) — unlike two segments or line items of
 * one company ("Cubic Mission Solutions" and "Cubic Global Defense", "Cost of revenue").
 */
export async function comparesCompanies(input: ShapeInput): Promise<boolean> {
  const { entities } = input.analysis;
  if (input.analysis.kind !== "comparison" || entities.length < 2) return false;
  const aboutDocuments = new Map<string, Set<string>>();
  for (const entity of entities) {
    const documents = new Set<string>();
    for (const result of input.results)
      if ((await input.facts.mentions(result, entity)) === "subject") documents.add(result.documentId);
    aboutDocuments.set(entity, documents);
  }
  const ownDocument = (entity: string, other: string) =>
    [...(aboutDocuments.get(entity) ?? [])].some((documentId) => !aboutDocuments.get(other)?.has(documentId));
  const isSide = (entity: string, other: string) => ownDocument(entity, other) || writtenAsOwner(input.need, entity);
  return entities.some((entity, index) =>
    entities.slice(index + 1).some((other) => isSide(entity, other) && isSide(other, entity)),
  );
}
