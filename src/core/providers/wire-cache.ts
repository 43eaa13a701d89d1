// Per-message caches of the serializers' wire forms (design §3 "never quadratic"): request N+1
// repeats request N's messages, and the pipeline hands the serializers the same LlmMessage object
// for the same message on every turn (PI-C1, the transform's caches), so each message is converted
// (and its text sanitised) once per serializer configuration. A body is then an array of cached
// references; only the provider-specific last-message details are applied to a copy. Cached wire
// objects are shared by every body that holds them, so they are frozen: mutating a built body is
// a bug that would corrupt other turns, and now fails loudly instead.

/** Wire values keyed by a source object, per configuration key (what else the conversion reads). */
export class WireCache<V> {
  private readonly byConfig = new Map<string, WeakMap<object, V>>();

  /** The cached value for `source` under `config`, built (and frozen) on first use. */
  get(config: string, source: object, build: () => V): V {
    let cache = this.byConfig.get(config);
    if (!cache) {
      cache = new WeakMap();
      this.byConfig.set(config, cache);
    }
    if (cache.has(source)) return cache.get(source) as V;
    const value = build();
    freezeWire(value);
    cache.set(source, value);
    return value;
  }

  /** The cached value when `valid` accepts it, else a rebuilt one that replaces it. */
  getValid(config: string, source: object, valid: (value: V) => boolean, build: () => V): V {
    let cache = this.byConfig.get(config);
    if (!cache) {
      cache = new WeakMap();
      this.byConfig.set(config, cache);
    }
    const found = cache.get(source);
    if (found !== undefined && valid(found)) return found;
    const value = build();
    freezeWire(value);
    cache.set(source, value);
    return value;
  }
}

/**
 * Freezes the objects and arrays a serializer created for a wire value, two levels of content
 * deep (message → content list → block). Values taken from the session as they are (tool-call
 * arguments, image data) are left alone: the session owns them.
 */
function freezeWire(value: unknown): void {
  freezeLevel(value, 4);
}

/** Keys whose values come from the session or the header as they are. */
const SESSION_OWNED_KEYS = new Set(["input", "args", "arguments", "source", "inlineData", "parameters", "properties", "required", "parametersJsonSchema"]);

function freezeLevel(value: unknown, depth: number): void {
  if (depth === 0 || typeof value !== "object" || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (const item of value) freezeLevel(item, depth - 1);
    return;
  }
  for (const key of Object.keys(value)) {
    // Session-owned payloads: not ours to freeze.
    if (SESSION_OWNED_KEYS.has(key)) continue;
    freezeLevel((value as Record<string, unknown>)[key], depth - 1);
  }
}

/** True when `run` holds exactly the objects of `list[start … start + run.length)` and no more follow. */
export function sameRun(run: readonly object[], list: readonly object[], start: number, end: number): boolean {
  if (run.length !== end - start) return false;
  for (let i = 0; i < run.length; i++) if (run[i] !== list[start + i]) return false;
  return true;
}
