// The history a simulation starts from (CP-0-1: "after the response of turn N"): turn N's
// context messages plus the answer that the turn's assistant entry recorded, when the session
// holds it in pi's shape; and the prompt-token count the provider reported for turn N.
import type { AssistantMessage, ContextMessage, Session } from "../model";
import type { SimulationContext } from "./types";

function entryRaw(session: Session, entryId: string): Record<string, unknown> | null {
  return session.entries.find((entry) => entry.id === entryId)?.raw ?? null;
}

/** Turn N's answer as a pi-shaped assistant message, or null when the session format differs. */
function turnAnswer(session: Session, entryId: string): AssistantMessage | null {
  const message = entryRaw(session, entryId)?.message;
  if (typeof message !== "object" || message === null) return null;
  const candidate = message as AssistantMessage;
  return candidate.role === "assistant" && Array.isArray(candidate.content) ? candidate : null;
}

/** Context of turn N followed by its answer (provenance `entry`). */
export function historyAfterTurn(session: Session, context: SimulationContext): ContextMessage[] {
  const messages = [...context.turnContext.messages];
  const answer = turnAnswer(session, context.turnContext.entryId);
  if (answer) messages.push({ message: answer, provenance: { rule: "entry", entryId: context.turnContext.entryId } });
  return messages;
}

/**
 * Prompt tokens the provider reported for turn N (pi usage input + cache read + cache write;
 * opencode `tokens.input + cache.read + cache.write`), or null when nothing is recorded.
 */
export function recordedPromptTokens(session: Session, entryId: string): number | null {
  const raw = entryRaw(session, entryId);
  if (!raw) return null;
  const usage = (raw.message as { usage?: Record<string, number> } | undefined)?.usage;
  if (usage && typeof usage.input === "number") return usage.input + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0);
  const tokens = (raw.info as { tokens?: { input?: number; cache?: { read?: number; write?: number } } } | undefined)?.tokens;
  if (tokens && typeof tokens.input === "number") return tokens.input + (tokens.cache?.read ?? 0) + (tokens.cache?.write ?? 0);
  return null;
}
