// What hermes-agent's compressor summarises (compaction-policies.md CP-HA-7 … CP-HA-11): the
// protected head, the token-budgeted tail, the refusal rule, and the
// previous summary taken from handoff messages inside the window.
import { cpLength, pyInt } from "./codepoints";
import { handoffSummaryBody, hermesContentText, isHandoffSummary, isRealUserTurn, type HermesMessage } from "./messages";

/** CP-HA-10 per-message estimate: content chars/4 + 10, tool-call envelope, replay fields, images. */
export function hermesMessageTokens(message: HermesMessage): number {
  let images = 0;
  let chars = 0;
  if (typeof message.content === "string") chars = cpLength(message.content);
  else {
    for (const part of message.content) {
      if (part.type === "image_url") images++;
      else chars += cpLength(part.text ?? "");
    }
  }
  let tokens = pyInt(chars / 4) + 10;
  if (message.toolCalls && message.toolCalls.length > 0) {
    const envelope = JSON.stringify(message.toolCalls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } })));
    tokens += pyInt(cpLength(envelope) / 4);
  }
  if (message.reasoning) tokens += pyInt(cpLength(message.reasoning) / 4);
  return tokens + images * 1600;
}

export interface HermesPartitionInput {
  messages: readonly HermesMessage[];
  protectFirstN: number;
  protectLastN: number;
  tailTokenBudget: number;
  /** True after the first compaction: `protect_first_n` decays to 0 (CP-HA-9). */
  compactedBefore: boolean;
}

export interface HermesPartition {
  /** Head = messages [0, headEnd). */
  headEnd: number;
  /** Tail = messages [tailStart, n). Middle = [headEnd, tailStart). */
  tailStart: number;
  protectFirstNUsed: number;
  /** CP-HA-7 refusal. */
  refused: boolean;
  estimates: number[];
  tailTokens: number;
  middleTokens: number;
  /** Indices of handoff summaries inside the middle (removed from the input, CP-HA-11). */
  handoffIndexes: number[];
  /** Body of the newest handoff summary inside the window, or null. */
  previousSummary: string | null;
  notes: string[];
}

/** CP-HA-7, CP-HA-9 … CP-HA-11. */
export function hermesPartition(input: HermesPartitionInput): HermesPartition {
  const { messages } = input;
  const n = messages.length;
  const notes: string[] = [];
  const estimates = messages.map(hermesMessageTokens);
  const systemCount = messages[0]?.role === "system" ? 1 : 0;
  // CP-HA-9: decay after the first compaction, or when a handoff summary sits in the early head.
  const earlyHandoff = messages.slice(systemCount, systemCount + input.protectFirstN).some(isHandoffSummary);
  const protectFirstN = input.compactedBefore || earlyHandoff ? 0 : input.protectFirstN;
  if (protectFirstN !== input.protectFirstN) notes.push("protect_first_n decayed to 0 (CP-HA-9)");
  let headEnd = Math.min(n, systemCount + protectFirstN);
  // The start boundary moves forward past tool results (no orphan results at the middle's start).
  while (headEnd < n && messages[headEnd]?.role === "tool") headEnd++;
  const base = { headEnd, protectFirstNUsed: protectFirstN, estimates, handoffIndexes: [], previousSummary: null, notes };
  if (n <= headEnd + 3 + 1) {
    return { ...base, tailStart: n, refused: true, tailTokens: 0, middleTokens: 0 };
  }
  // CP-HA-10 tail walk: soft ceiling 1.5 × budget, at least max(3, min(protect_last_n, 8)) messages,
  // capped so that at least two middle messages remain.
  const ceiling = pyInt(1.5 * input.tailTokenBudget);
  const minKeep = Math.min(Math.max(3, Math.min(input.protectLastN, 8)), n - headEnd - 2);
  let tailStart = n;
  let accumulated = 0;
  for (let i = n - 1; i >= headEnd + 2; i--) {
    const estimate = estimates[i] as number;
    if (n - tailStart >= minKeep && accumulated + estimate > ceiling) break;
    accumulated += estimate;
    tailStart = i;
  }
  // Never split an assistant tool-call group: pull the tail start back to the calling assistant.
  // [INF: HA-INF-TAIL-GROUP] (the spec does not say which way the boundary moves)
  while (tailStart > headEnd && tailStart < n && messages[tailStart]?.role === "tool") tailStart--;
  // Always keep the latest real user message and the latest visible assistant reply in the tail.
  let latestUser = -1;
  let latestReply = -1;
  for (let i = n - 1; i >= 0 && (latestUser < 0 || latestReply < 0); i--) {
    const message = messages[i] as HermesMessage;
    if (latestUser < 0 && isRealUserTurn(message)) latestUser = i;
    if (latestReply < 0 && message.role === "assistant" && hermesContentText(message).trim() !== "") latestReply = i;
  }
  // Only while at least two middle messages remain (the CP-HA-10 cap), so that a transcript whose
  // only user turn is old can still be compacted (test table row 12). [INF: HA-INF-TAIL-KEEP]
  for (const keep of [latestUser, latestReply]) {
    if (keep >= headEnd + 2 && keep < tailStart) {
      notes.push(`tail extended to message ${keep} (latest ${keep === latestUser ? "user message" : "assistant reply"}, CP-HA-10)`);
      tailStart = keep;
    }
  }
  const tailTokens = estimates.slice(tailStart).reduce((a, b) => a + b, 0);
  const handoffIndexes: number[] = [];
  let previousSummary: string | null = null;
  for (let i = headEnd; i < tailStart; i++) {
    const message = messages[i] as HermesMessage;
    if (isHandoffSummary(message)) {
      handoffIndexes.push(i);
      previousSummary = handoffSummaryBody(message);
    }
  }
  const middleTokens = estimates.slice(headEnd, tailStart).reduce((a, b) => a + b, 0);
  const refused = tailStart - headEnd - handoffIndexes.length <= 0;
  return { ...base, tailStart, refused, tailTokens, middleTokens, handoffIndexes, previousSummary };
}
