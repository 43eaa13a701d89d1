// Reproduction bundles: the same payload as a share link, as an uncompressed JSON file
// `{"contextscope":"bundle","v":1,"payload":{…}}`, for views too large for a URL. Dropping the
// file on the app reopens the view. `isBundle` recognises one from its first bytes, so the app can
// route a dropped file before reading it as a session.
import { ShareDecodeFailure, fail, type ShareDecodeResult } from "./errors";
import { MAX_PAYLOAD_DEPTH } from "./fragment";
import { parseJsonSafely } from "./safe-json";
import { nestsDeeperThan } from "../util/json-depth";
import { isBundle } from "./bundle-start";

export { isBundle };
import { CURRENT_SHARE_VERSION, decodePayloadOfVersion, requireSupportedVersion, type SharePayload } from "./versions";

const BUNDLE_MARKER = "bundle";
/** Default cap on a bundle's text: 256 Mi characters (bundles exist for what a link cannot hold). */
export const DEFAULT_MAX_BUNDLE_CHARS = 256 * 1024 * 1024;
/** File name suffix the app offers for bundles. */
const BUNDLE_FILE_SUFFIX = ".contextscope.json";

export interface BundleOptions {
  maxChars?: number;
}

/** The bundle file text for a payload (one line of JSON and a final newline). */
export function encodeBundle(payload: SharePayload): string {
  return `${JSON.stringify({ contextscope: BUNDLE_MARKER, v: CURRENT_SHARE_VERSION, payload: { ...payload, v: CURRENT_SHARE_VERSION } })}\n`;
}

/** A file name for a bundle: the session's name without extension, the turn, the suffix. */
export function bundleFileName(payload: SharePayload): string {
  const base = payload.session.fileName.replace(/^.*[\\/]/, "").replace(/\.[^.]{1,16}$/, "") || "session";
  const turn = payload.view.turn === null ? "" : `-turn-${payload.view.turn}`;
  return `${base}${turn}${BUNDLE_FILE_SUFFIX}`;
}

export function decodeBundle(text: string, options: BundleOptions = {}): ShareDecodeResult<SharePayload> {
  const maxChars = options.maxChars ?? DEFAULT_MAX_BUNDLE_CHARS;
  try {
    if (!isBundle(text)) fail("not-a-link", 'not a Contextscope bundle (expected a JSON file starting with {"contextscope":"bundle"');
    if (text.length > maxChars) fail("too-large", `bundle of ${text.length} characters, above the ${maxChars}-character cap`);
    if (nestsDeeperThan(text, MAX_PAYLOAD_DEPTH + 2)) fail("too-large", `the bundle nests more than ${MAX_PAYLOAD_DEPTH + 2} levels deep`);
    const parsed = parseJsonSafely(text.replace(/^\uFEFF/, ""), "the bundle");
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) fail("invalid-payload", "the bundle is not a JSON object");
    const bundle = parsed as Record<string, unknown>;
    for (const key of Object.keys(bundle)) {
      if (key !== "contextscope" && key !== "v" && key !== "payload") fail("invalid-payload", `bundle: unknown field ${JSON.stringify(key)}`);
    }
    if (typeof bundle.v !== "number" || !Number.isInteger(bundle.v)) fail("invalid-payload", "bundle: missing or non-integer version field \"v\"");
    requireSupportedVersion(bundle.v);
    if (!("payload" in bundle)) fail("invalid-payload", 'bundle: missing field "payload"');
    return { ok: true, version: bundle.v, payload: decodePayloadOfVersion(bundle.v, bundle.payload) };
  } catch (error) {
    if (error instanceof ShareDecodeFailure) return { ok: false, error: error.error };
    throw error;
  }
}
