// Public API of the export module: request JSON (shared with the Request view) and curl.
export { formatRequestJson, exportRequestJson } from "./request-json";
export { exportCurl, API_ENDPOINTS, ANTHROPIC_VERSION, MODEL_PLACEHOLDER, type CurlExport, type CurlOptions } from "./curl";
export { findNotRecorded, notRecordedWarning } from "./not-recorded";
export { shellQuote, isEnvVariableName } from "./shell-quote";
