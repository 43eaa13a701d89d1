// Public surface of `check`: the finding kinds and the whole-session check.
export { CHECK_KIND_IDS } from "./kinds";
export type { CheckFinding, CheckKindId } from "./kinds";
export { checkSession } from "./checkSession";
