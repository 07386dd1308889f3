/**
 * The checks that involve more than one variable (each variable's own range is in config-variables.ts):
 * settings that only work together, a chat platform half configured, numbers that must stay in order.
 */
import type { ConfigProblem } from "./config-error.js";
import type { ConfigVariableName } from "./config-variables.js";
import type { ReadVariables } from "./read-config-variables.js";

type Rule = (read: ReadVariables) => ConfigProblem[];

function requireTogether(names: ConfigVariableName[], purpose: string): Rule {
  return ({ isSet }) => {
    const present = names.filter((name) => isSet(name));
    if (present.length === 0 || present.length === names.length) return [];
    const missing = names.filter((name) => !present.includes(name));
    return [
      { variable: missing.join(", "), problem: `must be set together with ${present.join(", ")} for ${purpose}` },
    ];
  };
}

const slackTokens: Rule = ({ isSet }) => {
  if (isSet("SLACK_BOT_TOKEN")) {
    if (isSet("SLACK_SIGNING_SECRET") || isSet("SLACK_APP_TOKEN")) return [];
    return [
      {
        variable: "SLACK_SIGNING_SECRET",
        problem: "set it (HTTP mode) or SLACK_APP_TOKEN (Socket Mode) together with SLACK_BOT_TOKEN",
      },
    ];
  }
  if (!isSet("SLACK_SIGNING_SECRET") && !isSet("SLACK_APP_TOKEN")) return [];
  return [{ variable: "SLACK_BOT_TOKEN", problem: "is required when SLACK_SIGNING_SECRET or SLACK_APP_TOKEN is set" }];
};

const teamsTenant: Rule = ({ values, isSet, isBad }) => {
  const singleTenant = !isBad("MICROSOFT_APP_TYPE") && values.MICROSOFT_APP_TYPE === "single-tenant";
  if (!isSet("MICROSOFT_APP_ID") || !singleTenant || isSet("MICROSOFT_APP_TENANT_ID")) return [];
  return [
    {
      variable: "MICROSOFT_APP_TENANT_ID",
      problem:
        "is required for a single-tenant bot (the default): set your Entra tenant id, or MICROSOFT_APP_TYPE=MultiTenant",
    },
  ];
};

const chunkOverlap: Rule = ({ values }) =>
  values.FOLIO_CHUNK_OVERLAP >= values.FOLIO_CHUNK_TOKENS
    ? [{ variable: "FOLIO_CHUNK_OVERLAP", problem: "must be smaller than FOLIO_CHUNK_TOKENS" }]
    : [];

/** A write consistency above the replication factor could never be met. */
const qdrantWriteConsistency: Rule = ({ values, isSet }) => {
  const replicas = values.QDRANT_REPLICATION_FACTOR;
  const needed = values.QDRANT_WRITE_CONSISTENCY_FACTOR;
  if (!isSet("QDRANT_URL") || needed <= replicas) return [];
  return [
    {
      variable: "QDRANT_WRITE_CONSISTENCY_FACTOR",
      problem: `${needed} copies can never acknowledge a write when QDRANT_REPLICATION_FACTOR is ${replicas}; set it to ${replicas} or less`,
    },
  ];
};

const RULES: Rule[] = [
  requireTogether(["LLM_BASE_URL", "LLM_MODEL"], "an OpenAI-compatible LLM server"),
  slackTokens,
  requireTogether(["MICROSOFT_APP_ID", "MICROSOFT_APP_PASSWORD"], "Microsoft Teams"),
  teamsTenant,
  chunkOverlap,
  qdrantWriteConsistency,
];

export function checkConfigRules(read: ReadVariables): ConfigProblem[] {
  return RULES.flatMap((rule) => rule(read));
}
