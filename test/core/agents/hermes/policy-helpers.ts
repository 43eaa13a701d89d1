// Builds a hermes simulation over a hand-made turn context (no session file needed).
import type { ContextMessage, LlmMessage, Session } from "../../../../src/core/model";
import { hermesPolicy } from "../../../../src/core/agents/hermes/policy";
import { TURN_PIPELINE } from "../../../../src/core/session/pipeline";
import { resolveParameters } from "../../../../src/core/session/simulate/simulate";
import type { PolicyParameters, SimulationContext, SimulationInput, SimulationResult } from "../../../../src/core/simulate/types";

export function ctx(messages: LlmMessage[]): ContextMessage[] {
  return messages.map((message, i) => ({ message, provenance: { rule: "entry", entryId: `e${i}` } }));
}

const emptySession: Session = { formatId: "pi", formatLabel: "pi", fileName: "t.jsonl", formatVersion: 3, header: null, entries: [], warnings: [], lineCount: 0 };

export function runHermes(messages: LlmMessage[], parameters: PolicyParameters = {}, extra: Partial<SimulationInput> = {}, contextWindow = 200000): SimulationResult {
  const input: SimulationInput = { session: emptySession, options: { profile: "pi" }, turn: 1, policyId: "hermes", parameters, manual: true, ...extra };
  const context: SimulationContext = {
    pipeline: TURN_PIPELINE,
    turnContext: { turn: 1, entryId: "answer", messages: ctx(messages), dropped: [], model: { provider: "openai", modelId: "gpt-4o" }, thinkingLevel: "off", api: "openai-completions", pathEntryIds: [], compactionId: null, warnings: [] },
    turnRequest: { api: "openai-completions", body: { model: "gpt-4o", messages: [] } },
    limits: { contextWindow, contextWindowSource: "override", maxOutputTokens: 16384, maxOutputTokensSource: "override", inputLimit: null, inputLimitSource: "none" },
    turnCount: 1,
    parameters: resolveParameters(hermesPolicy, parameters),
  };
  return hermesPolicy.simulate(input, context);
}

/** A conversation of `turns` user/assistant pairs with a tool call each. */
export function conversation(turns: number, userText = (i: number) => `user request number ${i}: please look at the code`): LlmMessage[] {
  const out: LlmMessage[] = [];
  for (let i = 0; i < turns; i++) {
    out.push({ role: "user", content: userText(i) });
    out.push({ role: "assistant", content: [{ type: "toolCall", id: `c${i}`, name: "read_file", arguments: { path: `src/f${i}.ts` } }] });
    out.push({ role: "toolResult", toolCallId: `c${i}`, toolName: "read_file", content: [{ type: "text", text: `contents of f${i}` }], isError: false });
    out.push({ role: "assistant", content: [{ type: "text", text: `answer ${i}: the file looks fine` }] });
  }
  return out;
}
