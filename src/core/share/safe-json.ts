// JSON parsing for untrusted share data. `JSON.parse` itself defines `__proto__` as a plain own
// property, but code that later copies such an object with assignment (Object.assign, a merge)
// would call the `__proto__` setter and change the copy's prototype. Share payloads therefore
// refuse the key outright; `constructor` and `prototype` are harmless as own data properties and
// are kept in free-form parts (a tool schema may have a property called "constructor"), while the
// strict validator rejects them wherever the payload shape is fixed. Free-form values are copied
// into fresh objects with defineProperty (no setter is ever called) and a depth limit.
import { fail } from "./errors";

const FORBIDDEN_KEY = "__proto__";

export function parseJsonSafely(text: string, what: string): unknown {
  try {
    return JSON.parse(text, (key, value: unknown) => {
      if (key === FORBIDDEN_KEY) throw new ForbiddenKeyError();
      return value;
    });
  } catch (error) {
    if (error instanceof ForbiddenKeyError) fail("invalid-payload", `${what} contains the forbidden key "__proto__"`);
    const detail = error instanceof Error ? error.message : String(error);
    fail("corrupted", `${what} is not valid JSON: ${detail}`);
  }
}

class ForbiddenKeyError extends Error {}

/** Deepest free-form value accepted in a payload. */
const MAX_FREE_FORM_DEPTH = 64;

/** A fresh deep copy of parsed JSON, built without ever calling a property setter. */
export function copyJsonValue(value: unknown, path: string, depth = 0): unknown {
  if (depth > MAX_FREE_FORM_DEPTH) fail("invalid-payload", `${path}: nested more than ${MAX_FREE_FORM_DEPTH} levels`);
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) fail("invalid-payload", `${path}: not a finite number`);
    return value;
  }
  if (Array.isArray(value)) return value.map((item, index) => copyJsonValue(item, `${path}[${index}]`, depth + 1));
  if (typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      if (key === FORBIDDEN_KEY) fail("invalid-payload", `${path}: forbidden key "__proto__"`);
      Object.defineProperty(out, key, {
        value: copyJsonValue((value as Record<string, unknown>)[key], `${path}.${key}`, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  fail("invalid-payload", `${path}: not a JSON value`);
}
