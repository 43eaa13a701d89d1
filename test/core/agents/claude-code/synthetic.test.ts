// Assistant lines Claude Code writes itself, without a request (model "<synthetic>", usage all
// zeros: "No response requested." after a local command, an API error notice): session events,
// not turns. Later turns keep their numbers, and the session's cost stays fully priced.
import { describe, expect, it } from "vitest";
import type { PipelineOptions } from "../../../../src/core/model";
import { analyzeSession } from "../../../../src/core/session/pipeline";
import { priceableOfUsage, priceUsage, sumPriced } from "../../../../src/core/pricing";
import { datasetPriceTable } from "../../../../src/core/pricing/dataset";
import { assistant, readClaude, user } from "./helpers";

const OPTIONS: PipelineOptions = { profile: "pi" };
const ZERO = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, server_tool_use: { web_search_requests: 0 }, service_tier: null };

function synthetic(uuid: string, parentUuid: string, text: string, extra: Record<string, unknown> = {}) {
  const line = assistant(uuid, parentUuid, `synthetic-${uuid}`, [{ type: "text", text }], ZERO, extra);
  (line.message as Record<string, unknown>).model = "<synthetic>";
  (line.message as Record<string, unknown>).stop_reason = "stop_sequence";
  return line;
}

function real(uuid: string, parentUuid: string, messageId: string) {
  const line = assistant(uuid, parentUuid, messageId, [{ type: "text", text: `answer ${messageId}` }]);
  (line.message as Record<string, unknown>).model = "claude-sonnet-4-5-20250929";
  return line;
}

const session = () =>
  readClaude([
    user("u1", null, "hello"),
    real("a1", "u1", "msg_1"),
    user("u2", "a1", "<command-name>/model</command-name>"),
    synthetic("s1", "u2", "No response requested."),
    user("u3", "s1", "go on"),
    synthetic("s2", "u3", "API Error: 529 Overloaded", { isApiErrorMessage: true }),
    user("u4", "s2", "go on again"),
    real("a2", "u4", "msg_2"),
  ]);

describe("Claude Code's synthetic assistant lines", () => {
  it("are session events, not turns: the two real replies are turns 1 and 2", () => {
    const analysis = analyzeSession(session(), OPTIONS);
    expect(analysis.turns.map((turn) => [turn.turn, turn.entryId, turn.model?.modelId])).toEqual([
      [1, "a1", "claude-sonnet-4-5-20250929"],
      [2, "a2", "claude-sonnet-4-5-20250929"],
    ]);
    expect(analysis.events?.map((event) => [event.entryId, event.kind, event.afterTurn])).toEqual([
      ["s1", "synthetic reply", 1],
      ["s2", "api error message", 1],
    ]);
    expect(analysis.events![0]!.label).toBe("Claude Code's own reply, no request sent: No response requested.");
    expect(analysis.warnings).toEqual([]);
  });

  it("leave the session fully priced", () => {
    const analysis = analyzeSession(session(), OPTIONS);
    const table = datasetPriceTable();
    const total = sumPriced(analysis.turns.map((turn) => priceUsage(turn.usage ? priceableOfUsage(turn.usage) : null, turn.model, table)));
    expect(total.status).toBe("priced");
  });
});
