// Versioned dispatch of share payloads. Each version has a validator for its own shape and an
// upgrade to the latest shape, so links made by every earlier build keep opening. To add v2:
// write payload-v2.ts, make SharePayload = SharePayloadV2, give v1 an upgrade to it, register v2
// here and make the encoder write it (fragment.ts, bundle.ts).
import { fail } from "./errors";
import { SHARE_V1, validatePayloadV1, type SharePayloadV1 } from "./payload-v1";

/** The payload shape this build produces and the app consumes. */
export type SharePayload = SharePayloadV1;

/** Version written by the encoder. */
export const CURRENT_SHARE_VERSION = SHARE_V1;

interface ShareVersion {
  /** Validates a parsed payload of this version (throws ShareDecodeFailure). */
  validate(value: unknown): unknown;
  /** Brings a validated payload of this version to the latest shape. */
  upgrade(payload: unknown): SharePayload;
}

const SHARE_VERSIONS: ReadonlyMap<number, ShareVersion> = new Map<number, ShareVersion>([
  [SHARE_V1, { validate: validatePayloadV1, upgrade: (payload) => payload as SharePayloadV1 }],
]);

/** Versions this build can decode. */
export function supportedShareVersions(): number[] {
  return [...SHARE_VERSIONS.keys()];
}

export function isSupportedShareVersion(version: number): boolean {
  return SHARE_VERSIONS.has(version);
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
