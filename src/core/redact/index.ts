// Public API of the redaction module (see docs/redaction.md).
export { SECRET_CATALOGUE, getSecretPattern } from "./catalogue";
export { findSecrets } from "./find";
export { redactValue, visibleEdge, hiddenMarker, FULL_MASK_BELOW, MAX_VISIBLE_EDGE, type MaskOptions } from "./mask";
export { redactText } from "./text";
export {
  redactJson,
  isOpaqueValue,
  SECRET_FIELD_KIND,
  TOO_DEEP_KIND,
  MAX_REDACTION_DEPTH,
  type RedactJsonOptions,
} from "./json";
export { redactSession, type RedactSessionOptions } from "./session";
export { findingId } from "./apply";
export { isSecretName, nameWords } from "./names";
export { isPlaceholderValue } from "./placeholders";
export { scanPrivateKeyBlocks } from "./private-key";
export type {
  MaskStyle,
  RedactOptions,
  RedactedText,
  RedactedValue,
  RedactionFinding,
  RegexSecretPattern,
  ScannerSecretPattern,
  ScanStats,
  SecretMatch,
  SecretPattern,
} from "./types";
