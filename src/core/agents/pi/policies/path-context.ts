// The converted context of a pi/senpi path (projection → convertToLlm → senpi steps without
// reply-language notes), i.e. what the next main request would hold at that point. Used for the
// senpi replay source (CP-SE-1) and for the context after a simulated compaction.
import type { PiProfileId } from "../profile";
import type { ContextMessage, SessionEntry } from "../../../model";
import { convertToLlm } from "../convert";
import { projectPath } from "../projection";
import { applySenpiSteps } from "../senpi";

export interface PathContext {
  messages: ContextMessage[];
  thinkingLevel: string;
  model: { provider: string; modelId: string } | null;
}

export function contextOfPath(path: readonly SessionEntry[], profile: PiProfileId): PathContext {
  const projected = projectPath(path as SessionEntry[], profile);
  let messages = convertToLlm(projected.messages, profile).messages;
  if (profile === "senpi") messages = applySenpiSteps(messages, { notes: false, notesStep: null }).messages;
  return { messages, thinkingLevel: projected.thinkingLevel, model: projected.model };
}
