// Public API of the share codec (see docs/share-format.md).
export { encodeShareFragment, decodeShareLink, isShareLink, DEFAULT_MAX_SHARE_BYTES, CHECKSUM_BYTES } from "./fragment";
export { encodeBundle, decodeBundle, isBundle, bundleFileName } from "./bundle";
export { linkSizeInfo, BROWSER_URL_LIMIT, LINK_WARN_CHARS } from "./link-size";
export { sessionLines, branchSession, minimalSessionLines, shareSessionText } from "./session-lines";
export { buildSharePayload } from "./build";
export type { SharePayload } from "./versions";
export type { SharePayloadV1, ShareViewV1 } from "./payload-v1";
export { SHARE_ERROR_MESSAGES } from "./errors";
export { encodeBase64Url } from "./base64url";
