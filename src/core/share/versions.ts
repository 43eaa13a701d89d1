// Versioned dispatch of share payloads. Each version has a validator for its own shape and an
// upgrade to the latest shape, so links made by every earlier build keep opening. To add v3:
// write payload-v3.ts, make SharePayload = SharePayloadV3, give v2 an upgrade to it, register v3
// here, and say in fragment.ts how its links are framed.
import { fail } from "./errors";
import { SHARE_V1, validatePayloadV1, type SharePayloadV1 } from "./payload-v1";
import { SHARE_V2, upgradeV1, validatePayloadV2, type SharePayloadV2 } from "./payload-v2";

/** The payload shape this build produces and the app consumes. */
export type SharePayload = SharePayloadV2;

/** Version written by the encoder. */
export const CURRENT_SHARE_VERSION = SHARE_V2;

interface ShareVersion {
  /** Validates a parsed payload of this version (throws ShareDecodeFailure). */
  validate(value: unknown): unknown;
  /** Brings a validated payload of this version to the latest shape. */
  upgrade(payload: unknown): SharePayload;
}

const SHARE_VERSIONS: ReadonlyMap<number, ShareVersion> = new Map<number, ShareVersion>([
  [SHARE_V1, { validate: validatePayloadV1, upgrade: (payload) => upgradeV1(payload as SharePayloadV1) }],
  [SHARE_V2, { validate: validatePayloadV2, upgrade: (payload) => payload as SharePayloadV2 }],
]);

/** Versions this build can decode. */
function supportedShareVersions(): number[] {
  return [...SHARE_VERSIONS.keys()];
}

export function requireSupportedVersion(version: number): void {
  if (!SHARE_VERSIONS.has(version)) {
    fail("unknown-version", `version ${version}; this build reads ${supportedShareVersions().map((v) => `v${v}`).join(", ")}`);
  }
}

/** Validates and upgrades a parsed payload of `version`. */
export function decodePayloadOfVersion(version: number, value: unknown): SharePayload {
  requireSupportedVersion(version);
  const codec = SHARE_VERSIONS.get(version) as ShareVersion;
  return codec.upgrade(codec.validate(value));
}
