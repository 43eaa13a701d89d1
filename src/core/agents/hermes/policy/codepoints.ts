// hermes-agent is Python: its "chars" are code points, not UTF-16 units (spec README convention
// 3), and `int()` truncates toward zero. These helpers measure and cut strings the Python way so
// that lengths, caps and truncation points match the agent on non-BMP text (emoji, rare CJK).

/** Number of code points (Python `len(str)`). */
export function cpLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low surrogate is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** UTF-16 offset of code point `index` (clamped to the string). */
function unitOffset(text: string, index: number): number {
  if (index <= 0) return 0;
  let points = 0;
  let i = 0;
  while (i < text.length && points < index) {
    const unit = text.charCodeAt(i);
    const pair = unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    i += pair ? 2 : 1;
    points++;
  }
  return i;
}

/** Python `text[start:end]` for non-negative indices (end defaults to the end). */
export function cpSlice(text: string, start: number, end?: number): string {
  const from = unitOffset(text, start);
  const to = end === undefined ? text.length : unitOffset(text, end);
  return text.slice(from, Math.max(from, to));
}

/** Python `text[:n]`. */
export function cpHead(text: string, n: number): string {
  return cpSlice(text, 0, n);
}

/** Python `text[-n:]` for n > 0. */
export function cpTail(text: string, n: number): string {
  if (n <= 0) return "";
  const length = cpLength(text);
  return cpSlice(text, Math.max(0, length - n));
}

/** Python `int(x)` for the non-negative products the compressor computes. */
export function pyInt(value: number): number {
  return Math.trunc(value);
}
