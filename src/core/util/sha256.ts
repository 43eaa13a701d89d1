// SHA-256 (FIPS 180-4) as lowercase hex, through @noble/hashes (pure JS, synchronous): core may use
// neither Node's crypto nor Web Crypto (asynchronous, and a global of the host). Claude Code names
// the messages of its `api-request` records by this hash of their canonical JSON (FM-CC-19 step 2).
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { utf8Encode } from "./utf8";

function sha256Bytes(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes));
}

/** SHA-256 of the UTF-8 bytes of `text` (a lone surrogate hashed as U+FFFD). */
export function sha256Hex(text: string): string {
  return sha256Bytes(utf8Encode(text));
}
