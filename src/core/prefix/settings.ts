// PR-7: request fields that are not prompt text. Settings that break caching when they change are
// compared separately (settings-changed); request metadata is excluded from the prefix entirely.
// Every other top-level key not listed here and not a prompt segment is ignored (documented in
// docs/prefix-stability.md).
import type { ApiId } from "../model";
import { isObject } from "../util/is-object";
import { googleConfig } from "./segment-google";

/** Request metadata: never part of the prefix (PR-7, FM-CX-12). */
export const EXCLUDED_METADATA_KEYS: readonly string[] = [
  "stream",
  "stream_options",
  "metadata",
  "client_metadata",
  "max_tokens",
  "max_completion_tokens",
  "max_output_tokens",
  "prompt_cache_key",
  "prompt_cache_retention",
  "prompt_cache_options",
  "store",
  "include",
  "user",
  "service_tier",
];

/** Settings compared per shape (name → how to read it). Model is compared on its own. */
const SETTINGS: Record<ApiId, Record<string, (body: Record<string, unknown>) => unknown>> = {
  "anthropic-messages": {
    tool_choice: (b) => b.tool_choice,
    thinking: (b) => b.thinking,
    "output_config.effort": (b) => (isObject(b.output_config) ? b.output_config.effort : undefined),
    "output_config.format": (b) => (isObject(b.output_config) ? b.output_config.format : undefined),
    context_management: (b) => b.context_management,
    service_tier: (b) => b.service_tier,
  },
  "openai-completions": {
    tool_choice: (b) => b.tool_choice,
    reasoning_effort: (b) => b.reasoning_effort,
    response_format: (b) => b.response_format,
    service_tier: (b) => b.service_tier,
  },
  "openai-responses": {
    tool_choice: (b) => b.tool_choice,
    "reasoning.effort": (b) => (isObject(b.reasoning) ? b.reasoning.effort : undefined),
    "text.format": (b) => (isObject(b.text) ? b.text.format : undefined),
    service_tier: (b) => b.service_tier,
  },
  "google-generative-ai": {
    thinkingConfig: (b) => generation(b).thinkingConfig,
    responseSchema: (b) => generation(b).responseSchema ?? generation(b).responseJsonSchema,
    responseMimeType: (b) => generation(b).responseMimeType,
  },
};

function generation(body: Record<string, unknown>): Record<string, unknown> {
  const config = googleConfig(body);
  return isObject(body.generationConfig) ? body.generationConfig : config;
}

/** Each shape's settings as a list, made once: every turn reads them. */
const SETTING_LISTS = new Map<string, [string, (body: Record<string, unknown>) => unknown][]>(
  Object.entries(SETTINGS).map(([api, readers]) => [api, Object.entries(readers)]),
);

/** The PR-7 settings of a body, each as compact JSON; absent ones are left out. */
export function extractSettings(api: ApiId, body: Record<string, unknown>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, read] of SETTING_LISTS.get(api) ?? Object.entries(SETTINGS[api])) {
    const value = read(body);
    if (value !== undefined && value !== null) result[name] = JSON.stringify(value);
  }
  return result;
}

/** Names of the settings that differ between two requests. */
export function changedSettings(previous: Record<string, string>, next: Record<string, string>): string[] {
  const names = new Set([...Object.keys(previous), ...Object.keys(next)]);
  return [...names].filter((name) => previous[name] !== next[name]).sort();
}

/** The model of a body (`model`, or Google's SDK form), null when absent. */
export function modelOf(body: Record<string, unknown>): string | null {
  return typeof body.model === "string" ? body.model : null;
}
