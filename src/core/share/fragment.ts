// Share links: the URL fragment `#v<version>=<base64url of deflate-raw(JSON payload)>`. Nothing is
// uploaded; the fragment never reaches a server. The decoder accepts a whole link, a fragment
// with or without `#`, ignores whitespace a chat app may have inserted, caps the decompressed size,
// and returns either a validated payload or a ShareError (never throws on bad input).
import { deflateSync } from "fflate";
import { Base64UrlError, decodeBase64Url, encodeBase64Url } from "./base64url";
import { ShareDecodeFailure, fail, type ShareDecodeResult } from "./errors";
import { inflateCapped } from "./inflate-capped";
import { parseJsonSafely } from "./safe-json";
import { utf8Decode, utf8Encode } from "../util/utf8";
import { CURRENT_SHARE_VERSION, decodePayloadOfVersion, requireSupportedVersion, type SharePayload } from "./versions";

/** Default cap on the decompressed payload: 32 MiB. */
export const DEFAULT_MAX_SHARE_BYTES = 32 * 1024 * 1024;

export interface ShareCodecOptions {
  /** Largest decompressed payload accepted (and produced), in bytes. */
  maxBytes?: number;
}

const VERSION_PREFIX = /^v([0-9]{1,9})=/;

/** Encodes a payload as a fragment `#v1=…`. Throws a RangeError above `maxBytes`. */
export function encodeShareFragment(payload: SharePayload, options: ShareCodecOptions = {}): string {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_SHARE_BYTES;
  const json = utf8Encode(JSON.stringify(payload));
  if (json.length > maxBytes) {
    throw new RangeError(`share payload is ${json.length} bytes, above the ${maxBytes}-byte cap: share the branch only, or a bundle`);
  }
  const compressed = deflateSync(json, { level: 9 });
  return `#v${CURRENT_SHARE_VERSION}=${encodeBase64Url(compressed)}`;
}

/** The fragment part of a link (`#v1=…` → `v1=…`), or the text itself when it has no `#`. */
function fragmentOf(input: string): string {
  const trimmed = input.trim();
  const hash = trimmed.indexOf("#");
  return hash >= 0 ? trimmed.slice(hash + 1) : trimmed;
}

/** True when the text looks like a share link (cheap; does not decode). */
export function isShareLink(input: string): boolean {
  return VERSION_PREFIX.test(fragmentOf(input));
}

/** Longest base64url text that can hold `maxBytes` once inflated (stored blocks add ~0.1%). */
function maxEncodedChars(maxBytes: number): number {
  return Math.ceil(((maxBytes * 1.01 + 1024) * 4) / 3);
}

/** Decodes a share link, fragment or `v1=…` text into a validated payload. */
export function decodeShareLink(input: string, options: ShareCodecOptions = {}): ShareDecodeResult<SharePayload> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_SHARE_BYTES;
  try {
    const fragment = fragmentOf(input);
    const prefix = VERSION_PREFIX.exec(fragment);
    if (!prefix) fail("not-a-link", fragment === "" ? "empty input" : "the fragment does not start with v<number>=");
    const version = Number(prefix[1]);
    requireSupportedVersion(version);
    const data = fragment.slice(prefix[0].length).replace(/[\s]+/g, "");
    if (data.length > maxEncodedChars(maxBytes)) fail("too-large", `${data.length} characters of data for a ${maxBytes}-byte cap`);
    let compressed: Uint8Array;
    try {
      compressed = decodeBase64Url(data);
    } catch (error) {
      if (error instanceof Base64UrlError) fail("corrupted", `not base64url: ${error.message}`);
      throw error;
    }
    const json = utf8Decode(inflateCapped(compressed, maxBytes));
    const payload = decodePayloadOfVersion(version, parseJsonSafely(json, "the payload"));
    return { ok: true, version, payload };
  } catch (error) {
    if (error instanceof ShareDecodeFailure) return { ok: false, error: error.error };
    throw error;
  }
}
