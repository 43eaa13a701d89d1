// Byte chunks joined into one array: what a reader does when a container must be decoded whole
// (a Zstandard file's frames are found from their headers before any is decoded).

/** `parts` in order as one array; the one part itself when there is only one. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const total = parts.reduce((sum, part) => sum + part.byteLength, 0);
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}
