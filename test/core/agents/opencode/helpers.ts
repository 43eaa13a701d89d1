// Small builders of opencode records for unit tests (FM-OC-5, FM-OC-6 shapes).
import type { OpencodeMessageRecord, OpencodePart } from "../../../../src/core/agents/opencode";

let clock = 1_000;

export function user(id: string, parts: Partial<OpencodePart>[] | string): OpencodeMessageRecord {
  const list = typeof parts === "string" ? [{ type: "text", text: parts }] : parts;
  return {
    info: { id, role: "user", time: { created: (clock += 10) }, agent: "build", model: { providerID: "p", modelID: "m" } },
    parts: list.map((part, i) => ({ id: `${id}_p${i}`, type: "text", ...part }) as OpencodePart),
  };
}

export function assistant(
  id: string,
  parentID: string,
  parts: Partial<OpencodePart>[] | string,
  extra: Record<string, unknown> = {},
): OpencodeMessageRecord {
  const list = typeof parts === "string" ? [{ type: "text", text: parts }] : parts;
  return {
    info: {
      id,
      role: "assistant",
      parentID,
      providerID: "p",
      modelID: "m",
      finish: "stop",
      time: { created: (clock += 10) },
      tokens: { total: 100, input: 90, output: 10, reasoning: 0, cache: { read: 0, write: 0 } },
      ...extra,
    },
    parts: [{ id: `${id}_s`, type: "step-start" }, ...list.map((part, i) => ({ id: `${id}_p${i}`, type: "text", ...part }) as OpencodePart)],
  };
}

export function toolPart(callID: string, tool: string, input: unknown, output: string, state: Record<string, unknown> = {}): Partial<OpencodePart> {
  return { type: "tool", tool, callID, state: { status: "completed", input, output, ...state } };
}

export function compaction(id: string, tailStartId?: string): OpencodeMessageRecord {
  return user(id, [{ type: "compaction", auto: true, overflow: false, ...(tailStartId ? { tail_start_id: tailStartId } : {}) }]);
}

export function summary(id: string, parentID: string, text: string, extra: Record<string, unknown> = {}): OpencodeMessageRecord {
  return assistant(id, parentID, text, { summary: true, mode: "compaction", agent: "compaction", ...extra });
}

export function exportDocument(records: OpencodeMessageRecord[], info: Record<string, unknown> = {}): string {
  return JSON.stringify({ info: { id: "ses_test", title: "Test", version: "1.18.33", directory: "/w", ...info }, messages: records }, null, 2);
}
