// What any captured request teaches whatever agent sent it: the session constants of its header
// (system prompt, tools, the request settings kept verbatim) and the facts of the model it was
// sent to (reasoning or not, thinking budget, output limit, developer role, reasoning effort),
// read from the fields each wire shape uses for them.
import type { ApiId, CaptureFact, RequestHeader } from "../model";
import { isObject } from "../util/is-object";
import { fact } from "./fact";

function headerConstants(header: RequestHeader): CaptureFact[] {
  const source = header.source;
  const facts: CaptureFact[] = [];
  if (header.systemPrompt !== undefined) facts.push(fact("session", "system", "system prompt", "$.system", header.systemPrompt, source));
  if (header.tools !== undefined) facts.push(fact("session", "tools", `tools (${header.tools.length})`, "$.tools", header.tools.map((tool) => tool.name), source));
  for (const [key, value] of Object.entries(header.extraSettings)) {
    facts.push(fact("session", `setting.${key}`, `request setting ${key}`, `$.${key}`, value, source));
  }
  return facts;
}

function chatModelFacts(body: Record<string, unknown>, source: string): CaptureFact[] {
  const facts: CaptureFact[] = [];
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const first = messages[0];
  if (isObject(first) && first.role === "developer") {
    // pi sends "developer" only to a reasoning model that supports the role.
    facts.push(fact("model", "model.reasoning", "reasoning model", "$.messages[0].role", true, source));
    facts.push(fact("model", "model.supportsDeveloperRole", "developer role", "$.messages[0].role", true, source));
  }
  if (typeof body.reasoning_effort === "string") {
    facts.push(fact("model", "model.reasoning", "reasoning model", "$.reasoning_effort", true, source));
    facts.push(fact("model", "model.supportsReasoningEffort", "reasoning effort accepted", "$.reasoning_effort", true, source));
    facts.push(fact("model", "model.reasoningEffort", "reasoning effort", "$.reasoning_effort", body.reasoning_effort, source));
  }
  for (const key of ["max_completion_tokens", "max_tokens"] as const) {
    if (typeof body[key] === "number") {
      facts.push(fact("model", "model.maxTokens", "output limit", `$.${key}`, body[key], source));
      facts.push(fact("model", "model.maxTokensField", "output limit field", `$.${key}`, key, source));
      break;
    }
  }
  return facts;
}

function anthropicModelFacts(body: Record<string, unknown>, source: string): CaptureFact[] {
  const facts: CaptureFact[] = [];
  const thinking = body.thinking;
  if (isObject(thinking) && (thinking.type === "enabled" || thinking.type === "adaptive")) {
    facts.push(fact("model", "model.reasoning", "reasoning model", "$.thinking.type", true, source));
    if (typeof thinking.budget_tokens === "number") facts.push(fact("model", "model.thinkingBudget", "thinking budget", "$.thinking.budget_tokens", thinking.budget_tokens, source));
  }
  // With budget thinking the output cap is the budget plus the answer's share, not the model's limit.
  if (typeof body.max_tokens === "number" && !(isObject(thinking) && thinking.type === "enabled")) {
    facts.push(fact("model", "model.maxTokens", "output limit", "$.max_tokens", body.max_tokens, source));
  }
  return facts;
}

function responsesModelFacts(body: Record<string, unknown>, source: string): CaptureFact[] {
  const facts: CaptureFact[] = [];
  const reasoning = body.reasoning;
  if (isObject(reasoning) && typeof reasoning.effort === "string") {
    facts.push(fact("model", "model.reasoning", "reasoning model", "$.reasoning.effort", true, source));
    facts.push(fact("model", "model.reasoningEffort", "reasoning effort", "$.reasoning.effort", reasoning.effort, source));
  }
  if (typeof body.max_output_tokens === "number") facts.push(fact("model", "model.maxTokens", "output limit", "$.max_output_tokens", body.max_output_tokens, source));
  return facts;
}

/** Session constants of the header plus the model facts of the body's wire shape. */
export function genericFacts(body: Record<string, unknown>, header: RequestHeader): CaptureFact[] {
  const api: ApiId = header.api;
  const model =
    api === "openai-completions"
      ? chatModelFacts(body, header.source)
      : api === "anthropic-messages"
        ? anthropicModelFacts(body, header.source)
        : api === "openai-responses"
          ? responsesModelFacts(body, header.source)
          : [];
  return [...headerConstants(header), ...model];
}
