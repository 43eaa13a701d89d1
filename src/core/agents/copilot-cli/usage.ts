// Copilot CLI's model ids and token counts in the shapes every agent records
// (docs/formats/copilot-cli.md). Copilot names models its own way ("claude-sonnet-4.5",
// "claude-opus-4.6-1m", "copilot/gpt-5.4"): the provider is read from the family and Claude's
// dotted version written as Anthropic writes it, so the price dataset finds the list price. Its
// usage counts `inputTokens` with the cache reads and writes inside (a shutdown's 48,243 input
// tokens are its tokenDetails' 4 input + 24,072 cache read + 24,167 cache write): the uncached
// input is what is left.
import type { ModelRef, RecordedUsage } from "../../model";
import { isObject } from "../../util/is-object";

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

/** The provider whose model Copilot calls, from the model family. */
function providerOf(id: string): string {
  if (id.startsWith("claude")) return "anthropic";
  if (/^(gpt|o\d|codex)/.test(id)) return "openai";
  if (id.startsWith("gemini")) return "google";
  if (id.startsWith("grok")) return "x-ai";
  return "github-copilot";
}

/**
 * A model id Copilot records as the provider's model: the routing prefix dropped, Claude's dotted
 * version dashed ("claude-sonnet-4.5" → "claude-sonnet-4-5") and its context-size suffix dropped
 * ("claude-opus-4.6-1m" → "claude-opus-4-6": the 1M-context variant is the same model; an
 * "-internal" build is priced as the model it is).
 */
export function copilotModelRef(recorded: unknown): ModelRef | null {
  if (typeof recorded !== "string" || recorded.trim() === "") return null;
  let id = recorded.trim();
  const slash = id.lastIndexOf("/");
  if (slash >= 0) id = id.slice(slash + 1);
  if (id.startsWith("claude")) id = id.replace(/-internal$/, "").replace(/-1m$/, "").replace(/(\d)\.(\d)/g, "$1-$2");
  return { provider: providerOf(id), modelId: id };
}

/**
 * A usage object of Copilot's (`session.usage_record`'s `usage`, a shutdown's per-model `usage`,
 * a compaction's `compactionTokensUsed`) as recorded usage: input without its cache reads and
 * writes, reasoning tokens inside the output as Copilot counts them. Null when it holds no count.
 */
export function copilotUsage(usage: unknown): RecordedUsage | null {
  if (!isObject(usage)) return null;
  const total = num(usage.inputTokens);
  const cacheRead = num(usage.cacheReadTokens);
  const cacheWrite = num(usage.cacheWriteTokens);
  const output = num(usage.outputTokens);
  if (total === 0 && output === 0 && cacheRead === 0 && cacheWrite === 0) return null;
  const input = Math.max(0, total - cacheRead - cacheWrite);
  return { input, output, cacheRead, cacheWrite, totalTokens: input + cacheRead + cacheWrite + output };
}
