// Damaged gzip files for the hostile-input tests, made from node:zlib's output: a member whose
// first deflate block has a type deflate does not have (BTYPE 11, RFC 1951 §3.2.3), members cut
// short, and bytes after the last member that start no other. The words the warnings must not
// carry are fflate's own error texts.
import { gzipSync } from "node:zlib";

/** fflate's error texts (its `ec` table): none of them may reach a warning. */
export const INFLATER_TEXTS = ["unexpected EOF", "invalid block type", "invalid length/literal", "invalid distance", "stream finished", "invalid gzip data", "invalid zip data", "unknown compression type"];

/** node's gzip header is 10 bytes (no name, no extra field): the first deflate block's header starts there. */
const HEADER_BYTES = 10;

export function gzipOf(text: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(gzipSync(Buffer.from(text)));
}

/** `member` with its first deflate block's type set to 11 (reserved: an error in every inflater). */
export function withBadBlockType(member: Uint8Array): Uint8Array<ArrayBuffer> {
  const damaged = new Uint8Array(member);
  damaged[HEADER_BYTES] = damaged[HEADER_BYTES]! | 0b110;
  return damaged;
}

export { joinedBytes as joined } from "./joinedBytes";
