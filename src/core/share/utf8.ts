// UTF-8 conversion for share payloads, through fflate's helpers (src/core has no TextEncoder
// types; fflate uses the platform's encoder when there is one and its own code otherwise).
import { strFromU8, strToU8 } from "fflate";

export function utf8Encode(text: string): Uint8Array {
  return strToU8(text);
}

export function utf8Decode(bytes: Uint8Array): string {
  return strFromU8(bytes);
}
