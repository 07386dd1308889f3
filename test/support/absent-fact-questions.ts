/**
 * Questions a Contoso employee could plausibly ask that the Northwind QA documents (health plans,
 * benefit options, employee handbook, PerksPlus, role library, a market report) do not answer. Each was
 * checked against `pdftotext` of the seven PDFs: the fact asked for is not there. Several share words
 * with the documents on purpose ("password", "referral", "donation", "reimbursement", "time off",
 * "revenue"), so they are hard negatives for a term-coverage rule, not only off-topic trivia.
 * Used by the no-context calibration (bench/no-context-calibration.ts) and test/integration/no-context.test.ts.
 */
export const ABSENT_FACT_QUESTIONS: readonly string[] = [
  "What is the CEO's favourite pizza topping?",
  "How many moons does Jupiter have?",
  "What is the Wi-Fi password for the guest network?",
  "How many parking spaces are reserved for visitors at headquarters?",
  "Can I bring my dog to the office?",
  "Who won the 2018 FIFA World Cup?",
  "What time does the cafeteria close on Fridays?",
  "How do I reset my VPN token?",
  "When is the annual company picnic?",
  "Which airline should I book for business travel to Tokyo?",
  "What is the meal per diem for business trips to London?",
  "How do I request a new laptop from IT?",
  "What is the dress code for client meetings?",
  "Does Contoso match employee donations to charities?",
  "How many weeks of paid parental leave do adoptive parents get?",
  "Which programming languages does the mobile app team use?",
  "How many employees work in the Dublin office?",
  "What is the deadline for submitting quarterly OKRs?",
  "Who is the on-call engineer this weekend?",
  "What was Contoso's revenue in the third quarter of 2022?",
  "How do I book a conference room in the Redmond building?",
  "What is the company's carbon emissions target for 2030?",
  "What is the shuttle schedule between campus buildings?",
  "How much is the employee referral bonus for hiring a software engineer?",
  "What is the boiling point of water at sea level?",
  "How many days of paid vacation do new employees get?",
  "Does the company offer tuition reimbursement for graduate degrees?",
  "What severance package do laid-off employees receive?",
  "Is there a relocation allowance for employees moving to another country?",
  "What is the 401(k) employer match percentage?",
];
