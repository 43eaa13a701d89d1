// Public API of the redaction module (see docs/redaction.md).
export { findSecrets } from "./find";
export { redactValue, visibleEdge, FULL_MASK_BELOW, MAX_VISIBLE_EDGE } from "./mask";
export { redactText } from "./text";
export { redactJson, SECRET_FIELD_KIND, TOO_DEEP_KIND } from "./json";
export { redactSession } from "./session";
export { findingId } from "./apply";
export { isSecretName, nameWords } from "./names";
export { scanPrivateKeyBlocks } from "./private-key";
export type { RegexSecretPattern } from "./types";
