// Assembly of hermes-agent's compressed message list (compaction-policies.md CP-HA-26, CP-HA-28,
// CP-HA-29): output processing of the summary, the summary message with its role choice, the
// compaction note on a leading system message, the orphan clean-up around it and the image
// placeholders before the newest image-bearing user turn (`compress` and `_strip_historical_media`
// in agent/context_compressor.py, NousResearch/hermes-agent at 0000416b). Works on the hermes message list; converted back to pi-shaped
// context messages for the provider serializers by the policy.
import { cpHead } from "./codepoints";
import { hermesContentText, SUMMARY_END_MARKER, type HermesMessage, type HermesPart } from "./messages";
import { hermesRedact } from "./redact";

const SNAPSHOT_HEADING = "## Historical Task Snapshot";
/** CP-HA-19: sentinel for sessions without user turns. */
const NO_USER_SENTINEL = "None. This session contains no user-authored turns.";

/**
 * CP-HA-26: strip reasoning blocks, redact, and replace the Historical Task Snapshot section with
 * a deterministic one from the newest real user turn in the window (≤ 1400 chars). The
 * "historical only" line is our wording. [INF: HA-INF-SNAPSHOT-LINE]
 */
export function processSummaryOutput(summary: string, newestUserTurn: string | null): string {
  let text = summary.replace(/<(think|thinking|reasoning)>[\s\S]*?<\/\1>\s*/gi, "");
  text = hermesRedact(text).text;
  const start = text.indexOf(SNAPSHOT_HEADING);
  if (start < 0) return text;
  const next = text.indexOf("\n## ", start + SNAPSHOT_HEADING.length);
  const snapshot =
    newestUserTurn !== null
      ? cpHead(`User asked (deterministic, from compacted turns): '${newestUserTurn}'\n(historical only — not a new request)`, 1400)
      : NO_USER_SENTINEL;
  return `${text.slice(0, start)}${SNAPSHOT_HEADING}\n${snapshot}\n${next >= 0 ? text.slice(next + 1) : ""}`.replace(/\n+$/, "");
}

/** CP-HA-29: the summary message text. */
export function summaryMessageText(prefix: string, body: string): string {
  return `${prefix}\n${body}\n\n${SUMMARY_END_MARKER}`;
}

export interface SummaryPlacement {
  role: "user" | "assistant";
  /** The summary merged into the first tail message instead of standing alone. */
  merged: "none" | "wrapped-prior-content" | "prepended";
  reason: string;
}

function roleOf(message: HermesMessage | undefined): string | null {
  return message ? message.role : null;
}

/** CP-HA-29 role choice. */
export function chooseSummaryRole(head: readonly HermesMessage[], tail: readonly HermesMessage[]): SummaryPlacement {
  const headLast = head[head.length - 1];
  const userSurvives = [...head, ...tail].some((message) => message.role === "user");
  const forced = !userSurvives;
  let role: "user" | "assistant";
  let reason: string;
  if (forced) {
    role = "user";
    reason = "no user-role message would otherwise survive in head or tail";
  } else if (headLast === undefined) {
    role = "user";
    reason = "nothing is protected before the summary";
  } else if (headLast.role !== "user") {
    role = "user";
    reason = `the head ends with a ${headLast.role} message`;
  } else {
    role = "assistant";
    reason = "the head ends with a user message";
  }
  const firstTail = roleOf(tail[0]);
  if (firstTail !== role) return { role, merged: "none", reason };
  if (forced) return { role, merged: "prepended", reason: `${reason}; the first tail message is also ${role}: summary prepended to it` };
  const flipped = role === "user" ? "assistant" : "user";
  if (roleOf(headLast) === flipped) {
    return { role, merged: "wrapped-prior-content", reason: `${reason}; both roles collide: merged into the first tail message` };
  }
  return { role: flipped, merged: "none", reason: `${reason}; flipped to ${flipped} to avoid the first tail message's role` };
}

const PRIOR_CONTEXT_OPEN = "[PRIOR CONTEXT — for reference only; not a new message]";
const PRIOR_CONTEXT_CLOSE = "[END OF PRIOR CONTEXT — COMPACTION SUMMARY BELOW]";

/** The note appended once to a leading system message of the head (byte-exact from the source). */
export const COMPRESSION_NOTE =
  "[Note: Some earlier conversation turns have been compacted into a handoff summary to preserve context space. The current session state may still reflect earlier work, so build on that summary and state rather than re-doing work. Your persistent memory (MEMORY.md, USER.md) remains fully authoritative regardless of compaction.]";
/** What an image part before the newest image-bearing user turn becomes. */
export const IMAGE_STRIPPED = "[Attached image — stripped after compression]";

function withCompressionNote(message: HermesMessage): HermesMessage {
  if (hermesContentText(message).includes(COMPRESSION_NOTE)) return message;
  const existing = message.content;
  if (typeof existing === "string") return { ...message, content: existing ? `${existing}\n\n${COMPRESSION_NOTE}` : COMPRESSION_NOTE };
  return { ...message, content: [...existing, { type: "text", text: COMPRESSION_NOTE }] };
}

const hasImages = (message: HermesMessage): boolean => typeof message.content !== "string" && message.content.some((part) => part.type === "image_url");

/**
 * `_strip_historical_media`: anchor = the newest user message with an image part; every image
 * part before it becomes a text placeholder. No image-bearing user message, or only the first
 * message: unchanged. Returns the count of messages changed.
 */
function stripHistoricalMedia(messages: HermesMessage[]): number {
  let anchor = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as HermesMessage;
    if (message.role === "user" && hasImages(message)) {
      anchor = i;
      break;
    }
  }
  let changed = 0;
  for (let i = 0; i < anchor; i++) {
    const message = messages[i] as HermesMessage;
    if (!hasImages(message)) continue;
    messages[i] = { ...message, content: (message.content as HermesPart[]).map((part) => (part.type === "image_url" ? { type: "text", text: IMAGE_STRIPPED } : part)) };
    changed++;
  }
  return changed;
}

export interface AssembledList {
  messages: HermesMessage[];
  placement: SummaryPlacement;
  /** Indices (in the input head+tail) of orphan tool results dropped. */
  droppedOrphanResults: number;
  strippedOrphanCalls: number;
  /** Messages whose image parts became placeholders. */
  imagesStripped: number;
  /** The compaction note was appended to the leading system message. */
  systemNote: boolean;
}

/** CP-HA-28: head + summary + tail, orphans cleaned. */
export function assembleCompressed(protectedHead: readonly HermesMessage[], summaryText: string, tail: readonly HermesMessage[], hasUserTurn: boolean): AssembledList {
  // On the automatic path the system prompt is not in the list (it is added when the request is
  // built), so the note only lands when a caller passes a leading system message.
  const systemNote = protectedHead[0]?.role === "system";
  const head = systemNote ? [withCompressionNote(protectedHead[0] as HermesMessage), ...protectedHead.slice(1)] : protectedHead;
  const placement = chooseSummaryRole(head, tail);
  const summary: HermesMessage = {
    role: placement.role,
    content: summaryText,
    compressedSummary: true,
    compressedSummaryHasUserTurn: hasUserTurn,
    contextIndex: null,
  };
  let body: HermesMessage[];
  if (placement.merged === "none") body = [...head, summary, ...tail];
  else {
    const [first, ...rest] = tail;
    const prior = first ? hermesContentText(first) : "";
    const content =
      placement.merged === "wrapped-prior-content" ? `${PRIOR_CONTEXT_OPEN}\n${prior}\n${PRIOR_CONTEXT_CLOSE}\n\n${summaryText}` : `${summaryText}\n\n${prior}`;
    body = [...head, { ...(first as HermesMessage), content, compressedSummary: true, contextIndex: null }, ...rest];
  }
  // Orphans: results whose call is gone, calls whose result is gone.
  const callIds = new Set<string>();
  const resultIds = new Set<string>();
  for (const message of body) {
    for (const call of message.toolCalls ?? []) callIds.add(call.id);
    if (message.role === "tool" && message.toolCallId) resultIds.add(message.toolCallId);
  }
  let droppedOrphanResults = 0;
  let strippedOrphanCalls = 0;
  const cleaned: HermesMessage[] = [];
  for (const message of body) {
    if (message.role === "tool" && (!message.toolCallId || !callIds.has(message.toolCallId))) {
      droppedOrphanResults++;
      continue;
    }
    if (message.toolCalls && message.toolCalls.some((call) => !resultIds.has(call.id))) {
      const kept = message.toolCalls.filter((call) => resultIds.has(call.id));
      strippedOrphanCalls += message.toolCalls.length - kept.length;
      const next: HermesMessage = { ...message, toolCalls: kept };
      if (kept.length === 0) delete next.toolCalls;
      if (kept.length === 0 && hermesContentText(message).trim() === "") next.content = "(tool call removed)";
      cleaned.push(next);
      continue;
    }
    cleaned.push(message);
  }
  const imagesStripped = stripHistoricalMedia(cleaned);
  return { messages: cleaned, placement, droppedOrphanResults, strippedOrphanCalls, imagesStripped, systemNote };
}

