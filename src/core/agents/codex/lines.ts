// The three line shapes Codex rollouts have had, mapped to one (type, payload) view so the rest of
// the Codex folder reads every version alike (docs/formats/codex.md, "Rollout versions"):
//
// - envelope (current): `{timestamp, type, payload}` with `type` one of session_meta,
//   response_item, event_msg, turn_context, compacted, token_usage_record, world_state, …;
// - tagged (a short-lived intermediate writer): `{timestamp, record_type, ...fields}` with
//   `record_type` session_meta, prev_session_meta, response, event or state, the fields flattened;
// - pre-envelope (2025 and before): a first line `{id, timestamp, instructions?, git?, …}` (the
//   session meta, untagged), then bare response items `{type: "message" | "function_call" | …}`
//   and `{"record_type": "state"}` snapshot lines.
//
// The reader keeps each line's parsed object whole as `entry.raw` and gives the entry the mapped
// type; `linePayload` finds the payload again.
import type { SessionEntry } from "../../model";
import { isObject } from "../../util/is-object";

/** Entry type of a `{"record_type":"state"}` snapshot line: an empty client-state record, no history. */
const STATE_LINE_TYPE = "state";

/**
 * The rollout line type of a parsed line, or null when it is none of the shapes. `isFirstObject`:
 * no line was read before it; `preEnvelope`: the file's first line was the untagged meta line,
 * the only case where a bare item is a rollout line.
 */
export function rolloutLineType(raw: Record<string, unknown>, isFirstObject: boolean, preEnvelope: boolean): string | null {
  if (typeof raw.type === "string" && isObject(raw.payload)) return raw.type;
  if (typeof raw.record_type === "string") {
    switch (raw.record_type) {
      case "session_meta":
      case "prev_session_meta":
        return "session_meta";
      case "response":
        return "response_item";
      case "event":
        return "event_msg";
      case "state":
        return STATE_LINE_TYPE;
      default:
        return null;
    }
  }
  if (isFirstObject && isLegacyMeta(raw)) return "session_meta";
  // A bare response item: every ResponseItem variant carries a string `type`.
  if (preEnvelope && typeof raw.type === "string" && !("payload" in raw)) return "response_item";
  return null;
}

/** The untagged first line of a pre-envelope rollout: the session's id and start time, no `type`. */
export function isLegacyMeta(raw: Record<string, unknown>): boolean {
  return typeof raw.id === "string" && typeof raw.timestamp === "string" && !("type" in raw) && !("record_type" in raw);
}

const TAG_KEYS = new Set(["timestamp", "record_type"]);

const taggedPayloads = new WeakMap<object, Record<string, unknown>>();

/** The payload of an entry in any of the three shapes (the tagged shape's fields without its tags). */
export function linePayload(entry: SessionEntry): Record<string, unknown> | null {
  const raw = entry.raw;
  if (typeof raw.type === "string" && raw.type === entry.type && isObject(raw.payload)) return raw.payload;
  if (typeof raw.record_type === "string") {
    const cached = taggedPayloads.get(raw);
    if (cached) return cached;
    let payload: Record<string, unknown> = {};
    if (raw.record_type === "event") payload = isObject(raw.msg) ? raw.msg : {};
    else for (const key of Object.keys(raw)) if (!TAG_KEYS.has(key)) payload[key] = raw[key];
    taggedPayloads.set(raw, payload);
    return payload;
  }
  // Pre-envelope lines are the payload themselves.
  return raw;
}
