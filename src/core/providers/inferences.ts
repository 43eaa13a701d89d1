// The serializer behaviours that are our inference ([INF]) rather than pinned by a fixture, with
// the rule id the UI shows next to an "inferred" label and the option that switches each one.
import type { ApiId } from "../model";

export interface SerializerInference {
  ruleId: string;
  apis: readonly ApiId[];
  description: string;
  /** The `SerializeOptions` field that changes it, when there is one. */
  option?: string;
}

export const SERIALIZER_INFERENCES: readonly SerializerInference[] = [
  {
    ruleId: "PI-R5",
    apis: ["openai-completions"],
    description: 'System role "developer" when the model reasons and its compat flag supportsDeveloperRole is set (pi-ai rule).',
  },
  {
    ruleId: "PROV-OAI-THINKING",
    apis: ["openai-completions"],
    description:
      "Assistant thinking is sent only when the first thinking block has a signature, as the field that signature names (joined with newlines); unsigned thinking is dropped.",
  },
  {
    ruleId: "PROV-REASONING-EFFORT",
    apis: ["openai-completions"],
    description: "reasoning_effort = the thinking level (xhigh → high unless the model supports xhigh) when thinking is on and the model reasons and supports it.",
    option: "reasoningEffort",
  },
  {
    ruleId: "PROV-MAXTOKENS",
    apis: ["openai-completions", "anthropic-messages", "openai-responses", "google-generative-ai"],
    description: "Without a header output cap: min(model.maxTokens, 32000), pi-ai's default.",
    option: "maxTokensCap",
  },
  {
    ruleId: "PROV-ANTHROPIC-THINKING",
    apis: ["anthropic-messages"],
    description: "Signed thinking → thinking block with signature; unsigned → text block; redacted → redacted_thinking.",
  },
  {
    ruleId: "PROV-ANTHROPIC-THINKING-CONFIG",
    apis: ["anthropic-messages"],
    description: "Thinking on for a reasoning model: adaptive + output_config.effort for Opus/Sonnet 4.6, else budget-based (1024/2048/8192/16384).",
  },
  {
    ruleId: "PROV-CACHE-RETENTION",
    apis: ["anthropic-messages", "openai-responses"],
    description: 'Cache retention "short" (default); "long" adds ttl 1h to Anthropic breakpoints; "none" drops them.',
    option: "cacheRetention",
  },
  {
    ruleId: "PROV-EXTRA-SETTINGS",
    apis: ["openai-completions", "anthropic-messages", "openai-responses", "google-generative-ai"],
    description: "A header's extra settings are copied only into requests of the shape it was captured in.",
  },
  {
    ruleId: "PI-R14",
    apis: ["openai-responses", "google-generative-ai"],
    description: "Generic mapping of pi-ai's serializer; no fixture pins the bytes.",
  },
];
