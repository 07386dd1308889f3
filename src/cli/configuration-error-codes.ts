/**
 * FolioError codes that mean "the set-up is wrong" (a model that is not where the configuration says,
 * a port that cannot be had): the command line exits 3 for these, as for a bad variable, because the
 * fix is in the environment, not in the command or a retry.
 */
const CONFIGURATION_ERROR_CODES = new Set([
  "model_missing",
  "model_invalid",
  "model_unusable",
  "model_not_downloadable",
  "embedder_missing",
  "llm_model_not_found",
  "llm_runtime_missing",
  "prompts_missing",
  "console_assets_missing",
  "port_in_use",
  "port_not_allowed",
]);

export function isConfigurationErrorCode(code: string): boolean {
  return CONFIGURATION_ERROR_CODES.has(code);
}
