// The interface every provider serializer implements: one module per wire shape (pi's API
// names), so the pipeline, the UI and the CLI can render any turn in any shape. The static list of
// serializers lives in ./index.ts.
import type { ApiId, LlmMessage, ModelInfo, RequestHeader } from "../model";

/**
 * Behaviour switches for the parts of serialization the spec marks [INF] or that depend on pi
 * settings the session does not record. Every field is optional; the defaults are pi's.
 */
export interface SerializeOptions {
  /**
   * Output cap used when the header has none: min(model.maxTokens, this). pi-ai's
   * `buildBaseOptions` clamps to 32000. [INF: PROV-MAXTOKENS]
   */
  maxTokensCap?: number;
  /**
   * pi's cache retention: "short" (default) → `cache_control: {type:"ephemeral"}`; "long" adds
   * `ttl: "1h"` (pi does so only for api.anthropic.com); "none" sends no cache markers.
   */
  cacheRetention?: "short" | "long" | "none";
  /** OpenAI Responses: pi's `prompt_cache_key` (the session id); omitted when undefined. */
  sessionId?: string;
  /**
   * Chat Completions: send `reasoning_effort` when thinking is on and the model supports it.
   * Default true. [INF: PROV-REASONING-EFFORT]
   */
  reasoningEffort?: boolean;
  /**
   * Apply pi-ai's `transformMessages` (drop errored/aborted assistant messages, synthesize
   * "No result provided" results for orphaned tool calls, cross-model thinking → text). Default
   * true. [SRC: pi-ai transform-messages.ts]
   */
  transformMessages?: boolean;
}

export interface SerializeInput {
  model: ModelInfo;
  /** Converted messages in order (after every pipeline step). */
  messages: LlmMessage[];
  /**
   * `messages` is a list its owner only ever appends to (a session walk's carried list): given
   * again as the same array, the messages an earlier call saw are still its first ones, so the
   * serializer goes on from that call without comparing them.
   */
  messagesGrowing?: boolean;
  /**
   * A session walk whose reader reads each request before asking for the next and keeps none past
   * the turn after (the walk's own object): the body's message list may then be one of two lists
   * the walk is handed in turn, updated in place, instead of a new copy per turn.
   */
  reuseWalk?: object;
  /** Captured request header, or null: then system and tools are "not recorded" markers. */
  header: RequestHeader | null;
  /** pi thinking level in force at this turn ("off", "minimal", "low", "medium", "high", "xhigh"). */
  thinkingLevel: string;
  /**
   * Leave the tools key out entirely (summariser requests, PI-K20). Chat Completions still sends
   * `tools: []` when the messages hold tool calls or results, as pi-ai does.
   */
  omitTools?: boolean;
  options?: SerializeOptions;
}

/** A change the serializer made to the message list the way pi-ai does before sending. */
export interface SerializeAdjustment {
  kind: "skipped-message" | "synthesized-tool-result" | "thinking-as-text" | "dropped-block";
  /** Index in `SerializeInput.messages` of the message concerned. */
  messageIndex: number;
  reason: string;
}

export interface SerializeOutput {
  body: Record<string, unknown>;
  /** Labels of the parts of the body filled with a not-recorded marker ("system", "tools"). */
  notRecorded: string[];
  /** What pi-ai's message transformation changed (empty when nothing). */
  adjustments: SerializeAdjustment[];
}

/**
 * "exact": pinned byte for byte by recorded fixtures; "generic": a mapping of pi-ai's behaviour
 * not yet pinned by a fixture (PI-R14), shown as "generic mapping" in the UI.
 */
type SerializerFidelity = "exact" | "generic";

export interface ProviderSerializer {
  id: ApiId;
  label: string;
  fidelity: SerializerFidelity;
  /** True when a parsed JSON body looks like a request of this shape. */
  detect(body: Record<string, unknown>): boolean;
  /** Builds the request body as pi sends it. */
  serialize(input: SerializeInput): SerializeOutput;
  /** Takes system prompt, tools and settings from a captured request body of this shape. */
  extractHeader(body: Record<string, unknown>, source: string): RequestHeader;
}
