// Entry point of segmentation (PR-2): a provider-shaped body → its cache segments in the provider's
// cache order, PR-7 settings, cache options, and size in bytes and tokens.
import type { ApiId } from "../model";
import { counterForApi, type CounterOptions } from "../tokens/counters";
import { cacheControlMarker } from "./canonical";
import { isObject } from "../util/is-object";
import { segmentAnthropic } from "./segment-anthropic";
import { createSegmentCache, SegmentListBuilder, setCarry, type SegmentCache } from "./segment-builder";
import { segmentGoogle } from "./segment-google";
import { CHAT_FRAMING, segmentOpenAiChat, type OpenAiToolsPosition } from "./segment-openai-chat";
import { segmentOpenAiResponses } from "./segment-openai-responses";
import { extractSettings, modelOf } from "./settings";
import type { SegmentedRequest } from "./types";

export interface SegmentOptions extends CounterOptions {
  /** PR-4 [INF]: where tool definitions sit in OpenAI's cached prefix. Default "after-leading-system". */
  openaiToolsPosition?: OpenAiToolsPosition;
  /** FM-CC-19 [INF]: leave Claude Code's `x-anthropic-billing-header` system block out. Default false. */
  ignoreBillingHeader?: boolean;
  /** Per-content cache; pass the same one for every turn of a session. */
  cache?: SegmentCache;
}

const defaultCache = createSegmentCache();

export function segmentRequest(api: ApiId, body: Record<string, unknown>, options: SegmentOptions = {}): SegmentedRequest {
  const counter = counterForApi(api, options);
  const out = new SegmentListBuilder(counter, options.cache ?? defaultCache);
  const toolsPosition = options.openaiToolsPosition ?? "after-leading-system";
  let primingTokens = 0;
  switch (api) {
    case "anthropic-messages":
      segmentAnthropic(body, out, options.ignoreBillingHeader ?? false);
      break;
    case "openai-completions":
      segmentOpenAiChat(body, out, toolsPosition);
      primingTokens = CHAT_FRAMING.replyPriming;
      break;
    case "openai-responses":
      segmentOpenAiResponses(body, out, toolsPosition);
      primingTokens = CHAT_FRAMING.replyPriming;
      break;
    case "google-generative-ai":
      segmentGoogle(body, out);
      break;
  }
  const promptCacheOptions = isObject(body.prompt_cache_options) ? body.prompt_cache_options : {};
  const isOpenAi = api === "openai-completions" || api === "openai-responses";
  const { segments, notRecorded } = out.finish();
  const segmented: SegmentedRequest = {
    api,
    model: modelOf(body),
    segments,
    settings: extractSettings(api, body),
    automaticCache: api === "anthropic-messages" ? cacheControlMarker(body.cache_control) : null,
    openaiCache: {
      retention: typeof body.prompt_cache_retention === "string" ? body.prompt_cache_retention : null,
      mode: typeof promptCacheOptions.mode === "string" ? promptCacheOptions.mode : null,
      ttl: typeof promptCacheOptions.ttl === "string" ? promptCacheOptions.ttl : null,
    },
    bytes: out.bytes,
    tokens: out.tokens + primingTokens,
    primingTokens,
    tokenizer: counter.id,
    tokensExact: counter.exact,
    framingApproximate: isOpenAi,
    notRecorded,
  };
  if (out.carried) out.carried.oneHourMarkers = out.oneHourMarkers;
  setCarry(segmented, out.carried);
  return segmented;
}
