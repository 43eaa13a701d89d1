// Public API of the share codec (see docs/share-format.md).
export { encodeShareFragment, decodeShareLink, isShareLink, DEFAULT_MAX_SHARE_BYTES, CHECKSUM_BYTES, MAX_PAYLOAD_DEPTH, type ShareCodecOptions } from "./fragment";
export {
  encodeBundle,
  decodeBundle,
  isBundle,
  bundleFileName,
  BUNDLE_FILE_SUFFIX,
  DEFAULT_MAX_BUNDLE_CHARS,
  type BundleOptions,
} from "./bundle";
export { linkSizeInfo, BROWSER_URL_LIMIT, LINK_WARN_CHARS, type LinkSizeInfo, type LinkSizeLevel, type LinkSizeOptions } from "./link-size";
export { sessionLines, branchSession, minimalSessionLines, shareSessionText } from "./session-lines";
export { buildSharePayload, type BuildShareInput, type BuiltShare } from "./build";
export {
  CURRENT_SHARE_VERSION,
  supportedShareVersions,
  isSupportedShareVersion,
  type SharePayload,
} from "./versions";
export {
  SHARE_V1,
  SHARE_PROFILE_IDS,
  validatePayloadV1,
  type SharePayloadV1,
  type ShareSessionV1,
  type ShareViewV1,
  type ShareSimulation,
} from "./payload-v1";
export { SHARE_V2, validatePayloadV2, type SharePayloadV2 } from "./payload-v2";
export { SHARE_ERROR_MESSAGES, type ShareError, type ShareErrorCode, type ShareDecodeResult } from "./errors";
export { encodeBase64Url, decodeBase64Url } from "./base64url";
