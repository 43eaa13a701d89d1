// pi's context-size estimate (spec PI-K2, SP-K1): characters / 4, rounded up per message. It is
// what pi itself uses to decide compaction, so it is reproduced exactly, quirks included.
import type { AgentMessage, ImageBlock, PipelineOptions, TextBlock } from "../../model";
import { piProfileOf } from "./profile";
import { storedTextBytes, type StoredText } from "../../text/storedText";
import { isText, textUnits, type Text } from "../../text/text";

/** Characters pi counts for one image (PI-K2). */
const IMAGE_CHARS = 4800;

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

function base64Extra(text: Text, profile: EstimateOptions["profile"]): number {
  if (profile !== "senpi" || textUnits(text) < 512) return 0;
  if (typeof text !== "string") return storedBase64Extra(text);
  let extra = 0;
  for (const match of text.matchAll(BASE64_RUN)) extra += 3 * match[0].length;
  return extra;
}

function contentChars(
  content: Text | readonly (TextBlock | ImageBlock)[],
  countImages: boolean,
  profile: EstimateOptions["profile"],
): number {
  if (isText(content)) return textUnits(content) + base64Extra(content, profile);
  let chars = 0;
  for (const block of content) {
    if (block.type === "text") chars += textUnits(block.text) + base64Extra(block.text, profile);
    else if (block.type === "image" && countImages) chars += IMAGE_CHARS;
  }
  return chars;
}

/** Characters pi attributes to a message before dividing by four. */
export function estimateMessageChars(message: AgentMessage, options: EstimateOptions): number {
  const { profile } = options;
  switch (message.role) {
    case "user":
      // pi adds nothing for images on user messages; senpi adds 4800 each.
      return contentChars(message.content ?? [], profile === "senpi", profile);
    case "assistant": {
      let chars = 0;
      for (const block of message.content ?? []) {
        if (block.type === "text") chars += textUnits(block.text);
        else if (block.type === "thinking") chars += textUnits(block.thinking);
        else if (block.type === "toolCall") {
          const args = JSON.stringify(block.arguments ?? {});
          chars += block.name.length + args.length + base64Extra(args, profile);
        }
      }
      return chars;
    }
    case "custom":
    case "toolResult":
      return contentChars(message.content ?? [], true, profile);
    case "bashExecution":
      return message.command.length + textUnits(message.output) + base64Extra(message.output, profile);
    case "branchSummary":
    case "compactionSummary":
      return textUnits(message.summary);
    default:
      return 0;
  }
}

/** pi's `estimateTokens`: ceil(chars / 4) for one message (pi's own count unless senpi's is asked for). */
export function estimateMessageTokens(message: AgentMessage, options: EstimateOptions = { profile: "pi" }): number {
  return Math.ceil(estimateMessageChars(message, options) / 4);
}

/**
 * A message's characters under the profile the options name (pi unless senpi). The other agents
 * show the same estimate in their Messages tab: it is the one the simulator's policies share.
 */
export function piMessageChars(message: AgentMessage, options: Pick<PipelineOptions, "profile">): number {
  return estimateMessageChars(message, { profile: piProfileOf(options) });
}
