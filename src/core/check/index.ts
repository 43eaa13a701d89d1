// Public surface of `check`: the finding kinds and the whole-session check.
export { CHECK_KINDS, CHECK_KIND_IDS, EXPECTED_BREAK_CAUSES, checkKind } from "./kinds";
export type { CheckFinding, CheckKind, CheckKindId, CheckSeverity } from "./kinds";
export { checkSession } from "./checkSession";
export type { CheckOptions } from "./checkSession";
export { noteMoved } from "./turnFindings";
