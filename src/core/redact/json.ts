// Redaction pass over a whole JSON-like value (session entries, a request body, a request
// header): every string is scanned with the catalogue, and a string stored under a secret-named
// key (`"apiKey": "…"`, `env: { DB_PASSWORD: "…" }`) is masked whole even without a recognisable
// shape. Returns a redacted copy (unchanged subtrees are shared, never mutated) and the review
// list. Object keys are not scanned. A string that is itself JSON (tool-call arguments) is read as
// JSON too, and a base64 run that decodes to text is scanned decoded (./embedded.ts). Opaque
// provider blobs (image data, thinking signatures, encrypted reasoning) are scanned as they stand
// only: they carry no readable text, so nothing is decoded in them, and an ordinary signature
// matches no pattern; one that does holds a secret and is masked like any other string.
import { applyMasks } from "./apply";
import { base64Secrets, jsonStringSecrets, type InnerSecret } from "./embedded";
import { findSecrets } from "./find";
import { isSecretName } from "./names";
import { childPath } from "./path";
import { isPlaceholderValue } from "./placeholders";
import type { RedactOptions, RedactedValue, RedactionFinding, SecretMatch, SecretPattern } from "./types";
import { isObject } from "../util/is-object";
import { decodeStoredText, isStoredText, type StoredText } from "../text/storedText";
import { isText } from "../text/text";

/** Kind of a value masked because of the key it is stored under. */
export const SECRET_FIELD_KIND = "secret-field";
const SECRET_FIELD_LABEL = "Secret-named field";

/** Shorter object keys are not scanned: no key-shaped secret is that short, and most keys are. */
const MIN_SCANNED_KEY = 16;

/** Deeper values are replaced whole (a hostile file must not overflow the stack). */
const MAX_REDACTION_DEPTH = 512;
export const TOO_DEEP_KIND = "too-deep";
const TOO_DEEP_TEXT = "[redacted: nested too deeply to check]";

/** Keys whose string values are opaque provider data, never scanned (see file header). */
const OPAQUE_KEYS: ReadonlySet<string> = new Set([
  "thinkingSignature",
  "textSignature",
  "thoughtSignature",
  "thought_signature",
  "signature",
  "encrypted_content",
]);

export interface RedactJsonOptions extends RedactOptions {
  /** Decides which string values are opaque (scanned as they stand, never decoded); defaults to `isOpaqueValue`. */
  skip?: (key: string, parent: Readonly<Record<string, unknown>>) => boolean;
}

/** Image payloads and provider signatures (see file header). */
export function isOpaqueValue(key: string, parent: Readonly<Record<string, unknown>>): boolean {
  if (OPAQUE_KEYS.has(key)) return true;
  if (key === "data") {
    return parent.type === "image" || parent.type === "base64" || typeof parent.mimeType === "string" || typeof parent.media_type === "string";
  }
  return false;
}

const LEADING_AUTH_SCHEME = /^(?:Bearer|Basic|Token|bearer|basic)[ \t]{1,4}/;

/** The whole-value match for a string stored under a secret-named key (scheme kept visible). */
function secretFieldMatch(value: string): SecretMatch | null {
  const scheme = LEADING_AUTH_SCHEME.exec(value);
  const start = scheme ? scheme[0].length : 0;
  const secret = value.slice(start);
  if (secret.trim() === "" || isPlaceholderValue(secret)) return null;
  return { kind: SECRET_FIELD_KIND, label: SECRET_FIELD_LABEL, start, end: value.length, value: secret, prefixLength: 0, mask: "edges" };
}

/** Sets a property as own data, even for keys such as `__proto__` (no setter is triggered). */
function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

class Walker {
  readonly findings: RedactionFinding[] = [];
  /** Collect mode (a JSON string's parsed value): the secrets found, nothing masked. */
  readonly collected: InnerSecret[] = [];
  constructor(
    private readonly unmasked: ReadonlySet<string>,
    private readonly catalogue: readonly SecretPattern[] | undefined,
    private readonly skip: (key: string, parent: Readonly<Record<string, unknown>>) => boolean,
    /** How many JSON strings this walk is inside (0: the value itself). */
    private readonly nesting = 0,
    private readonly collect = false,
  ) {}

  /** The secrets of a value parsed from a JSON string, found by a walker of its own. */
  private readonly collectInner = (value: unknown, nesting: number): InnerSecret[] => {
    const inner = new Walker(this.unmasked, this.catalogue, this.skip, nesting, true);
    inner.value(value, "", 0, false);
    return inner.collected;
  };

  string(text: string, path: string, secretKey: boolean, opaque = false): string {
    const extra: SecretMatch[] = [];
    const field = secretKey ? secretFieldMatch(text) : null;
    if (field) extra.push(field);
    if (!opaque) {
      for (const match of jsonStringSecrets(text, this.nesting, this.collectInner)) extra.push(match);
      for (const match of base64Secrets(text, this.catalogue)) extra.push(match);
    }
    const matches = findSecrets(text, this.catalogue, extra);
    if (this.collect) {
      for (const { start: _s, end: _e, ...secret } of matches) this.collected.push(secret);
      return text;
    }
    const applied = applyMasks(text, matches, path, this.unmasked);
    for (const finding of applied.findings) this.findings.push(finding);
    return applied.text;
  }

  /**
   * A stored text (a large text kept as bytes) is scanned decoded; it stays the same reference
   * when nothing in it is masked, and becomes the masked string when something is.
   */
  storedText(text: StoredText, path: string, secretKey: boolean, opaque = false): unknown {
    const decoded = decodeStoredText(text);
    const masked = this.string(decoded, path, secretKey, opaque);
    return masked === decoded ? text : masked;
  }

  value(value: unknown, path: string, depth: number, secretKey: boolean): unknown {
    if (typeof value === "string") return this.string(value, path, secretKey);
    if (isStoredText(value)) return this.storedText(value, path, secretKey);
    if (typeof value !== "object" || value === null) return value;
    if (depth >= MAX_REDACTION_DEPTH) {
      const id = `${TOO_DEEP_KIND}@${path}:0-0`;
      const keep = this.unmasked.has(id);
      this.findings.push({ id, path, start: 0, end: 0, kind: TOO_DEEP_KIND, label: "Value nested too deeply", masked: TOO_DEEP_TEXT, length: 0, unmasked: keep });
      return keep ? value : TOO_DEEP_TEXT;
    }
    if (Array.isArray(value)) {
      let copy: unknown[] | null = null;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        const next = this.value(item, childPath(path, i), depth + 1, secretKey);
        if (next !== item) {
          copy ??= value.slice();
          copy[i] = next;
        }
      }
      return copy ?? value;
    }
    if (!isObject(value)) return value;
    let copy: Record<string, unknown> | null = null;
    for (const key of Object.keys(value)) {
      const item = value[key];
      // A key can come from the data too (Chat Completions names a reasoning field after the
      // thinking signature): a key holding a secret is renamed to its masked text.
      const maskedKey = key.length >= MIN_SCANNED_KEY ? this.string(key, childPath(path, key), false, true) : key;
      if (maskedKey !== key) {
        if (!copy) {
          copy = {};
          for (const original of Object.keys(value)) defineOwn(copy, original, value[original]);
        }
        delete copy[key];
        defineOwn(copy, maskedKey, this.value(item, childPath(path, maskedKey), depth + 1, isSecretName(key)));
        continue;
      }
      const next =
        isText(item) && this.skip(key, value)
          ? typeof item === "string"
            ? this.string(item, childPath(path, key), false, true)
            : this.storedText(item, childPath(path, key), false, true)
          : this.value(item, childPath(path, key), depth + 1, isSecretName(key));
      if (next !== item) {
        if (!copy) {
          copy = {};
          for (const original of Object.keys(value)) defineOwn(copy, original, value[original]);
        }
        defineOwn(copy, key, next);
      }
    }
    return copy ?? value;
  }
}

/** Redacts every string of a JSON-like value; see the file header. */
export function redactJson<T>(value: T, options: RedactJsonOptions = {}): RedactedValue<T> {
  const walker = new Walker(new Set(options.unmasked ?? []), options.catalogue, options.skip ?? isOpaqueValue);
  const redacted = walker.value(value, options.path ?? "", 0, false) as T;
  return { value: redacted, findings: walker.findings };
}
