// pi's context-size estimate (spec PI-K2, SP-K1): characters / 4, rounded up per message. It is
// what pi itself uses to decide compaction, so it is reproduced exactly, quirks included.
import type { AgentMessage, ImageBlock, PipelineOptions, TextBlock } from "../../model";
import { piProfileOf } from "./profile";

/** Characters pi counts for one image (PI-K2). */
const IMAGE_CHARS = 4800;

/** senpi counts runs of 512+ base64-like characters four times (SP-K1). */
const BASE64_RUN = /[A-Za-z0-9+/=_-]{512,}/g;

export interface EstimateOptions {
  /** "senpi" adds images on user messages and weights base64-like runs. */
  profile: "pi" | "senpi";
}

function base64Extra(text: string, profile: EstimateOptions["profile"]): number {
  if (profile !== "senpi" || text.length < 512) return 0;
  let extra = 0;
  for (const match of text.matchAll(BASE64_RUN)) extra += 3 * match[0].length;
  return extra;
}

function contentChars(
  content: string | readonly (TextBlock | ImageBlock)[],
  countImages: boolean,
  profile: EstimateOptions["profile"],
): number {
  if (typeof content === "string") return content.length + base64Extra(content, profile);
  let chars = 0;
  for (const block of content) {
    if (block.type === "text") chars += block.text.length + base64Extra(block.text, profile);
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
        if (block.type === "text") chars += block.text.length;
        else if (block.type === "thinking") chars += block.thinking.length;
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
      return message.command.length + message.output.length + base64Extra(message.output, profile);
    case "branchSummary":
    case "compactionSummary":
      return message.summary.length;
    default:
      return 0;
  }
}

/** pi's `estimateTokens`: ceil(chars / 4) for one message. */
export function estimateMessageTokens(message: AgentMessage, options: EstimateOptions): number {
  return Math.ceil(estimateMessageChars(message, options) / 4);
}

/**
 * A message's characters under the profile the options name (pi unless senpi). The other agents
 * show the same estimate in their Messages tab: it is the one the simulator's policies share.
 */
export function piMessageChars(message: AgentMessage, options: Pick<PipelineOptions, "profile">): number {
  return estimateMessageChars(message, { profile: piProfileOf(options) });
}
