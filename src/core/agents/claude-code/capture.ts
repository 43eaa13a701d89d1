// What a captured Claude Code request holds that the transcript does not: the device and account
// ids inside `metadata.user_id` (a JSON string), the same in every request of a session.
import type { CaptureFact } from "../../model";
import { fact } from "../../captures/fact";
import { isObject } from "../../util/is-object";
import type { ClaudeUserIds } from "./wire";

export const CLAUDE_USER_IDS = "claude.user_ids";

export function learnClaudeCapture(body: Record<string, unknown>, source: string): CaptureFact[] {
  const metadata = body.metadata;
  if (!isObject(metadata) || typeof metadata.user_id !== "string") return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(metadata.user_id);
  } catch {
    return [];
  }
  if (!isObject(parsed) || typeof parsed.device_id !== "string" || typeof parsed.account_uuid !== "string") return [];
  const ids: ClaudeUserIds = { deviceId: parsed.device_id, accountUuid: parsed.account_uuid };
  return [fact("session", CLAUDE_USER_IDS, "device and account ids of metadata.user_id", "$.metadata.user_id", ids, source)];
}

/** The learnt ids as the wire needs them, or null. */
export function claudeUserIds(value: unknown): ClaudeUserIds | null {
  return isObject(value) && typeof value.deviceId === "string" && typeof value.accountUuid === "string" ? { deviceId: value.deviceId, accountUuid: value.accountUuid } : null;
}
