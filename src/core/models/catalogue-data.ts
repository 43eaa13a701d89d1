// Built-in model catalogue as versioned data (providers-and-caching.md: provider figures ship as
// data with value, source and date). Every figure here was written from memory of the providers'
// model pages and pi-ai's generated model list, not checked against them: each entry says so in
// `source` ("catalogue (unverified)"), and the UI shows it. Users can override any entry. The context
// windows are held to the price dataset's (@pydantic/genai-prices) by a test, which lists the few
// differences kept on purpose (test/core/models/catalogue-windows.test.ts).
import type { ApiId } from "../model";

export interface CatalogueEntry {
  provider: string;
  id: string;
  api: ApiId;
  contextWindow: number;
  maxTokens: number;
  reasoning: boolean;
  supportsDeveloperRole: boolean;
  supportsReasoningEffort: boolean;
  supportsImages: boolean;
  /** Where the figures come from. */
  source: string;
  /** When the figures were recorded (ISO date). */
  date: string;
}

const UNVERIFIED = "catalogue (unverified)";
const RECORDED = "2026-11-29";

function anthropic(id: string, contextWindow: number, maxTokens: number): CatalogueEntry {
  return {
    provider: "anthropic",
    id,
    api: "anthropic-messages",
    contextWindow,
    maxTokens,
    reasoning: true,
    supportsDeveloperRole: false,
    supportsReasoningEffort: false,
    supportsImages: true,
    source: UNVERIFIED,
    date: RECORDED,
  };
}

function openai(id: string, contextWindow: number, maxTokens: number, reasoning: boolean, images = true): CatalogueEntry {
  return {
    provider: "openai",
    id,
    api: "openai-responses",
    contextWindow,
    maxTokens,
    reasoning,
    supportsDeveloperRole: true,
    supportsReasoningEffort: reasoning,
    supportsImages: images,
    source: UNVERIFIED,
    date: RECORDED,
  };
}

function google(id: string, contextWindow: number, maxTokens: number, reasoning: boolean): CatalogueEntry {
  return {
    provider: "google",
    id,
    api: "google-generative-ai",
    contextWindow,
    maxTokens,
    reasoning,
    supportsDeveloperRole: false,
    supportsReasoningEffort: false,
    supportsImages: true,
    source: UNVERIFIED,
    date: RECORDED,
  };
}

export const MODEL_CATALOGUE: readonly CatalogueEntry[] = [
  // Anthropic Claude 4.x
  anthropic("claude-opus-4-7", 1000000, 128000),
  anthropic("claude-opus-4-6", 200000, 128000),
  anthropic("claude-sonnet-4-6", 200000, 64000),
  anthropic("claude-opus-4-5", 200000, 64000),
  anthropic("claude-opus-4-5-20251101", 200000, 64000),
  anthropic("claude-sonnet-4-5", 200000, 64000),
  anthropic("claude-sonnet-4-5-20250929", 200000, 64000),
  anthropic("claude-haiku-4-5", 200000, 64000),
  anthropic("claude-haiku-4-5-20251001", 200000, 64000),
  anthropic("claude-opus-4-1", 200000, 32000),
  anthropic("claude-opus-4-1-20250805", 200000, 32000),
  anthropic("claude-opus-4-0", 200000, 32000),
  anthropic("claude-opus-4-20250514", 200000, 32000),
  anthropic("claude-sonnet-4-0", 200000, 64000),
  anthropic("claude-sonnet-4-20250514", 200000, 64000),
  // OpenAI
  openai("gpt-4o", 128000, 16384, false),
  openai("gpt-4o-mini", 128000, 16384, false),
  openai("gpt-4.1", 1047576, 32768, false),
  openai("gpt-4.1-mini", 1047576, 32768, false),
  openai("gpt-4.1-nano", 1047576, 32768, false),
  openai("o1", 200000, 100000, true),
  openai("o3", 200000, 100000, true),
  openai("o3-mini", 200000, 100000, true, false),
  openai("o4-mini", 200000, 100000, true),
  openai("gpt-5", 400000, 128000, true),
  openai("gpt-5-mini", 400000, 128000, true),
  openai("gpt-5-nano", 400000, 128000, true),
  openai("gpt-5-codex", 400000, 128000, true),
  openai("gpt-5.1", 400000, 128000, true),
  openai("gpt-5.1-codex", 400000, 128000, true),
  openai("gpt-5.2", 400000, 128000, true),
  openai("gpt-5.2-codex", 400000, 128000, true),
  openai("gpt-5.3-codex", 400000, 128000, true),
  openai("gpt-5.4", 1050000, 128000, true),
  openai("gpt-5.4-mini", 400000, 128000, true),
  openai("gpt-5.5", 1000000, 128000, true),
  // Google Gemini
  google("gemini-2.5-pro", 1048576, 65536, true),
  google("gemini-2.5-flash", 1048576, 65536, true),
  google("gemini-2.5-flash-lite", 1048576, 65536, true),
  google("gemini-3-pro-preview", 1048576, 65536, true),
  google("gemini-3-flash-preview", 1048576, 65536, true),
];
