// Token usage a session trace may carry on an assistant message (docs/formats/sts.md). The format
// itself names no usage field; writers that know it add one. Read here: a `usage` object in pi's
// shape (what `contextscope export --format sts` writes), in the Chat Completions shape
// (`prompt_tokens` with `prompt_tokens_details.cached_tokens` inside) or in Anthropic's
// (`input_tokens` beside `cache_read_input_tokens` / `cache_creation_input_tokens`).
import type { ModelRef, RecordedUsage } from "../../model";
import { isObject } from "../../util/is-object";

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

function usage(input: number, output: number, cacheRead: number, cacheWrite: number): RecordedUsage | null {
  if (input + output + cacheRead + cacheWrite === 0) return null;
  return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite };
}

/** The usage a message records, in whichever of the known shapes, or null. */
export function stsUsage(value: unknown): RecordedUsage | null {
  if (!isObject(value)) return null;
  if ("input" in value || "output" in value) return usage(num(value.input), num(value.output), num(value.cacheRead), num(value.cacheWrite));
  if ("prompt_tokens" in value || "completion_tokens" in value) {
    const cached = isObject(value.prompt_tokens_details) ? num(value.prompt_tokens_details.cached_tokens) : 0;
    return usage(Math.max(0, num(value.prompt_tokens) - cached), num(value.completion_tokens), cached, 0);
  }
  if ("input_tokens" in value || "output_tokens" in value) return usage(num(value.input_tokens), num(value.output_tokens), num(value.cache_read_input_tokens), num(value.cache_creation_input_tokens));
  return null;
}

/** A message's `model`, with the provider when it is written `provider/model`. */
export function stsModel(value: unknown): ModelRef | null {
  if (typeof value !== "string" || value.trim() === "") return null;
  const id = value.trim();
  const slash = id.indexOf("/");
  return slash > 0 ? { provider: id.slice(0, slash), modelId: id.slice(slash + 1) } : { provider: "unknown", modelId: id };
}
