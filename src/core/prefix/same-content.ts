// Whether two body fragments hold the same JSON content: the same strings, numbers, booleans and
// nulls in arrays and plain objects with the same keys in the same order. The segmenter asks it of
// a request's tools and system blocks against the previous request's (segment-builder.ts): an
// agent that rebuilds them every turn sends fresh objects with the same content, and comparing
// them is cheaper than measuring them again (no canonical copy, no fingerprint, no cache entry).
// Anything else (a class instance, a function, a value deeper than the limit) is not compared
// and counts as different, so the caller measures it as before.

/** Nesting this deep is not compared (the caller measures the value instead). */
const DEPTH_LIMIT = 64;

/** The keys of the objects being compared, innermost last (`sameContent` pops its own). */
const keyStack: string[] = [];

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** True when `a` and `b` render to the same JSON, key order included; false when unsure. */
export function sameContent(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || depth >= DEPTH_LIMIT) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameContent(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlainObject(a) || !isPlainObject(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  // Same keys in the same order (a rendering follows the key order), then the same values. The
  // keys go on a shared stack, not a new array per object: the segmenter compares every turn.
  const base = keyStack.length;
  try {
    for (const key in left) {
      if (!Object.prototype.hasOwnProperty.call(left, key)) return false;
      keyStack.push(key);
    }
    let index = base;
    for (const key in right) {
      if (!Object.prototype.hasOwnProperty.call(right, key) || keyStack[index] !== key) return false;
      index++;
    }
    if (index !== keyStack.length) return false;
    for (let i = base; i < index; i++) {
      const key = keyStack[i]!;
      if (!sameContent(left[key], right[key], depth + 1)) return false;
    }
    return true;
  } finally {
    keyStack.length = base;
  }
}
