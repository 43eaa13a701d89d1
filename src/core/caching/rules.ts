// Provider prompt-cache rules as versioned data (providers-and-caching.md §3, spec snapshot
// 2026-11). Every figure carries its value, its source and the date of that source, so the UI can
// show where a number comes from and a later snapshot can replace it without code changes.
// `primary` = the provider's own docs (or a verbatim quote of them); secondary rows are marked
// [INF] in the spec.

export interface SourcedFigure<T> {
  value: T;
  /** Where the figure comes from (document, issue, snapshot). */
  source: string;
  /** ISO date (or month) of the source; null when the source is undated. */
  date: string | null;
  /** Provider documentation (or a verbatim quote of it) rather than a secondary report. */
  primary: boolean;
  /** Spec rule id. */
  ruleId: string;
}

/** A minimum-length row (CA-3, CA-18): which models, how many tokens, and from where. */
interface MinimumRow extends SourcedFigure<number> {
  /** Model keys, as produced by `anthropicModelKey` / `geminiModelKey` (e.g. "opus-4.6"). */
  models: readonly string[];
  /** Larger = more recent snapshot; the resolution rule prefers primary, then recency. */
  recency: number;
  /** Shown as a conflict with another row for the same model. */
  conflicting?: boolean;
}

const SDK_1194 = "Anthropic docs snapshot quoted in anthropics/anthropic-sdk-python#1194";

/** CA-3 Anthropic minimum cacheable prefix length, in tokens. */
const ANTHROPIC_MINIMUMS: readonly MinimumRow[] = [
  { models: ["opus-4.6", "opus-4.5", "haiku-4.5"], value: 4096, source: SDK_1194, date: null, primary: true, recency: 1, ruleId: "CA-3" },
  {
    models: ["sonnet-4.6", "sonnet-4.5", "opus-4.1", "opus-4", "sonnet-4", "sonnet-3.7"],
    value: 1024,
    source: SDK_1194,
    date: null,
    primary: true,
    recency: 1,
    ruleId: "CA-3",
  },
  { models: ["haiku-3.5", "haiku-3"], value: 2048, source: SDK_1194, date: null, primary: true, recency: 1, ruleId: "CA-3" },
  { models: ["opus-4.7", "mythos-preview"], value: 4096, source: "later docs snapshot (secondary)", date: null, primary: false, recency: 3, ruleId: "CA-3" },
  { models: ["opus-4.8"], value: 1024, source: "later docs snapshot (secondary)", date: null, primary: false, recency: 3, ruleId: "CA-3" },
  { models: ["opus-5", "mythos-5"], value: 512, source: "secondary report", date: null, primary: false, recency: 4, ruleId: "CA-3" },
  { models: ["opus-4.7"], value: 2048, source: "secondary report (conflicts with the later snapshot)", date: null, primary: false, recency: 2, conflicting: true, ruleId: "CA-3" },
  {
    models: ["sonnet-4.6"],
    value: 2048,
    source: "secondary report; a user report saw Sonnet caching start only at ≥ 2048",
    date: null,
    primary: false,
    recency: 2,
    conflicting: true,
    ruleId: "CA-3",
  },
];

/** CA-3: unknown Anthropic models (e.g. the fixture's claude-opus-5-5) use this, with a warning. */
const ANTHROPIC_DEFAULT_MINIMUM: SourcedFigure<number> = {
  value: 1024,
  source: "spec resolution rule for unknown models",
  date: null,
  primary: false,
  ruleId: "CA-3",
};

/** CA-2, CA-4, CA-5 Anthropic cache mechanics and prices (relative to base input). */
export const ANTHROPIC_RULES = {
  maxBreakpoints: { value: 4, source: "secondary sources quoting the Anthropic docs", date: null, primary: false, ruleId: "CA-2" },
  lookbackBlocks: { value: 20, source: "secondary sources quoting the Anthropic docs", date: null, primary: false, ruleId: "CA-2" },
  ttl5mMs: { value: 5 * 60_000, source: "Anthropic prompt-caching docs", date: null, primary: true, ruleId: "CA-4" },
  ttl1hMs: { value: 60 * 60_000, source: "Anthropic prompt-caching docs", date: null, primary: true, ruleId: "CA-4" },
  automaticCachingSince: { value: "2026-02-19", source: "Anthropic docs (automatic caching GA)", date: "2026-02-19", primary: true, ruleId: "CA-1" },
  write5mMultiplier: { value: 1.25, source: "secondary sources", date: null, primary: false, ruleId: "CA-5" },
  write1hMultiplier: { value: 2, source: "secondary sources", date: null, primary: false, ruleId: "CA-5" },
  readMultiplier: { value: 0.1, source: "secondary sources", date: null, primary: false, ruleId: "CA-5" },
  batchFactor: { value: 0.5, source: "secondary sources", date: null, primary: false, ruleId: "CA-5" },
} as const satisfies Record<string, SourcedFigure<number | string>>;

/** CA-13 (models before GPT-5.6) and CA-14 (GPT-5.6 and later). */
export const OPENAI_RULES = {
  minimumTokens: { value: 1024, source: "OpenAI prompt-caching docs", date: null, primary: true, ruleId: "CA-13" },
  blockTokens: { value: 128, source: "OpenAI prompt-caching docs", date: null, primary: true, ruleId: "CA-13" },
  inMemoryIdleMinMs: { value: 5 * 60_000, source: "OpenAI prompt-caching docs (5–10 minutes idle)", date: null, primary: true, ruleId: "CA-13" },
  inMemoryIdleMaxMs: { value: 10 * 60_000, source: "OpenAI prompt-caching docs (5–10 minutes idle)", date: null, primary: true, ruleId: "CA-13" },
  inMemoryMaxMs: { value: 60 * 60_000, source: "OpenAI prompt-caching docs (at most 1 hour)", date: null, primary: true, ruleId: "CA-13" },
  extendedRetentionMs: { value: 24 * 60 * 60_000, source: "OpenAI docs: prompt_cache_retention \"24h\"", date: null, primary: true, ruleId: "CA-13" },
  overflowRequestsPerMinute: { value: 15, source: "secondary source (approximate)", date: null, primary: false, ruleId: "CA-13" },
  writeMultiplier: { value: 1, source: "OpenAI docs: writes cost nothing extra before GPT-5.6", date: null, primary: true, ruleId: "CA-13" },
  v56MaxBreakpointsWritten: { value: 4, source: "OpenAI docs (GPT-5.6+)", date: null, primary: true, ruleId: "CA-14" },
  v56MatchedBreakpoints: { value: 80, source: "OpenAI docs (GPT-5.6+)", date: null, primary: true, ruleId: "CA-14" },
  v56TtlMs: { value: 30 * 60_000, source: "OpenAI docs (GPT-5.6+): ttl \"30m\"", date: null, primary: true, ruleId: "CA-14" },
  v56WriteMultiplier: { value: 1.25, source: "OpenAI docs (GPT-5.6+)", date: null, primary: true, ruleId: "CA-14" },
  v56MinimumTokens: { value: 1024, source: "OpenAI docs (GPT-5.6+)", date: null, primary: true, ruleId: "CA-14" },
} as const satisfies Record<string, SourcedFigure<number>>;

/**
 * CA-17: the cached-input discount is 50–95 % by model family; the per-model price table is not
 * in the spec, so the conservative end (50 %, read = 0.5× input) is the default until a price row
 * is supplied through `CacheRuleOverrides.readMultiplier`.
 */
export const OPENAI_READ_MULTIPLIER_DEFAULT: SourcedFigure<number> = {
  value: 0.5,
  source: "spec CA-17 range 50–95 %; no per-model price row → 50 % assumed",
  date: null,
  primary: false,
  ruleId: "CA-17",
};

/** CA-18 Gemini implicit-caching minimums. */
const GEMINI_MINIMUMS: readonly MinimumRow[] = [
  { models: ["2.5-flash"], value: 1024, source: "Google docs", date: "2025-05", primary: true, recency: 1, ruleId: "CA-18" },
  { models: ["2.5-pro"], value: 2048, source: "Google docs", date: "2025-05", primary: true, recency: 1, ruleId: "CA-18" },
  { models: ["3.5-flash", "3.1-pro-preview"], value: 4096, source: "Google docs snapshot", date: "2026-06-26", primary: true, recency: 2, ruleId: "CA-18" },
  { models: ["2.5-flash", "2.5-pro"], value: 2048, source: "Google docs snapshot", date: "2026-06-26", primary: true, recency: 2, ruleId: "CA-18" },
];

export const GEMINI_RULES = {
  implicitReadMultiplier: { value: 0.25, source: "secondary source: 75 % discount at the 2.5 launch", date: "2025-05", primary: false, ruleId: "CA-18" },
  explicitTtlMs: { value: 60 * 60_000, source: "Google docs: CachedContent default TTL 1 hour", date: null, primary: true, ruleId: "CA-19" },
} as const satisfies Record<string, SourcedFigure<number>>;

const GEMINI_DEFAULT_MINIMUM: SourcedFigure<number> = {
  value: 1024,
  source: "no row for this model: lowest documented implicit minimum",
  date: null,
  primary: false,
  ruleId: "CA-18",
};

/** User overrides of the figures above (every value is user-overridable, CA-3). */
export interface CacheRuleOverrides {
  /** Minimum cacheable tokens by exact model id. */
  minimumByModel?: Record<string, number>;
  /** Read multiplier (cached input price / base input price) by exact model id. */
  readMultiplierByModel?: Record<string, number>;
}

/** A resolved figure with the rows that disagree with it (CA-3 "conflicts are shown"). */
export interface ResolvedFigure extends SourcedFigure<number> {
  conflicts: SourcedFigure<number>[];
  warning: string | null;
}

/** "claude-opus-4-6", "claude-sonnet-4-5-20250929", "claude-3-5-haiku-20241022" → "opus-4.6", "sonnet-4.5", "haiku-3.5". */
export function anthropicModelKey(model: string): string | null {
  const id = model.toLowerCase();
  const modern = /(opus|sonnet|haiku|mythos)-(\d{1,2}|preview)(?:-(\d{1,2}))?(?=$|-\d{8}|@|\b)/.exec(id);
  if (modern) {
    const family = modern[1]!;
    if (modern[2] === "preview") return `${family}-preview`;
    return modern[3] !== undefined ? `${family}-${modern[2]}.${modern[3]}` : `${family}-${modern[2]}`;
  }
  const legacy = /claude-(\d)(?:-(\d))?-(opus|sonnet|haiku)/.exec(id);
  if (legacy) return legacy[2] !== undefined ? `${legacy[3]}-${legacy[1]}.${legacy[2]}` : `${legacy[3]}-${legacy[1]}`;
  return null;
}

/** "gemini-2.5-pro-002", "models/gemini-3.1-pro-preview" → "2.5-pro", "3.1-pro-preview". */
function geminiModelKey(model: string): string | null {
  const match = /gemini-(\d+(?:\.\d+)?)-(flash-lite|flash|pro)(-preview)?/.exec(model.toLowerCase());
  return match ? `${match[1]}-${match[2]}${match[3] ?? ""}` : null;
}

/** CA-3 resolution: the most recent primary value wins, else the most recent secondary; conflicts listed. */
function resolveMinimum(
  rows: readonly MinimumRow[],
  key: string | null,
  fallback: SourcedFigure<number>,
  model: string,
  override?: number,
): ResolvedFigure {
  const matching = key === null ? [] : rows.filter((row) => row.models.includes(key));
  if (override !== undefined) {
    return { value: override, source: "user override", date: null, primary: false, ruleId: fallback.ruleId, conflicts: matching, warning: null };
  }
  if (matching.length === 0) {
    return { ...fallback, conflicts: [], warning: `No minimum known for model "${model}": ${fallback.value} assumed` };
  }
  const ranked = [...matching].sort((a, b) => Number(b.primary) - Number(a.primary) || b.recency - a.recency);
  const chosen = ranked[0]!;
  const conflicts = ranked.slice(1).filter((row) => row.value !== chosen.value);
  const { models: _models, recency: _recency, conflicting: _conflicting, ...figure } = chosen;
  return { ...figure, conflicts, warning: null };
}

/** A provider's minimum rows, its default, how a model names its row, and the minimums resolved so far. */
interface MinimumTable {
  rows: readonly MinimumRow[];
  fallback: SourcedFigure<number>;
  modelKey: (model: string) => string | null;
  /**
   * Minimums resolved without a user override, per model: the simulation asks for its model's
   * every turn, and the rows never change. Shared between turns: read only.
   */
  resolved: Map<string | null, ResolvedFigure>;
}

const ANTHROPIC_TABLE: MinimumTable = { rows: ANTHROPIC_MINIMUMS, fallback: ANTHROPIC_DEFAULT_MINIMUM, modelKey: anthropicModelKey, resolved: new Map() };
const GEMINI_TABLE: MinimumTable = { rows: GEMINI_MINIMUMS, fallback: GEMINI_DEFAULT_MINIMUM, modelKey: geminiModelKey, resolved: new Map() };

function tableMinimum(table: MinimumTable, model: string | null, overrides?: CacheRuleOverrides): ResolvedFigure {
  const id = model ?? "unknown";
  const override = overrides?.minimumByModel?.[id];
  // The model's key (a regular expression) is read only when the minimum is resolved, not every turn.
  const key = () => (model ? table.modelKey(model) : null);
  if (override !== undefined) return resolveMinimum(table.rows, key(), table.fallback, id, override);
  let resolved = table.resolved.get(model);
  if (!resolved) table.resolved.set(model, (resolved = resolveMinimum(table.rows, key(), table.fallback, id)));
  return resolved;
}

export function anthropicMinimum(model: string | null, overrides?: CacheRuleOverrides): ResolvedFigure {
  return tableMinimum(ANTHROPIC_TABLE, model, overrides);
}

export function geminiMinimum(model: string | null, overrides?: CacheRuleOverrides): ResolvedFigure {
  return tableMinimum(GEMINI_TABLE, model, overrides);
}

/** CA-14: GPT-5.6 and later use the breakpoint rules; earlier models the 1024/128-block rule. */
export function isOpenAiBreakpointModel(model: string | null): boolean {
  if (!model) return false;
  const match = /gpt-(\d+)(?:\.(\d+))?/.exec(model.toLowerCase());
  if (!match) return false;
  const major = Number(match[1]);
  const minor = Number(match[2] ?? 0);
  return major > 5 || (major === 5 && minor >= 6);
}

/** CA-13: `cached = L < 1024 ? 0 : 128 × floor(L / 128)`. */
export function openAiCachedTokens(commonPrefixTokens: number): number {
  const minimum = OPENAI_RULES.minimumTokens.value;
  const block = OPENAI_RULES.blockTokens.value;
  return commonPrefixTokens < minimum ? 0 : block * Math.floor(commonPrefixTokens / block);
}

/**
 * The shortest prompt any provider in these rules caches (the smallest minimum of every table):
 * a prompt shorter than this is never read from a cache, so writing it again is no miss.
 */
export const SMALLEST_CACHEABLE_PREFIX = Math.min(
  ...ANTHROPIC_MINIMUMS.map((row) => row.value),
  ...GEMINI_MINIMUMS.map((row) => row.value),
  ANTHROPIC_DEFAULT_MINIMUM.value,
  GEMINI_DEFAULT_MINIMUM.value,
  OPENAI_RULES.minimumTokens.value,
  OPENAI_RULES.v56MinimumTokens.value,
);
