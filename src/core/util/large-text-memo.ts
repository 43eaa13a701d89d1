// A small memo of what was computed from a large text, keyed by the text's content. A large value
// (a 50 MB tool output) reaches the same measurement once per turn that carries it — token counts,
// secret scans — each time as the same content, often as another string object (every turn's
// request is rebuilt). A Map keyed by the string compares contents, so each distinct large text is
// measured once; short texts are not kept (hashing them costs what measuring them does). The memo
// holds at most `entries` texts and forgets the oldest first.

export interface LargeTextMemo<T> {
  /** The value for `text`, computed by `compute` the first time its content is seen. */
  get(text: string, compute: (text: string) => T): T;
}

/** Texts shorter than this are computed every time. */
const LARGE_TEXT_CHARS = 262_144;

export function largeTextMemo<T>(entries = 16, minChars = LARGE_TEXT_CHARS): LargeTextMemo<T> {
  const values = new Map<string, T>();
  return {
    get(text, compute) {
      if (text.length < minChars) return compute(text);
      if (values.has(text)) return values.get(text)!;
      const value = compute(text);
      if (values.size >= entries) values.delete(values.keys().next().value!);
      values.set(text, value);
      return value;
    },
  };
}
