// Payload builders for the share codec tests.
import fc from "fast-check";
import { API_IDS, type RequestHeader } from "../../../src/core/model";
import { sha256 } from "@noble/hashes/sha2.js";
import { deflateSync, strToU8 } from "fflate";
import { CHECKSUM_BYTES, encodeBase64Url } from "../../../src/core/share";
import type { SharePayload, SharePayloadV1 } from "../../../src/core/share";

export function samplePayload(overrides: Partial<SharePayload["view"]> = {}): SharePayload {
  return {
    v: 2,
    session: {
      fileName: "2026-01-01_session.jsonl",
      formatId: "pi",
      scope: "branch",
      lines: ['{"type":"session","version":3,"id":"s"}', '{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":"hi"}}'],
    },
    view: { turn: 1, tab: "request", profile: "senpi", provider: "anthropic-messages", notes: true, leafId: "a", ...overrides },
  };
}

/** The same view as a payload of version 1 (what links made by earlier builds hold). */
export function samplePayloadV1(overrides: Partial<SharePayload["view"]> = {}): SharePayloadV1 {
  return { ...samplePayload(overrides), v: 1 };
}

/** A v2 fragment holding arbitrary JSON text, with its correct checksum (bypasses the encoder's typing). */
export function fragmentOfJson(json: string, version = 2): string {
  const bytes = strToU8(json);
  if (version === 1) return legacyFragmentOfJson(json);
  const compressed = deflateSync(bytes);
  const data = new Uint8Array(CHECKSUM_BYTES + compressed.length);
  data.set(sha256(bytes).subarray(0, CHECKSUM_BYTES), 0);
  data.set(compressed, CHECKSUM_BYTES);
  return `#v${version}=${encodeBase64Url(data)}`;
}

/** A v1 fragment as earlier builds wrote them: the deflate data alone, no checksum. */
export function legacyFragmentOfJson(json: string): string {
  return `#v1=${encodeBase64Url(deflateSync(strToU8(json)))}`;
}

// Share payloads refuse the key "__proto__" by design (src/core/share/safe-json.ts, tested on its
// own): the JSON values an arbitrary header carries have none, at any depth.
const jsonWithoutProtoKey = fc.jsonValue().filter((value) => !JSON.stringify(value).includes('"__proto__"'));

const factArb = fc.record({
  key: fc.string({ maxLength: 20 }),
  kind: fc.constantFrom("session" as const, "model" as const),
  label: fc.string({ maxLength: 20 }),
  path: fc.string({ maxLength: 20 }),
  value: jsonWithoutProtoKey,
  source: fc.string({ maxLength: 20 }),
});

/** An arbitrary request header holding every field of RequestHeader (the required ones always). */
export const headerArb: fc.Arbitrary<RequestHeader> = fc.record(
  {
    api: fc.constantFrom(...API_IDS),
    systemPrompt: fc.string(),
    tools: fc.array(fc.record({ name: fc.string(), description: fc.string(), parameters: jsonWithoutProtoKey }), { maxLength: 3 }),
    maxTokens: fc.integer(),
    extraSettings: fc.dictionary(fc.string({ maxLength: 8 }).filter((key) => key !== "__proto__"), jsonWithoutProtoKey, { maxKeys: 4 }),
    source: fc.string({ maxLength: 40 }),
    model: fc.string({ maxLength: 40 }),
    facts: fc.array(factArb, { maxLength: 4 }),
  },
  { requiredKeys: ["api", "extraSettings", "source"] },
);
