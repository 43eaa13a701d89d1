// base64url (RFC 4648 §5, no padding) for share fragments. Written here because src/core has no
// btoa/atob (no DOM, no Node). Decoding is strict: any character outside the alphabet, or a length
// that no byte string encodes to, is an error rather than silently skipped.

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const VALUES = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;

export function encodeBase64Url(bytes: Uint8Array): string {
  const parts: string[] = [];
  let chunk = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] as number;
    const b = i + 1 < bytes.length ? (bytes[i + 1] as number) : 0;
    const c = i + 2 < bytes.length ? (bytes[i + 2] as number) : 0;
    const triple = (a << 16) | (b << 8) | c;
    chunk += ALPHABET.charAt((triple >> 18) & 63) + ALPHABET.charAt((triple >> 12) & 63);
    if (i + 1 < bytes.length) chunk += ALPHABET.charAt((triple >> 6) & 63);
    if (i + 2 < bytes.length) chunk += ALPHABET.charAt(triple & 63);
    if (chunk.length >= 8192) {
      parts.push(chunk);
      chunk = "";
    }
  }
  parts.push(chunk);
  return parts.join("");
}

export class Base64UrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "Base64UrlError";
  }
}

export function decodeBase64Url(text: string): Uint8Array {
  if (text.length % 4 === 1) throw new Base64UrlError(`length ${text.length} is not a valid base64url length (cut short?)`);
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let written = 0;
  let buffer = 0;
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? (VALUES[code] as number) : -1;
    if (value < 0) {
      throw new Base64UrlError(`character ${JSON.stringify(text.charAt(i))} at position ${i} is not base64url`);
    }
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[written++] = (buffer >> bits) & 0xff;
    }
  }
  // Leftover bits must be zero in a canonical encoding; anything else means the text was altered.
  if (bits > 0 && (buffer & ((1 << bits) - 1)) !== 0) throw new Base64UrlError("last character has stray bits (altered or cut short?)");
  return out.subarray(0, written);
}
