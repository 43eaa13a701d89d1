// pi's context-size estimate (spec PI-K2, SP-K1): characters / 4, rounded up per message. It is
// what pi itself uses to decide compaction, so it is reproduced exactly, quirks included. The
// plain estimate is the tokens kit's (src/core/tokens/charEstimate.ts); what is pi's own lives
// here: senpi's weighting of user images and base64-like runs, and the choice by profile.
import type { AgentMessage, PipelineOptions } from "../../model";
import { messageChars, type CharWeighting } from "../../tokens/charEstimate";
import { piProfileOf } from "./profile";
import { storedTextBytes, type StoredText } from "../../text/storedText";
import { textUnits, type Text } from "../../text/text";

/** senpi counts runs of 512+ base64-like characters four times (SP-K1). */
const BASE64_RUN = /[A-Za-z0-9+/=_-]{512,}/g;

export interface EstimateOptions {
  /** "senpi" adds images on user messages and weights base64-like runs. */
  profile: "pi" | "senpi";
}

/** Whether a character (its UTF-16 code) is one BASE64_RUN counts. */
function isBase64Like(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x61 && code <= 0x7a) || // a-z
    (code >= 0x30 && code <= 0x39) || // 0-9
    code === 0x2b || code === 0x2f || code === 0x3d || code === 0x5f || code === 0x2d // + / = _ -
  );
}

const HEX_DIGITS = "0123456789abcdefABCDEF";

/**
 * `base64Extra` of a stored text, read on its escaped bytes without decoding it: every character
 * of the class is one ASCII byte, or an escape (`\/`, `\u0041`) that stands for one; a multi-byte
 * character or any other escape ends a run. The same runs as the regular expression finds.
 */
function storedBase64Extra(text: StoredText): number {
  const bytes = storedTextBytes(text);
  let extra = 0;
  let run = 0;
  for (let i = 0; i < bytes.length; ) {
    const byte = bytes[i]!;
    let code = byte < 0x80 ? byte : -1;
    let width = 1;
    if (byte === 0x5c) {
      const next = bytes[i + 1];
      width = next === 0x75 ? 6 : 2; // \uXXXX or a two-byte escape
      code = next === 0x2f ? 0x2f : next === 0x75 ? hexValue(bytes, i + 2) : -1;
    }
    if (code >= 0 && isBase64Like(code)) run++;
    else {
      if (run >= 512) extra += 3 * run;
      run = 0;
    }
    i += width;
  }
  if (run >= 512) extra += 3 * run;
  return extra;
}

function hexValue(bytes: Uint8Array, at: number): number {
  let value = 0;
  for (let i = at; i < at + 4; i++) {
    const digit = HEX_DIGITS.indexOf(String.fromCharCode(bytes[i] ?? 0));
    if (digit < 0) return -1;
    value = value * 16 + (digit >= 16 ? digit - 6 : digit);
  }
  return value;
}

/** senpi's weighting (SP-K1): images on user messages count, and base64-like runs count four times. */
const SENPI_WEIGHTING: CharWeighting = {
  userImages: true,
  extraChars(text: Text): number {
    if (textUnits(text) < 512) return 0;
    if (typeof text !== "string") return storedBase64Extra(text);
    let extra = 0;
    for (const match of text.matchAll(BASE64_RUN)) extra += 3 * match[0].length;
    return extra;
  },
};

/** Characters pi attributes to a message before dividing by four (the tokens kit's estimate, weighted for senpi). */
export function estimateMessageChars(message: AgentMessage, options: EstimateOptions): number {
  return options.profile === "senpi" ? messageChars(message, SENPI_WEIGHTING) : messageChars(message);
}

/** pi's `estimateTokens`: ceil(chars / 4) for one message (pi's own count unless senpi's is asked for). */
export function estimateMessageTokens(message: AgentMessage, options: EstimateOptions = { profile: "pi" }): number {
  return Math.ceil(estimateMessageChars(message, options) / 4);
}

/** A message's characters under the profile the options name (pi unless senpi): pi's Messages tab. */
export function piMessageChars(message: AgentMessage, options: Pick<PipelineOptions, "profile">): number {
  return estimateMessageChars(message, { profile: piProfileOf(options) });
}
