// The chars/4 size estimate of a context message: characters of what the message holds, divided
// by four and rounded up. It is pi's own estimate (spec PI-K2), which the other agents' Messages
// tab and the simulator's policies share; a variant that weighs more (senpi's, SP-K1) is given as
// a CharWeighting from pi's folder. Texts are measured by their length, never decoded.
import type { AgentMessage, ImageBlock, TextBlock } from "../model";
import { isText, textUnits, type Text } from "../text/text";

export const CHARS_PER_TOKEN = 4;

/** Characters counted for one image (PI-K2). */
const IMAGE_CHARS = 4800;

/** What a variant of the estimate counts beyond the plain one. */
export interface CharWeighting {
  /** Count images on user messages too (the plain estimate counts them on tool results only). */
  userImages: boolean;
  /** Characters a text counts beyond its own length (read in user, tool and bash content, and tool arguments). */
  extraChars(text: Text): number;
}

const PLAIN: CharWeighting = { userImages: false, extraChars: () => 0 };

function contentChars(content: Text | readonly (TextBlock | ImageBlock)[], countImages: boolean, weighting: CharWeighting): number {
  if (isText(content)) return textUnits(content) + weighting.extraChars(content);
  let chars = 0;
  for (const block of content) {
    if (block.type === "text") chars += textUnits(block.text) + weighting.extraChars(block.text);
    else if (block.type === "image" && countImages) chars += IMAGE_CHARS;
  }
  return chars;
}

/** Characters the estimate attributes to a message before dividing by four. */
export function messageChars(message: AgentMessage, weighting: CharWeighting = PLAIN): number {
  switch (message.role) {
    case "user":
      return contentChars(message.content ?? [], weighting.userImages, weighting);
    case "assistant": {
      let chars = 0;
      for (const block of message.content ?? []) {
        if (block.type === "text") chars += textUnits(block.text);
        else if (block.type === "thinking") chars += textUnits(block.thinking);
        else if (block.type === "toolCall") {
          const args = JSON.stringify(block.arguments ?? {});
          chars += block.name.length + args.length + weighting.extraChars(args);
        }
      }
      return chars;
    }
    case "custom":
    case "toolResult":
      return contentChars(message.content ?? [], true, weighting);
    case "bashExecution":
      return message.command.length + textUnits(message.output) + weighting.extraChars(message.output);
    case "branchSummary":
    case "compactionSummary":
      return textUnits(message.summary);
    default:
      return 0;
  }
}

/** ceil(chars / 4) for one message. */
export function messageTokens(message: AgentMessage, weighting: CharWeighting = PLAIN): number {
  return Math.ceil(messageChars(message, weighting) / CHARS_PER_TOKEN);
}
