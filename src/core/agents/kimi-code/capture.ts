// What a captured Kimi Code request teaches that the wire file does not hold: the
// `prompt_cache_key` it sends, the name of the session's folder (`session_<id>`), which the file
// never writes. Kept as a session constant; a wire file read with its path finds it there instead.
import type { CaptureFact } from "../../model";
import { fact } from "../../captures/fact";

export const KIMI_CACHE_KEY = "kimi-code.promptCacheKey";

export function learnKimiCodeCapture(body: Record<string, unknown>, source: string): CaptureFact[] {
  const key = body.prompt_cache_key;
  if (typeof key !== "string" || !key.startsWith("session_")) return [];
  return [fact("session", KIMI_CACHE_KEY, "prompt_cache_key as sent (the session folder's name)", "$.prompt_cache_key", key, source)];
}
