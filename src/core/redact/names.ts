// Which field and variable names hold secrets (`OPENAI_API_KEY`, `dbPassword`, `client_secret`,
// `x-api-key`, …). Used by the assignment patterns of the catalogue (`KEY=value`, `"key": "v"`,
// YAML `key: v`) and by the structured walk (an object key naming a secret masks its string value).
// A name is split into words (snake, kebab, dot and camel case); only its LAST word decides, so
// `password_min_length` and `max_tokens` are not secrets while `PGPASSWORD` and `accessToken` are.

/** Last words that always name a secret. */
const SECRET_LAST_WORDS: ReadonlySet<string> = new Set([
  "secret",
  "password",
  "passwd",
  "pwd",
  "pass",
  "passphrase",
  "token",
  "credential",
  "credentials",
  "apikey",
  "secretkey",
  "privatekey",
  "accesskey",
  "auth",
  "authorization",
  "cookie",
  "dsn",
]);

/** Run-together last words that end like a secret word (`pgpassword`, `mysecret`, `authtoken`). */
const SECRET_SUFFIXES: readonly string[] = ["password", "passwd", "secret", "token", "apikey"];

/**
 * `key` names a secret only after a qualifier (`api_key`, `STRIPE_KEY`, `private_key`); these
 * qualifiers name keys that are identifiers, not credentials (`prompt_cache_key`, `primary_key`).
 */
const NON_SECRET_KEY_QUALIFIERS: ReadonlySet<string> = new Set([
  "cache",
  "idempotency",
  "partition",
  "sort",
  "primary",
  "foreign",
  "public",
  "routing",
  "lookup",
  "row",
  "translation",
  "i18n",
  "unique",
  "composite",
  "shard",
  "dedup",
  "dedupe",
  "index",
  "react",
  "map",
  "hash",
  "group",
  "message",
  "shortcut",
  "hot",
  "sequence",
  "object",
  "column",
  "table",
  "entity",
  "cursor",
  "page",
  "query",
  "turn",
  "entry",
  "item",
  "node",
  "field",
  "record",
]);

/** Splits `OPENAI_API_KEY`, `apiKey`, `x-api-key`, `spring.datasource.password`, `APIKey` into words. */
export function nameWords(name: string): string[] {
  const spaced = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]{1,64})([A-Z][a-z])/g, "$1 $2")
    .replace(/[_.\-\s]{1,64}/g, " ")
    .trim()
    .toLowerCase();
  return spaced === "" ? [] : spaced.split(" ");
}

/** True when a variable, header or field name says its value is a secret. */
export function isSecretName(name: string): boolean {
  if (name.length > 128) return false;
  const words = nameWords(name);
  const last = words[words.length - 1];
  if (last === undefined) return false;
  if (SECRET_LAST_WORDS.has(last)) return true;
  if (SECRET_SUFFIXES.some((suffix) => last.length > suffix.length && last.endsWith(suffix))) return true;
  if (last === "key") {
    const qualifier = words[words.length - 2];
    return qualifier !== undefined && !NON_SECRET_KEY_QUALIFIERS.has(qualifier);
  }
  return false;
}
