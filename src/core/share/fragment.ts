// Share links: the URL fragment `#v2=<base64url of checksum ‖ deflate-raw(JSON payload)>`, where
// the checksum is the first 8 bytes of the SHA-256 of the payload's JSON bytes. (`#v1=` links, made
// by earlier builds, hold the deflate data alone; they keep opening.) Nothing is uploaded; the
// fragment never reaches a server. The decoder accepts a whole link, a fragment with or without
// `#`, ignores whitespace a chat app may have inserted, caps the compressed and decompressed
// sizes, checks the checksum and the nesting depth before any JSON is parsed, and returns either
// a validated payload or a ShareError (never throws on bad input).
import { sha256 } from "@noble/hashes/sha2.js";
import { deflateSync } from "fflate";
import { Base64UrlError, decodeBase64Url, encodeBase64Url } from "./base64url";
import { ShareDecodeFailure, fail, type ShareDecodeResult } from "./errors";
import { inflateCapped } from "./inflate-capped";
import { parseJsonSafely } from "./safe-json";
import { nestsDeeperThan } from "../util/json-depth";
import { utf8Decode, utf8Encode } from "../util/utf8";
import { SHARE_V1 } from "./payload-v1";
import { CURRENT_SHARE_VERSION, decodePayloadOfVersion, requireSupportedVersion, type SharePayload } from "./versions";

/** Default cap on the decompressed payload: 32 MiB. */
export const DEFAULT_MAX_SHARE_BYTES = 32 * 1024 * 1024;

export interface ShareCodecOptions {
  /** Largest decompressed payload accepted (and produced), in bytes. */
  maxBytes?: number;
}

const VERSION_PREFIX = /^v([0-9]{1,9})=/;

/** Bytes of the SHA-256 prefix a v2 link carries (64 bits: an altered link passes once in 2^64). */
export const CHECKSUM_BYTES = 8;

/**
 * Deepest nesting a payload's JSON may have: the payload's own levels plus free-form values
 * (MAX_FREE_FORM_DEPTH, safe-json.ts). Deeper text is refused before JSON.parse sees it.
 */
export const MAX_PAYLOAD_DEPTH = 80;

function checksumOf(json: Uint8Array): Uint8Array {
  return sha256(json).subarray(0, CHECKSUM_BYTES);
}

/** Encodes a payload as a fragment `#v2=…`. Throws a RangeError above `maxBytes`. */
export function encodeShareFragment(payload: SharePayload, options: ShareCodecOptions = {}): string {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_SHARE_BYTES;
  const json = utf8Encode(JSON.stringify({ ...payload, v: CURRENT_SHARE_VERSION }));
  if (json.length > maxBytes) {
    throw new RangeError(`share payload is ${json.length} bytes, above the ${maxBytes}-byte cap: share the branch only, or a bundle`);
  }
  const compressed = deflateSync(json, { level: 9 });
  const data = new Uint8Array(CHECKSUM_BYTES + compressed.length);
  data.set(checksumOf(json), 0);
  data.set(compressed, CHECKSUM_BYTES);
  return `#v${CURRENT_SHARE_VERSION}=${encodeBase64Url(data)}`;
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
    let deflated = compressed;
    let expected: Uint8Array | null = null;
    if (version !== SHARE_V1) {
      // v2 and later: the checksum first, then the deflate data.
      if (compressed.length <= CHECKSUM_BYTES) fail("corrupted", "too short to hold a checksum and data");
      expected = compressed.subarray(0, CHECKSUM_BYTES);
      deflated = compressed.subarray(CHECKSUM_BYTES);
    }
    const bytes = inflateCapped(deflated, maxBytes);
    if (expected && !sameBytes(checksumOf(bytes), expected)) fail("tampered", "the SHA-256 checksum of the payload does not match the one in the link");
    const json = utf8Decode(bytes);
    if (nestsDeeperThan(json, MAX_PAYLOAD_DEPTH)) fail("too-large", `the payload nests more than ${MAX_PAYLOAD_DEPTH} levels deep`);
    const payload = decodePayloadOfVersion(version, parseJsonSafely(json, "the payload"));
    return { ok: true, version, payload };
  } catch (error) {
    if (error instanceof ShareDecodeFailure) return { ok: false, error: error.error };
    throw error;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
