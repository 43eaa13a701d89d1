// Public API of the export module: request JSON (shared with the Request view) and curl.
export { formatRequestJson, exportRequestJson } from "./request-json";
export { exportCurl } from "./curl";
export { findNotRecorded, notRecordedWarning } from "./not-recorded";
export { shellQuote } from "./shell-quote";
