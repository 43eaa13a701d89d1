// Byte arrays joined into a new one, for tests that build files from parts (damaged gzip members,
// hand-made Zstandard frames). Always a fresh copy, typed over a plain ArrayBuffer as the readers
// under test take it.

export function joinedBytes(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
