/**
 * The LLM's prompts are plain files in prompts/ (versioned, reviewed like code), read once at start
 * from the directory that holds package.json — src/ under tsx, dist/src/ once compiled, /app in the
 * image (the Dockerfile copies prompts/). Each file starts with `<!-- prompt: NAME vN -->`; the
 * versions are logged with every generated answer so a change of wording can be traced in the logs.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FolioError } from "../../errors.js";

export type PromptTemplate = { name: string; version: string; text: string };

export type AnswerPrompts = {
  system: PromptTemplate;
  /** One numbered source: {{n}}, {{title}}, {{pages}}, {{text}}. */
  source: PromptTemplate;
  /** The user message: {{sources}}, {{facts}} (the facts block, or nothing), {{question}}. */
  question: PromptTemplate;
  /** The facts the code worked out, one "- statement [n]" a line: {{facts}}. */
  facts: PromptTemplate;
  /** A thread follow-up made standalone: {{history}}, {{question}} (llm-follow-up-rewrite.ts). */
  rewriteFollowUp: PromptTemplate;
};

const VERSION_LINE = /^<!--\s*prompt:\s*([a-z0-9-]+)\s+(v\d+)\s*-->\r?\n/;
const PLACEHOLDER = /\{\{(\w+)\}\}/g;

export function locatePromptsDirectory(moduleUrl: string = import.meta.url): string {
  let directory = path.dirname(fileURLToPath(moduleUrl));
  for (;;) {
    const prompts = path.join(directory, "prompts");
    if (existsSync(path.join(directory, "package.json")) && existsSync(prompts)) return prompts;
    const parent = path.dirname(directory);
    if (parent === directory) {
      throw new FolioError(
        "prompts_missing",
        "The prompt files (prompts/*.md) were not found above the installed code — reinstall Folio from its repository or image.",
      );
    }
    directory = parent;
  }
}

/** Reads a template and its version line; the version line is not part of the prompt. */
export function parsePromptTemplate(name: string, content: string): PromptTemplate {
  const header = VERSION_LINE.exec(content);
  if (!header || header[1] !== name) {
    throw new FolioError(
      "prompt_template_invalid",
      `prompts/${name}.md must start with "<!-- prompt: ${name} v1 -->" (its name and version).`,
    );
  }
  return { name, version: header[2] as string, text: content.slice(header[0].length).trim() };
}

async function loadPromptTemplate(directory: string, name: string): Promise<PromptTemplate> {
  const file = path.join(directory, `${name}.md`);
  const content = await readFile(file, "utf8").catch((error: unknown) => {
    throw new FolioError("prompts_missing", `Cannot read ${file} — restore it from the repository.`, { cause: error });
  });
  return parsePromptTemplate(name, content);
}

export async function loadAnswerPrompts(directory: string = locatePromptsDirectory()): Promise<AnswerPrompts> {
  const [system, source, question, facts, rewriteFollowUp] = await Promise.all(
    ["answer-system", "answer-sources", "answer-question", "answer-facts", "rewrite-follow-up"].map((name) =>
      loadPromptTemplate(directory, name),
    ),
  );
  return {
    system: system as PromptTemplate,
    source: source as PromptTemplate,
    question: question as PromptTemplate,
    facts: facts as PromptTemplate,
    rewriteFollowUp: rewriteFollowUp as PromptTemplate,
  };
}

/**
 * The template with each {{name}} replaced, in one pass: text put in (a source that itself says
 * "{{question}}") is never expanded again.
 */
export function fillTemplate(template: PromptTemplate, values: Readonly<Record<string, string>>): string {
  return template.text.replace(PLACEHOLDER, (placeholder, key: string) => {
    const value = values[key];
    if (value === undefined) {
      throw new FolioError(
        "prompt_template_invalid",
        `prompts/${template.name}.md uses ${placeholder}, which is not filled.`,
      );
    }
    return value;
  });
}

/** "answer-system v1, answer-sources v1, …" for the logs. */
export function describePromptVersions(prompts: AnswerPrompts): string {
  return [prompts.system, prompts.source, prompts.question, prompts.facts]
    .map((prompt) => `${prompt.name} ${prompt.version}`)
    .join(", ");
}
