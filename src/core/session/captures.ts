// A captured request body → its header plus every fact it teaches: the generic ones by wire shape,
// then each agent's own (the descriptor's capture learner; a learner that finds nothing of its own
// returns no facts). And the captured summariser requests that fill the instruction texts of an
// agent's standalone compaction rebuild.
import type { CapturedCompactionRequest, CompactionInstructions } from "../agents/descriptor";
import type { RequestHeader } from "../model";
import { extractRequestHeader } from "../providers/index";
import { genericFacts } from "../captures/generic";
import { isObject } from "../util/is-object";
import { allAgents } from "./agents";

/** Like extractRequestHeader (same errors), with `model` and `facts` filled. */
export function learnCapture(body: unknown, source: string): RequestHeader {
  const header = extractRequestHeader(body, source);
  const object = body as Record<string, unknown>;
  const facts = [...genericFacts(object, header)];
  for (const agent of allAgents()) if (agent.captureLearner) facts.push(...agent.captureLearner.facts(object, source, header.api));
  return { ...header, ...(typeof object.model === "string" ? { model: object.model } : {}), facts };
}

/** True when `value` looks like a request body (for folder drops that hold other JSON too). */
export function isCaptureBody(value: unknown): boolean {
  return isObject(value) && (Array.isArray(value.messages) || Array.isArray(value.input) || Array.isArray(value.contents));
}

/** The instruction texts of a captured summariser request of any agent that rebuilds its compactions on its own, or null. */
export function extractCompactionInstructions(body: unknown, source: string): CapturedCompactionRequest | null {
  for (const agent of allAgents()) {
    const captured = agent.summariserCapture?.extract(body, source) ?? null;
    if (captured) return captured;
  }
  return null;
}

/** Several captures' instruction texts in one value (the first capture of a slot wins). */
export function mergeCompactionInstructions(...all: (CompactionInstructions | null | undefined)[]): CompactionInstructions {
  const merge = allAgents().find((agent) => agent.summariserCapture)?.summariserCapture?.merge;
  if (!merge) throw new Error("No agent rebuilds compactions from captured summariser requests");
  return merge(...all);
}

/** The name of each summariser instruction slot, for the UI. */
export function compactionInstructionLabels(): Readonly<Record<string, string>> {
  return allAgents().find((agent) => agent.summariserCapture)?.summariserCapture?.slotLabels ?? {};
}
