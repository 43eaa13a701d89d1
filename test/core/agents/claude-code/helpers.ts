// Builders of small synthetic Claude Code transcripts for unit tests.
import { readSessionText } from "../../../../src/core/session/index";
import type { Session } from "../../../../src/core/model";

export const SESSION_ID = "11111111-2222-3333-4444-555555555555";

const common = { sessionId: SESSION_ID, version: "2.1.0", cwd: "/p", entrypoint: "cli", userType: "external", gitBranch: "main" };

export function user(uuid: string, parentUuid: string | null, content: unknown, extra: Record<string, unknown> = {}) {
  return { parentUuid, isSidechain: false, type: "user", message: { role: "user", content }, uuid, timestamp: "2026-01-01T00:00:00.000Z", ...common, ...extra };
}

export function assistant(
  uuid: string,
  parentUuid: string | null,
  messageId: string,
  content: unknown[],
  usage: Record<string, unknown> = { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 5 },
  extra: Record<string, unknown> = {},
) {
  return {
    parentUuid,
    isSidechain: false,
    type: "assistant",
    message: { id: messageId, type: "message", role: "assistant", model: "claude-test", content, stop_reason: "end_turn", usage },
    uuid,
    timestamp: "2026-01-01T00:00:01.000Z",
    ...common,
    ...extra,
  };
}

export function attachment(uuid: string, parentUuid: string, attachmentValue: Record<string, unknown>, rendered?: string[], renderedRole?: string) {
  return {
    parentUuid,
    isSidechain: false,
    attachment: attachmentValue,
    type: "attachment",
    uuid,
    timestamp: "2026-01-01T00:00:00.500Z",
    ...(rendered ? { rendered: rendered.map((content) => ({ content })), renderedRole } : {}),
    ...common,
  };
}

export function boundary(uuid: string, logicalParentUuid: string, extra: Record<string, unknown> = {}) {
  return {
    parentUuid: null,
    logicalParentUuid,
    isSidechain: false,
    type: "system",
    subtype: "compact_boundary",
    content: "Conversation compacted",
    compactMetadata: { trigger: "auto", preTokens: 1234, postTokens: 100, preservedSegment: { headUuid: "h" }, ...extra },
    uuid,
    timestamp: "2026-01-01T00:00:02.000Z",
    ...common,
  };
}

export function toText(lines: unknown[]): string {
  return lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n");
}

export function readClaude(lines: unknown[]): Session {
  return readSessionText(toText(lines), "s.jsonl", "claude-code");
}
