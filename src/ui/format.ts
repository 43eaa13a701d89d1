// Small text formatters shared by the panels (numbers, token counts, times, sizes).

// Whole numbers with thousands separators: a figure computed as a fraction (a price-weighted token
// count, an average) is shown rounded, never as "15414.0672".
const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

export function formatInt(value: number): string {
  return integer.format(value);
}

/** 950 → "950", 12345 → "12.3k", 2_500_000 → "2.50M". */
export function formatCompact(value: number): string {
  if (value < 1000) return String(value);
  if (value < 1_000_000) return `${(value / 1000).toFixed(value < 10_000 ? 2 : 1)}k`;
  return `${(value / 1_000_000).toFixed(2)}M`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

// One formatter each, made once: `toLocaleTimeString` builds a new one on every call, which
// showed in the profile of stepping through a long timeline (every visible row formats its time).
// The options are those `toLocaleTimeString`/`toLocaleDateString` add when none are given.
let timeFormat: Intl.DateTimeFormat | null = null;
let dateFormat: Intl.DateTimeFormat | null = null;

function localTime(date: Date): string {
  timeFormat ??= new Intl.DateTimeFormat("en-GB", { hour12: false, hour: "numeric", minute: "numeric", second: "numeric" });
  return timeFormat.format(date);
}

function localDate(date: Date): string {
  dateFormat ??= new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "numeric", day: "numeric" });
  return dateFormat.format(date);
}

/** Local time of an ISO timestamp, HH:MM:SS; empty when absent or invalid. */
export function formatTime(iso: string | null): string {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return localTime(date);
}

export function formatDateTime(iso: string | null): string {
  if (!iso) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${localDate(date)} ${localTime(date)}`;
}

export const API_LABELS: Record<string, string> = {
  "anthropic-messages": "Anthropic Messages",
  "openai-completions": "OpenAI Chat Completions",
  "openai-responses": "OpenAI Responses",
  "google-generative-ai": "Google Gemini API",
};
