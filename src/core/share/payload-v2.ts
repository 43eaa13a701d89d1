// Share payload version 2: the v1 payload's fields unchanged, under `"v": 2`. What v2 changes is
// the link around it (fragment.ts): a checksum of the payload's bytes travels with the compressed
// data, so an altered link is refused before anything in it is parsed. A v1 payload upgrades to
// v2 by its version number alone.
import { fail } from "./errors";
import { SHARE_V1, validatePayloadV1, type SharePayloadV1 } from "./payload-v1";

export const SHARE_V2 = 2;

export type SharePayloadV2 = Omit<SharePayloadV1, "v"> & { v: typeof SHARE_V2 };

/** Validates a parsed v2 payload with the v1 field rules; throws ShareDecodeFailure naming the field. */
export function validatePayloadV2(value: unknown): SharePayloadV2 {
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail("invalid-payload", "payload: expected an object");
  const record = value as Record<string, unknown>;
  if (record.v !== SHARE_V2) fail("invalid-payload", `payload.v: expected 2, got ${JSON.stringify(record.v) ?? "nothing"}`);
  const { session, view } = validatePayloadV1({ ...record, v: SHARE_V1 });
  return { v: SHARE_V2, session, view };
}

export function upgradeV1(payload: SharePayloadV1): SharePayloadV2 {
  return { ...payload, v: SHARE_V2 };
}
