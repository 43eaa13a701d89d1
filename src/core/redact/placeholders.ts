// Values that sit where a secret would but are not one: references to a variable (`$API_KEY`,
// `${TOKEN}`, `%PASSWORD%`, `process.env.X`), template slots (`<your-key>`, `{{token}}`), masks
// (`****`, `xxxx`, an earlier redaction) and a few words people write instead of a value. The
// assignment patterns skip them so that the review list is not flooded with non-secrets.

const PLACEHOLDER_WORDS: ReadonlySet<string> = new Set([
  "",
  "changeme",
  "change_me",
  "example",
  "placeholder",
  "secret",
  "password",
  "token",
  "string",
  "number",
  "boolean",
  "any",
  "unknown",
  "object",
  "null",
  "none",
  "nil",
  "undefined",
  "true",
  "false",
  "redacted",
  "hidden",
  "required",
  "optional",
  "bearer",
  "basic",
  "...",
  "\u2026",
]);

const VARIABLE_REFERENCE = /^(?:\$\{?[A-Za-z_][A-Za-z0-9_]{0,127}\}?|%[A-Za-z_][A-Za-z0-9_]{0,127}%|\{\{[^{}]{0,128}\}\}|<[^<>]{0,128}>)$/;
const MASK_ONLY = /^(?:[*x•#.\-_]|X){1,512}$/;
const ENV_LOOKUP = /^(?:process\.env|os\.environ|os\.getenv|env\(|getenv|import\.meta\.env|Deno\.env)/;

/** True for a value that is not itself a secret (see file header). */
export function isPlaceholderValue(value: string): boolean {
  const trimmed = value.trim();
  if (PLACEHOLDER_WORDS.has(trimmed.toLowerCase())) return true;
  // An earlier mask (`sk-proj-Abcd…[redacted 42 chars]…ijkl`): its visible head ends with "…".
  if (trimmed.includes("[redacted ") || trimmed.includes("\u2026")) return true;
  if (VARIABLE_REFERENCE.test(trimmed)) return true;
  if (MASK_ONLY.test(trimmed)) return true;
  if (ENV_LOOKUP.test(trimmed)) return true;
  if (/^your[-_ ]/i.test(trimmed)) return true;
  return false;
}
