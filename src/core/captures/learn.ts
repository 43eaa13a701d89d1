// A captured request body → its header plus every fact it teaches (generic ones by wire shape,
// and the agent-specific ones each agent's capture.ts reads). The body's shape says which
// learners apply; a learner that finds nothing of its own returns no facts.
import type { RequestHeader } from "../model";
import { extractRequestHeader } from "../providers/index";
import { isObject } from "../util/is-object";
import { learnClaudeCapture } from "../agents/claude-code/capture";
import { learnCodexCapture } from "../agents/codex/capture";
import { genericFacts } from "./generic";

/** Like extractRequestHeader (same errors), with `model` and `facts` filled. */
export function learnCapture(body: unknown, source: string): RequestHeader {
  const header = extractRequestHeader(body, source);
  const object = body as Record<string, unknown>;
  const facts = [...genericFacts(object, header)];
  if (header.api === "anthropic-messages") facts.push(...learnClaudeCapture(object, source));
  if (header.api === "openai-responses") facts.push(...learnCodexCapture(object, source));
  return { ...header, ...(typeof object.model === "string" ? { model: object.model } : {}), facts };
}

/** True when `value` looks like a request body (for folder drops that hold other JSON too). */
export function isCaptureBody(value: unknown): boolean {
  return isObject(value) && (Array.isArray(value.messages) || Array.isArray(value.input) || Array.isArray(value.contents));
}
