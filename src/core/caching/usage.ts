// CA-21, CA-22: normalise every recorded usage object to one shape, keeping the raw object.
// Anthropic's input excludes cached tokens, OpenAI's includes them; Claude Code repeats one
// response's usage on every content-block entry and must be deduplicated by message id.

export type UsageSource =
  | "anthropic"
  | "claude-code"
  | "openai-chat"
  | "openai-responses"
  | "codex-rollout"
  | "gemini"
  | "pi"
  | "opencode";

export interface NormalizedUsage {
  uncachedInput: number;
  cacheRead: number;
  cacheWrite: number;
  cacheWrite5m?: number;
  cacheWrite1h?: number;
  output: number;
  reasoningOutput?: number;
  /** uncachedInput + cacheRead + cacheWrite. */
  totalInput: number;
  /** totalInput + output. */
  total: number;
  source: UsageSource;
  raw: unknown;
}

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** Any non-null object, arrays included (unlike `isObject`), as a record; `{}` otherwise. */
function anyObjectOrEmpty(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

function make(
  source: UsageSource,
  raw: unknown,
  parts: { uncachedInput: number; cacheRead: number; cacheWrite: number; output: number; reasoningOutput?: number; cacheWrite5m?: number; cacheWrite1h?: number },
): NormalizedUsage {
  const totalInput = parts.uncachedInput + parts.cacheRead + parts.cacheWrite;
  const result: NormalizedUsage = {
    uncachedInput: parts.uncachedInput,
    cacheRead: parts.cacheRead,
    cacheWrite: parts.cacheWrite,
    output: parts.output,
    totalInput,
    total: totalInput + parts.output,
    source,
    raw,
  };
  if (parts.cacheWrite5m !== undefined) result.cacheWrite5m = parts.cacheWrite5m;
  if (parts.cacheWrite1h !== undefined) result.cacheWrite1h = parts.cacheWrite1h;
  if (parts.reasoningOutput !== undefined) result.reasoningOutput = parts.reasoningOutput;
  return result;
}

/** One row of the CA-21 table per source. */
export function normalizeUsage(source: UsageSource, rawUsage: unknown): NormalizedUsage {
  const u = anyObjectOrEmpty(rawUsage);
  switch (source) {
    case "anthropic":
    case "claude-code": {
      const creation = anyObjectOrEmpty(u.cache_creation);
      const split = u.cache_creation !== undefined;
      return make(source, rawUsage, {
        uncachedInput: num(u.input_tokens),
        cacheRead: num(u.cache_read_input_tokens),
        cacheWrite: num(u.cache_creation_input_tokens),
        output: num(u.output_tokens),
        ...(split ? { cacheWrite5m: num(creation.ephemeral_5m_input_tokens), cacheWrite1h: num(creation.ephemeral_1h_input_tokens) } : {}),
        ...(u.output_tokens_details !== undefined ? { reasoningOutput: num(anyObjectOrEmpty(u.output_tokens_details).thinking_tokens) } : {}),
      });
    }
    case "openai-chat": {
      const details = anyObjectOrEmpty(u.prompt_tokens_details);
      const cached = num(details.cached_tokens);
      const write = num(details.cache_write_tokens ?? u.cache_write_tokens);
      const completion = anyObjectOrEmpty(u.completion_tokens_details);
      return make(source, rawUsage, {
        uncachedInput: num(u.prompt_tokens) - cached - write,
        cacheRead: cached,
        cacheWrite: write,
        output: num(u.completion_tokens),
        ...(completion.reasoning_tokens !== undefined ? { reasoningOutput: num(completion.reasoning_tokens) } : {}),
      });
    }
    case "openai-responses": {
      const details = anyObjectOrEmpty(u.input_tokens_details);
      const cached = num(details.cached_tokens);
      const write = num(details.cache_write_tokens ?? u.cache_write_tokens);
      const outputDetails = anyObjectOrEmpty(u.output_tokens_details);
      return make(source, rawUsage, {
        uncachedInput: num(u.input_tokens) - cached - write,
        cacheRead: cached,
        cacheWrite: write,
        output: num(u.output_tokens),
        ...(outputDetails.reasoning_tokens !== undefined ? { reasoningOutput: num(outputDetails.reasoning_tokens) } : {}),
      });
    }
    case "codex-rollout": {
      const cached = num(u.cached_input_tokens);
      const write = num(u.cache_write_input_tokens);
      return make(source, rawUsage, {
        uncachedInput: num(u.input_tokens) - cached - write,
        cacheRead: cached,
        cacheWrite: write,
        output: num(u.output_tokens),
        ...(u.reasoning_output_tokens !== undefined ? { reasoningOutput: num(u.reasoning_output_tokens) } : {}),
      });
    }
    case "gemini": {
      const cached = num(u.cachedContentTokenCount);
      return make(source, rawUsage, {
        uncachedInput: num(u.promptTokenCount) - cached,
        cacheRead: cached,
        cacheWrite: 0,
        output: num(u.candidatesTokenCount),
        ...(u.thoughtsTokenCount !== undefined ? { reasoningOutput: num(u.thoughtsTokenCount) } : {}),
      });
    }
    case "pi":
      return make(source, rawUsage, {
        uncachedInput: num(u.input),
        cacheRead: num(u.cacheRead),
        cacheWrite: num(u.cacheWrite),
        output: num(u.output),
        // A reader that knows the writes' TTL split (Claude Code's) keeps it in pi's shape.
        ...(u.cacheWrite1h !== undefined || u.cacheWrite5m !== undefined ? { cacheWrite5m: num(u.cacheWrite5m), cacheWrite1h: num(u.cacheWrite1h) } : {}),
      });
    case "opencode": {
      const cache = anyObjectOrEmpty(u.cache);
      return make(source, rawUsage, {
        uncachedInput: num(u.input),
        cacheRead: num(cache.read),
        cacheWrite: num(cache.write),
        output: num(u.output),
        ...(u.reasoning !== undefined ? { reasoningOutput: num(u.reasoning) } : {}),
      });
    }
  }
}

/**
 * CA-22 / FM-CC-4: Claude Code stores one response as several assistant entries sharing
 * `message.id`, each repeating the same usage. Keeps one usage per message id, taken from the last
 * entry (its `output_tokens` is final; earlier ones can be a stream stub). Entries without an id
 * are kept as they are.
 */
export function dedupeClaudeCodeUsage(
  entries: readonly { message?: { id?: unknown; usage?: unknown } }[],
): { messageId: string | null; usage: NormalizedUsage }[] {
  const byId = new Map<string, number>();
  const result: { messageId: string | null; usage: NormalizedUsage }[] = [];
  for (const entry of entries) {
    const message = entry.message;
    if (!message || message.usage === undefined) continue;
    const usage = normalizeUsage("claude-code", message.usage);
    const id = typeof message.id === "string" ? message.id : null;
    if (id !== null && byId.has(id)) {
      result[byId.get(id)!] = { messageId: id, usage };
      continue;
    }
    if (id !== null) byId.set(id, result.length);
    result.push({ messageId: id, usage });
  }
  return result;
}
