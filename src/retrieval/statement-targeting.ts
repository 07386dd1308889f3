/**
 * Statement targeting: a question that names a financial statement ("… shown in the cash flow
 * statement", "What was the largest liability in the balance sheet?") is answered on that statement's
 * page, yet prose pages that discuss the same line items ("capital expenditures were …") share more of
 * the question's words. Among the retrieved candidates, the passages indexed under that statement's
 * title (pdf-headings.ts keeps a statement's title above everything on its page) form a second list,
 * fused with the whole ranking by reciprocal rank fusion at equal weight: they count twice, yet a
 * better passage elsewhere can still come first. A question naming no statement is left as ranked.
 *
 * Statement names are matched by their accounting synonyms (financial-statements.ts): "income
 * statement" finds "Consolidated Statements of Operations". Nothing here knows a company or a report.
 */
import { type FinancialStatement, statementOfPassage } from "../domain/financial-statements.js";
import type { SearchResult } from "../domain/types.js";
import { fuseReciprocalRanks } from "../stores/reciprocal-rank-fusion.js";

/** Candidates looked through for the named statements' passages when a question names one. */
export const STATEMENT_CANDIDATES = 50;

/**
 * The ranking with the passages of the named statements preferred (see the module comment). When the
 * question also names documents (document-targeting.ts), only their statements are preferred: "3M's
 * cash flow statement" is not another company's.
 */
export function preferNamedStatements(
  results: SearchResult[],
  statements: readonly FinancialStatement[],
  options: { k: number; limit: number; documentIds?: readonly string[] | null },
): SearchResult[] {
  if (statements.length === 0) return results.slice(0, options.limit);
  const documentIds = options.documentIds ? new Set(options.documentIds) : null;
  const named = results.filter((result) => {
    const statement = statementOfPassage(result.provenance);
    return (
      statement !== null &&
      statements.includes(statement) &&
      (documentIds === null || documentIds.has(result.documentId))
    );
  });
  // A statement is its table: the prose left on a page whose table was found ("See accompanying notes…",
  // a page number, the next statement's title) is indexed under its title too, but holds none of its
  // figures. A statement page whose table was not found is all prose, and that prose is preferred.
  const tables = named.filter((result) => result.kind === "table");
  const preferred = named.filter(
    (result) => result.kind === "table" || !tables.some((table) => sharesPage(table, result)),
  );
  if (preferred.length === 0) return results.slice(0, options.limit);
  return fuseReciprocalRanks(
    [
      { results: preferred, weight: 1 },
      { results, weight: 1 },
    ],
    { k: options.k, limit: options.limit },
  );
}

/** Whether two passages of one document share a page. */
function sharesPage(left: SearchResult, right: SearchResult): boolean {
  if (left.documentId !== right.documentId || left.pageStart === null || right.pageStart === null) return false;
  return left.pageStart <= (right.pageEnd ?? right.pageStart) && right.pageStart <= (left.pageEnd ?? left.pageStart);
}
