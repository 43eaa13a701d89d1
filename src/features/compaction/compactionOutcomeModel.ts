// What a recorded compaction did, read from the session itself for any agent: the request before it
// (the last turn answered before the compaction) and the one after it (the next turn) are both
// rebuilt, and their messages compared. Messages of the earlier request that the later one still
// sends were kept; the others were summarised (or dropped); the later request's new messages are
// the summary and what followed it. The trigger comes from the agent's own policy at the recorded
// point (trigger only), in words: which side of the threshold the usage was, never a bare "no".
import { plural } from "../../core/util/plural";
import type { AgentMessage, ContextMessage, PipelineOptions, Session } from "../../core/model";
import type { SessionAnalysis } from "../../core/pipeline/types";
import { buildTurnContext, messageCharsEstimator } from "../../core/session/pipeline";
import { findAgent } from "../../core/session/agents";
import { getPolicy, recordedCompactionPoints, recordedCompactionPolicy, sessionPolicy, simulateCompaction } from "../../core/session/simulate/index";
import { messageRows } from "../request/worker";
import type { CompactionOutcomeView, OutcomeMessage } from "./protocol";
import { stringifyWithTexts } from "../../core/text/text";

/**
 * How a context message is recognised in the next request: by its session entry, or by its content
 * (an agent that copies kept messages into a new session, as hermes does, gives them new ids).
 */
function messageKeys(context: ContextMessage): string[] {
  const text = `text:${stringifyWithTexts(context.message)}`;
  return context.provenance.entryId !== null ? [`entry:${context.provenance.entryId}:${context.message.role}`, text] : [text];
}

/** A message of one of the two requests with its keys and its row, each made once (the keys decode its texts). */
interface Compared {
  keys: string[];
  row: OutcomeMessage;
}

function compared(messages: ContextMessage[], charsOf: (message: AgentMessage) => number): Compared[] {
  return messageRows(messages, charsOf).map((row, index) => ({
    keys: messageKeys(messages[index]!),
    row: { index: row.index, role: row.role, entryId: row.entryId, tokens: row.tokens, preview: row.preview },
  }));
}

const keySet = (messages: readonly Compared[]) => new Set(messages.flatMap((message) => message.keys));

const within = (keys: ReadonlySet<string>, message: Compared) => message.keys.some((key) => keys.has(key));

const rowsOf = (messages: readonly Compared[]) => messages.map((message) => message.row);

const sum = (messages: readonly OutcomeMessage[]) => messages.reduce((total, m) => total + m.tokens, 0);

/** The trigger of the recorded compaction under the agent's own policy, as a sentence. */
function triggerText(session: Session, options: PipelineOptions, entryId: string, turn: number): { manual: boolean | null; text: string; short: string } {
  const said = triggerSentence(session, options, entryId, turn);
  return { ...said, short: said.short ?? said.text };
}

function triggerSentence(session: Session, options: PipelineOptions, entryId: string, turn: number): { manual: boolean | null; text: string; short?: string } {
  const point = recordedCompactionPoints(session, options).find((p) => p.entryId === entryId);
  const recordsManual = findAgent(session.formatId)?.recorded?.recordsManual !== false;
  const manual = point ? (point.manual ? true : recordsManual ? false : null) : null;
  if (manual === true) return { manual, text: "manual: started by the user (the trigger is not checked)" };
  const policyId = recordedCompactionPolicy(session, entryId) ?? sessionPolicy(session, options.profile)?.id ?? null;
  const how = manual === false ? "automatic (the file says)" : "automatic or manual: the file does not say";
  if (!policyId || !point) return { manual, text: how };
  let trigger;
  // The policy by its name in words ("Claude Code (inferred from recordings)"), never its id.
  let policyName = policyId;
  try {
    const policy = getPolicy(policyId);
    policyName = policy.label;
    if (policy.notApplicable?.(session)) return { manual, text: how };
    trigger = simulateCompaction({ session, options: { ...options, profile: policy.pipelineProfile ?? options.profile }, turn, policyId, recordedCompactionEntryId: entryId, manual: false, triggerOnly: true, followingTurns: 0 }).trigger;
  } catch {
    return { manual, text: how };
  }
  if (!trigger.evaluated) return { manual, text: how };
  const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
  const short = `${how} · at ${fmt(trigger.left)} tokens`;
  if (trigger.result) {
    return { manual, short, text: `${how}: ${fmt(trigger.left)} tokens ${trigger.operator} the threshold ${fmt(trigger.right)} of the ${policyName} policy's default settings` };
  }
  return {
    manual,
    short,
    text: `${how}: it fired at ${fmt(trigger.left)} tokens, below the ${fmt(trigger.right)} the ${policyName} policy's default settings wait for, so the agent's threshold was lower than the defaults (the simulator infers it) or the user asked for it`,
  };
}

/** What recorded compaction `entryId` kept and summarised, or null when the session has no such compaction. */
export function compactionOutcome(session: Session, options: PipelineOptions, analysis: SessionAnalysis, entryId: string): CompactionOutcomeView | null {
  const event = analysis.timeline.find((item) => item.kind === "compaction" && item.entryId === entryId);
  if (!event || event.kind !== "compaction") return null;
  const afterTurn = event.beforeTurn;
  const beforeTurn = afterTurn === null ? analysis.turns.length : afterTurn - 1;
  const charsOf = messageCharsEstimator(session, options);
  if (beforeTurn < 1) {
    return { beforeTurn: null, afterTurn, kept: [], summarised: [], added: [], recordedBefore: event.tokensBefore, tokensBefore: null, tokensAfter: null, trigger: null, triggerShort: null, manual: null, note: "No turn was answered before this compaction in the file: there is no earlier request to compare with." };
  }
  const before = compared(buildTurnContext(session, options, beforeTurn).messages, charsOf);
  const trigger = triggerText(session, options, entryId, beforeTurn);
  if (afterTurn === null) {
    const all = rowsOf(before);
    return {
      beforeTurn,
      afterTurn: null,
      kept: [],
      summarised: [],
      added: [],
      recordedBefore: event.tokensBefore,
      tokensBefore: sum(all),
      tokensAfter: null,
      trigger: trigger.text,
      triggerShort: trigger.short,
      manual: trigger.manual,
      note: `No request follows this compaction in the file: which of turn ${beforeTurn}'s ${plural(all.length, "message")} it kept is not shown by a later request.`,
    };
  }
  const after = compared(buildTurnContext(session, options, afterTurn).messages, charsOf);
  const afterKeys = keySet(after);
  const beforeKeys = keySet(before);
  const kept = rowsOf(before.filter((message) => within(afterKeys, message)));
  const summarised = rowsOf(before.filter((message) => !within(afterKeys, message)));
  const added = rowsOf(after.filter((message) => !within(beforeKeys, message)));
  return {
    beforeTurn,
    afterTurn,
    kept,
    summarised,
    added,
    recordedBefore: event.tokensBefore,
    tokensBefore: sum(kept) + sum(summarised),
    tokensAfter: sum(rowsOf(after)),
    trigger: trigger.text,
    triggerShort: trigger.short,
    manual: trigger.manual,
    note: null,
  };
}
