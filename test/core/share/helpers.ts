// Payload builders for the share codec tests.
import { deflateSync, strToU8 } from "fflate";
import { encodeBase64Url } from "../../../src/core/share";
import type { SharePayload } from "../../../src/core/share";

export function samplePayload(overrides: Partial<SharePayload["view"]> = {}): SharePayload {
  return {
    v: 1,
    session: {
      fileName: "2026-01-01_session.jsonl",
      formatId: "pi",
      scope: "branch",
      lines: ['{"type":"session","version":3,"id":"s"}', '{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":"hi"}}'],
    },
    view: { turn: 1, tab: "request", profile: "senpi", provider: "anthropic-messages", notes: true, leafId: "a", ...overrides },
  };
}

/** A fragment holding arbitrary JSON text (bypasses the encoder's typing). */
export function fragmentOfJson(json: string, version = 1): string {
  return `#v${version}=${encodeBase64Url(deflateSync(strToU8(json)))}`;
}
