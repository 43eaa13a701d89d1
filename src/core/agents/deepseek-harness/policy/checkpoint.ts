// deepseek-harness output handling and framing (CP-DH-13 … CP-DH-15): finish reasons to errors,
// the checkpoint user message that replaces the shadowed range, and the shrink guard.
import type { TextBlock, UserMessage } from "../../../model";

export type DeepseekFinish = "stop" | "max-tokens" | "error" | "aborted" | "image" | "empty";

export interface OutputError {
  message: string;
  code: string | null;
}

/** CP-DH-13. */
export function outputError(finish: DeepseekFinish): OutputError | null {
  switch (finish) {
    case "stop":
      return null;
    case "max-tokens":
      return { message: "summarization truncated at the token cap (incomplete checkpoint)", code: "MAX_TOKENS" };
    case "image":
      return { message: "summarization produced image output", code: "UNSUPPORTED_CONTENT" };
    case "empty":
      return { message: "summarization produced no text summary content", code: null };
    case "aborted":
      return { message: "summarization aborted", code: "ABORTED" };
    default:
      return { message: "summarization failed", code: "ERROR" };
  }
}

/** CP-DH-14: [PREAMBLE + "\n\n<compacted-summary>", …summary blocks, "</compacted-summary>"]. */
export function frameCheckpoint(preamble: string, summaryBlocks: readonly string[]): UserMessage {
  const content: TextBlock[] = [
    { type: "text", text: `${preamble}\n\n<compacted-summary>` },
    ...summaryBlocks.map((text) => ({ type: "text" as const, text })),
    { type: "text", text: "</compacted-summary>" },
  ];
  return { role: "user", content };
}

/** CP-DH-15: the framed checkpoint must be strictly smaller than the shadowed span. */
export function shrinkGuard(framedTokens: number, shadowedTokens: number): string | null {
  return framedTokens >= shadowedTokens
    ? `summary is not smaller than the shadowed content (${framedTokens} estimated framed tokens >= ${shadowedTokens})`
    : null;
}
