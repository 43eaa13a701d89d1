// The Claude Code compaction policy, inferred from the recordings (the spec has no policy section:
// formats.md FM-CC-12 … FM-CC-17 and fixture claude/print-autocompact-manualcompact; every rule is
// documented in docs/compaction-policies/claude-code.md with its CP-CC-INF id). At turn N:
// trigger = the turn's recorded usage (plus a chars/4 estimate of the pending prompt) against the
// auto-compact threshold; the summariser request = turn N's main request + its answer + the
// compaction prompt (FM-CC-16); kept = the last assistant answer and, for an automatic compaction,
// the pending prompt (FM-CC-14); everything else is summarised.
import { emptyResultParts } from "../../../simulate/empty-result";
import { claudeCodeInference } from "./inference";
import type { ContextMessage, Session, SessionEntry } from "../../../model";
import { getClaudeBranch, turnUsage, type ClaudeBranch, type ClaudeTurn } from "../turns";
import { defaultLeaf, getClaudeIndex } from "../session-index";
import { contentBlocks, entryMessage, isCompactBoundary } from "../records";
import { isObject } from "../../../util/is-object";
import { isText, textString } from "../../../text/text";
import { toContextMessages } from "../context";
import { sessionPreservesMessages } from "../preserved";
import { checkSummariserRequests } from "../../../simulate/findings";
import { cacheEffect } from "../../../simulate/prefix";
import { afterCompaction, capturedFieldUse, compactOrSkipVerdict, entryRange } from "../../../simulate/single-call-parts";
import { describedSlotText, fillSlot } from "../../../simulate/instruction-slots";
import { resolveSummary } from "../../../simulate/summary-text";
import { estimateJsonTokens } from "../../../simulate/text-tokens";
import { makeVerdict } from "../../../simulate/verdict";
import { simulationResult, tokenSummary } from "../../../simulate/result";
import type {
  AfterCompaction,
  CompactionPolicy,
  Finding,
  Partition,
  PolicyParameterSpec,
  SimulatedSummariserRequest,
  SimulationContext,
  SimulationInput,
  SimulationResult,
  TriggerDecision,
  Verdict,
} from "../../../simulate/types";
import { answerMessage, buildClaudeSummariserBody, wireText } from "./request";
import {
  CLAUDE_BILLING_HEADER_SLOT,
  CLAUDE_COMPACT_PROMPT_SLOT,
  CLAUDE_FOCUS_SEPARATOR,
  CLAUDE_METADATA_SLOT,
  CLAUDE_SLOTS,
  readCapturedClaudeRequest,
} from "./slots";

const CLAUDE_CODE_PARAMETERS: readonly PolicyParameterSpec[] = [
  { name: "autoCompactWindow", label: "auto-compact window (CLAUDE_CODE_AUTO_COMPACT_WINDOW)", type: "number", default: null, ruleId: "CP-CC-INF-1", inferred: "CP-CC-INF-1", description: "The window the threshold is computed from; null: the model's context window. Not in the transcript (an environment variable); the fixture ran with 100000." },
  { name: "summaryOutputReserve", label: "summary output reserve", type: "number", default: 20000, ruleId: "CP-CC-INF-1", inferred: "CP-CC-INF-1", description: "Tokens kept free for the summary: min(max output tokens, this)." },
  { name: "autoCompactBuffer", label: "auto-compact buffer", type: "number", default: 13000, ruleId: "CP-CC-INF-1", inferred: "CP-CC-INF-1", description: "Threshold = window − reserve − buffer." },
  { name: "preserveMessages", label: "keep messages verbatim", type: "enum", choices: ["auto", "on", "off"], default: "auto", ruleId: "CP-CC-INF-6", inferred: "CP-CC-INF-6", description: "on: the last answer (and pending prompt) are copied after the summary (2.1.332); off: the summary alone continues (2.0.76, 2.1.17: boundaries without preservedMessages); auto: as the session's boundaries record it." },
  { name: "keepPendingPrompt", label: "keep the pending prompt (automatic)", type: "boolean", default: true, ruleId: "CP-CC-INF-3", inferred: "CP-CC-INF-3", description: "An automatic compaction runs at the start of the next prompt and keeps it verbatim (fixture: preservedMessages = last answer + prompt)." },
];

const CHECKED: readonly Verdict[] = ["not-triggered", "nothing-to-compact", "compacted"];

const CONTINUATION_SPEC = {
  slot: "continuationMessage",
  label: "Claude Code continuation message",
  ruleId: "FM-CC-13",
  description:
    "The first message after a compaction: says the session continues from an earlier conversation that ran out of context, lists the tools used before the summary, then `Summary:` and the summary, a pointer to the full transcript, and an instruction to resume without acknowledging the summary.",
};

function resolveBranch(session: Session, leafId: string | null | undefined): ClaudeBranch {
  const index = getClaudeIndex(session);
  const leaf = leafId && index.byId.has(leafId) ? leafId : defaultLeaf(index);
  if (!leaf) throw new Error("the Claude Code session has no branch");
  return getClaudeBranch(session, leaf);
}

function isPlainPrompt(entry: SessionEntry): boolean {
  if (entry.type !== "user" || entry.raw.isMeta === true || entry.raw.isCompactSummary === true) return false;
  const content = entryMessage(entry)?.content;
  const blocks = contentBlocks(content);
  if (blocks.some((b) => isObject(b) && b.type === "tool_result")) return false;
  const text = blocks.map((b) => (isObject(b) && isText(b.text) ? textString(b.text) : "")).join("").trimStart();
  // Slash commands and their local output are recorded as user entries (FM-CC-15): not prompts.
  return text.length > 0 && !text.startsWith("<command-") && !text.startsWith("<local-command");
}

/** CP-CC-INF-3: the prompt written after turn N's answer and before the next answer / boundary. */
function pendingPrompt(branch: ClaudeBranch, turn: ClaudeTurn): SessionEntry | null {
  let end = turn.pathIndex;
  const ids = new Set(turn.group.map((e) => e.id));
  for (let i = turn.pathIndex; i < branch.path.length && (ids.has(branch.path[i]!.id) || i === turn.pathIndex); i++) end = i;
  for (let i = end + 1; i < branch.path.length; i++) {
    const entry = branch.path[i]!;
    if (entry.type === "assistant" || isCompactBoundary(entry)) return null;
    if (isPlainPrompt(entry)) return entry;
  }
  return null;
}

/** The answer entries of the turn that are on the branch path, in path order. */
function answerEntries(branch: ClaudeBranch, turn: ClaudeTurn): SessionEntry[] {
  const ids = new Set(turn.group.map((e) => e.id));
  return branch.path.filter((e) => ids.has(e.id));
}

/** The recorded continuation message after a compact boundary (FM-CC-13), if any. */
function recordedContinuation(session: Session, boundaryId: string): string | null {
  const at = session.entries.findIndex((e) => e.id === boundaryId);
  for (let i = at + 1; at >= 0 && i < session.entries.length; i++) {
    const entry = session.entries[i]!;
    if (entry.type === "assistant") return null;
    if (entry.type === "user" && entry.raw.isCompactSummary === true) {
      const content = entryMessage(entry)?.content;
      return isText(content) ? textString(content) : wireText({ content });
    }
  }
  return null;
}

function promptText(entry: SessionEntry): string {
  return wireText(entryMessage(entry) ?? {});
}

/**
 * At a recorded compaction: the figure Claude Code's trigger compared with its threshold, as it
 * wrote it on the boundary (`compactMetadata.preTokens`); null elsewhere or when not written.
 * It counts every message after the last usage, which the estimate below sees only in part.
 */
function recordedPreTokens(input: SimulationInput): number | null {
  if (!input.recordedCompactionEntryId) return null;
  const boundary = input.session.entries.find((e) => e.id === input.recordedCompactionEntryId);
  const metadata = boundary?.raw.compactMetadata;
  const preTokens = isObject(metadata) ? metadata.preTokens : undefined;
  return typeof preTokens === "number" && Number.isFinite(preTokens) && preTokens > 0 ? preTokens : null;
}

function claudeTrigger(input: SimulationInput, context: SimulationContext, turn: ClaudeTurn, pending: SessionEntry | null): TriggerDecision {
  const p = context.parameters;
  const usage = turnUsage(turn);
  const used = usage ? usage.totalTokens : 0;
  // CP-CC-INF-2: preTokens = last usage + a rough estimate of the messages after it (round(chars/4)).
  const pendingTokens = pending ? Math.round(promptText(pending).length / 4) : 0;
  // The tokens before: what the agent recorded having compared, when it did; the estimate otherwise.
  const recorded = recordedPreTokens(input);
  const tokens = recorded ?? used + pendingTokens;
  const window = typeof p.autoCompactWindow === "number" ? p.autoCompactWindow : context.limits.contextWindow;
  // CP-0-1: the output limit recorded on the turn's request (max_tokens), unless overridden.
  const recordedMax = context.turnRequest.body.max_tokens;
  const maxOutput = input.limits?.maxOutputTokens ?? (typeof recordedMax === "number" ? recordedMax : context.limits.maxOutputTokens);
  const reserve = Math.min(maxOutput, typeof p.summaryOutputReserve === "number" ? p.summaryOutputReserve : 20000);
  const buffer = typeof p.autoCompactBuffer === "number" ? p.autoCompactBuffer : 13000;
  const threshold = window - reserve - buffer;
  const manual = input.manual === true;
  const result = tokens >= threshold;
  return {
    evaluated: !manual,
    manual,
    operands: [
      { name: "usageTokens", value: used, source: usage ? "turn usage: input + cache read + cache write + output (FM-CC-4)" : "no usage recorded" },
      { name: "pendingTokens", value: pendingTokens, source: "round(chars/4) of the pending prompt [INF CP-CC-INF-2]" },
      ...(recorded === null ? [] : [{ name: "tokens before (recorded)", value: recorded, source: "the figure Claude Code compared, written on the compaction boundary (preTokens): used instead of the two above" }]),
      { name: "window", value: window, source: typeof p.autoCompactWindow === "number" ? "parameter autoCompactWindow" : context.limits.contextWindowSource },
      { name: "reserve", value: reserve, source: `min(max output tokens ${maxOutput}, summaryOutputReserve) [INF CP-CC-INF-1]` },
      { name: "buffer", value: buffer, source: "parameter autoCompactBuffer [INF CP-CC-INF-1]" },
    ],
    operator: ">=",
    left: tokens,
    right: threshold,
    result,
    expression: `${tokens} ≥ ${window} − ${reserve} − ${buffer} = ${threshold} → ${result ? "compact" : "no"}${manual ? " (manual /compact: trigger skipped)" : ""}`,
    ruleId: "CP-CC-INF-1",
    estimator: "recorded usage of the last answer + round(chars/4) of later messages (CP-CC-INF-2)",
  };
}

function contextEntryIds(messages: readonly ContextMessage[]): string[] {
  const out: string[] = [];
  for (const m of messages) if (m.provenance.entryId && !out.includes(m.provenance.entryId)) out.push(m.provenance.entryId);
  return out;
}

/** What every phase of one Claude Code simulation reads: turn N, its answer and the pending prompt. */
interface ClaudeScene {
  manual: boolean;
  pending: SessionEntry | null;
  preservation: { preserve: boolean; from: string };
  answerIds: string[];
  answer: ReturnType<typeof answerMessage>;
  mainBody: Record<string, unknown>;
  messages: readonly ContextMessage[];
}

/** (3) The summariser request (FM-CC-16): turn N's main request + its answer + the compaction prompt. */
function claudeSummariser(input: SimulationInput, scene: ClaudeScene): { request: SimulatedSummariserRequest; captured: boolean } {
  const { answer, mainBody } = scene;
  const slotSpec = CLAUDE_SLOTS.find((s) => s.slot === CLAUDE_COMPACT_PROMPT_SLOT)!;
  const filled = fillSlot(slotSpec, input.instructions);
  const focus = input.focus ?? null;
  const prompt = focus ? `${filled.text}${CLAUDE_FOCUS_SEPARATOR}${focus}` : filled.text;
  const billingHeader = input.instructions?.slots[CLAUDE_BILLING_HEADER_SLOT] ?? null;
  const metadataUserId = input.instructions?.slots[CLAUDE_METADATA_SLOT] ?? null;
  const body = buildClaudeSummariserBody({ mainBody, answer, prompt, billingHeader, metadataUserId });
  const sent = body.messages as unknown[];
  const request: SimulatedSummariserRequest = {
    role: "summary",
    api: "anthropic-messages",
    form: "replay",
    body,
    maxTokens: typeof body.max_tokens === "number" ? body.max_tokens : null,
    dataPart: sent.slice(0, -1),
    instructionSlots: [filled.use, capturedFieldUse(input.instructions, CLAUDE_BILLING_HEADER_SLOT, billingHeader), capturedFieldUse(input.instructions, CLAUDE_METADATA_SLOT, metadataUserId)],
    cache: cacheEffect(`turn ${input.turn} main request`, mainBody, body),
    focusPlacement: focus ? `final user message, after the prompt behind "Additional Instructions:" [INF CP-CC-INF-5]` : null,
    redaction: "none",
    notes: [
      "system, tools and parameters of the last main request; its answer appended with the message cache breakpoint; the prompt as a string user message (FM-CC-16)",
      ...(billingHeader === null ? ["system[0] billing header build suffix and metadata.user_id are not recorded (FM-CC-19): attach the captured summariser request to fill them"] : []),
      ...(answer.content && contentBlocks(answer.content).some((b) => isObject(b) && b.type === "thinking") ? ["the answer holds thinking blocks whose text the transcript does not keep (FM-CC-6)"] : []),
    ],
    findingInputs: {
      instructionTexts: [filled.text],
      turnTexts: sent.slice(0, -1).map(wireText).filter((t) => t.length > 0),
      userControlledTexts: focus ? [focus] : [],
      checkpointInstruction: false,
    },
  };
  return { request, captured: filled.captured };
}

/**
 * (2) Partition: the whole request and its answer are summarised; the answer (and the pending
 * prompt of an automatic compaction) are also kept verbatim (CP-CC-INF-3).
 */
function claudePartition(scene: ClaudeScene): Partition {
  const { pending, preservation, answerIds, answer, messages, manual } = scene;
  const keptIds = preservation.preserve ? [...answerIds, ...(pending ? [pending.id] : [])] : [];
  const contextTokens = estimateJsonTokens(scene.mainBody.messages);
  return {
    kept: preservation.preserve ? [entryRange("kept", null, null, keptIds, estimateJsonTokens(answer) + (pending ? estimateJsonTokens(promptText(pending)) : 0), pending ? "last answer + pending prompt" : "last answer", "CP-CC-INF-3")] : [],
    summarised: [entryRange("summarised", 0, messages.length, [...contextEntryIds(messages), ...answerIds], contextTokens + estimateJsonTokens(answer), "turn N's request messages and its answer", "FM-CC-16")],
    pruned: [],
    droppedWithoutSummary: [],
    keptIds,
    details: { firstKeptEntryId: keptIds[0] ?? null, pendingPromptId: pending?.id ?? null, trigger: manual ? "manual" : "auto", preserveMessages: preservation.preserve, preserveMessagesFrom: preservation.from },
  };
}

/**
 * (4) After: continuation message + kept messages on turn N's system and tools (approximate:
 * re-attached file reads and injected reminders are not simulated, FM-CC-14).
 */
function claudeAfter(input: SimulationInput, scene: ClaudeScene, trigger: TriggerDecision, keptIds: string[]): { after: AfterCompaction; afterMessages: Record<string, unknown>[] } {
  const { pending, preservation, answer, answerIds, mainBody, manual } = scene;
  const recorded = input.recordedCompactionEntryId ? recordedContinuation(input.session, input.recordedCompactionEntryId) : null;
  const summary = resolveSummary({ session: input.session, source: input.summary, recorded, headings: ["<analysis>", "<summary>", "1. Primary Request and Intent", "2. Key Technical Concepts", "9. Optional Next Step", "</summary>"] });
  const continuation = summary.source === "recorded" ? summary.text : `${describedSlotText(CONTINUATION_SPEC)}\nSummary:\n${summary.text}`;
  // Without preserved messages the summary alone continues; a pending prompt is then sent after
  // it as the next message (not kept: it is written after the boundary).
  const afterMessages: Record<string, unknown>[] = preservation.preserve ? [{ role: "user", content: continuation }, { role: "assistant", content: contentBlocks(answer.content) }] : [{ role: "user", content: continuation }];
  if (pending) {
    const content = entryMessage(pending)?.content;
    afterMessages.push({ role: "user", content: isText(content) ? [{ type: "text", text: content }] : content });
  }
  const last = afterMessages[afterMessages.length - 1]!;
  const lastBlocks = contentBlocks(last.content).slice();
  if (lastBlocks.length > 0 && isObject(lastBlocks[lastBlocks.length - 1])) lastBlocks[lastBlocks.length - 1] = { ...(lastBlocks[lastBlocks.length - 1] as Record<string, unknown>), cache_control: { type: "ephemeral" } };
  afterMessages[afterMessages.length - 1] = { ...last, content: lastBlocks };
  const afterBody: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(mainBody)) afterBody[key] = key === "messages" ? afterMessages : value;
  const afterContext: ContextMessage[] = toContextMessages(
    afterMessages.map((message, i) => ({ message, source: "entry" as const, entryIds: i === 0 ? [] : i === afterMessages.length - 1 && pending ? [pending.id] : answerIds, hash: "" })),
  );
  const after = afterCompaction({
    summary,
    messages: afterContext,
    api: "anthropic-messages",
    turnBody: mainBody,
    body: afterBody,
    breakReason: "Claude Code compaction: the continuation message replaces the conversation",
    storedRecord: { type: "system", subtype: "compact_boundary", compactMetadata: { trigger: manual ? "manual" : "auto", preTokens: trigger.left, ...(preservation.preserve ? { preservedMessages: { uuids: keptIds } } : {}) } },
  });
  return { after, afterMessages };
}

/** Turn N of the branch the options select, and the prompt written after it (for the trigger). */
function claudeTurn(input: SimulationInput, context: SimulationContext): { branch: ClaudeBranch; turn: ClaudeTurn; pending: SessionEntry | null } {
  if (input.session.formatId !== "claude-code") throw new Error(`the claude-code policy needs a Claude Code session (got ${input.session.formatLabel})`);
  const branch = resolveBranch(input.session, input.options.leafId);
  const turn = branch.turns[input.turn - 1];
  if (!turn) throw new RangeError(`turn ${input.turn} does not exist: the branch has ${branch.turns.length} turns`);
  const pending = input.manual !== true && context.parameters.keepPendingPrompt !== false ? pendingPrompt(branch, turn) : null;
  return { branch, turn, pending };
}

/** Turn N's answer, what the compaction preserves, and the main request it is built from. */
function claudeScene(input: SimulationInput, context: SimulationContext, found: ReturnType<typeof claudeTurn>): ClaudeScene {
  const p = context.parameters;
  // CP-CC-INF-6: whether this version copies messages after the summary at all.
  const preservation = p.preserveMessages === "on" || p.preserveMessages === "off" ? { preserve: p.preserveMessages === "on", from: "parameter preserveMessages" } : sessionPreservesMessages(input.session, input.recordedCompactionEntryId);
  const answers = answerEntries(found.branch, found.turn);
  const answer = answerMessage(answers.length > 0 ? answers : found.turn.group);
  return { manual: input.manual === true, pending: found.pending, preservation, answerIds: answers.map((e) => e.id), answer, mainBody: context.turnRequest.body, messages: context.turnContext.messages };
}

function simulateClaudeCode(input: SimulationInput, context: SimulationContext): SimulationResult {
  const found = claudeTurn(input, context);
  const trigger = claudeTrigger(input, context, found.turn, found.pending);
  if (input.triggerOnly === true) return emptyResultParts(claudeCodePolicy, input, context, trigger);
  const scene = claudeScene(input, context, found);
  const { request, captured } = claudeSummariser(input, scene);
  const partition = claudePartition(scene);
  const { after, afterMessages } = claudeAfter(input, scene, trigger, partition.keptIds ?? []);

  const findings: Finding[] = [...checkSummariserRequests([request])];
  if (!captured) findings.push({ id: "instruction-slot-described", severity: "info", message: `slot "${CLAUDE_COMPACT_PROMPT_SLOT}" holds Contextscope's description, not Claude Code's text`, location: { request: 0 }, ruleId: "FM-CC-16" });
  if (contentBlocks(scene.answer.content).some((b) => isObject(b) && b.type === "tool_use")) {
    findings.push({ id: "tool-call-split-by-cut", severity: "warning", message: "turn N's answer ends with a tool call whose result is not in the summariser request", location: { request: 0 }, ruleId: "FM-CC-16" });
  }
  const { verdict, ruleId } = compactOrSkipVerdict(scene.messages.length === 0, scene.manual, trigger, { compacted: "FM-CC-12", nothingToCompact: "CP-CC-INF-3" });
  return simulationResult(claudeCodePolicy, input, context, {
    trigger,
    partition,
    summariserRequests: [request],
    after,
    verdict: makeVerdict(claudeCodePolicy, verdict, ruleId, verdict === "not-triggered" ? trigger.expression : null),
    tokens: tokenSummary("chars/4 of the request messages (JSON)", estimateJsonTokens(scene.mainBody.messages), estimateJsonTokens(afterMessages), estimateJsonTokens(request.body)),
    findings,
    inferred: ["CP-0-1", "CP-0-2", "CP-0-3", "CP-CC-INF-1", "CP-CC-INF-2", "CP-CC-INF-3", "CP-CC-INF-4", "CP-CC-INF-5", "CP-CC-INF-6"],
  });
}
export const claudeCodePolicy: CompactionPolicy = {
  id: "claude-code",
  label: "Claude Code (inferred from recordings)",
  rulePrefix: "CP-CC",
  parameters: CLAUDE_CODE_PARAMETERS,
  notApplicable: (session) =>
    session.formatId === "claude-code"
      ? null
      : `Claude Code's compaction works on a Claude Code transcript (its answers' recorded usage, its compact boundaries and the message ids it keeps); this ${session.formatLabel} has none of them. The opencode, hermes and deepseek-harness policies run on any session.`,
  checkedVerdicts: CHECKED,
  instructionSlots: CLAUDE_SLOTS,
  simulate: simulateClaudeCode,
  extractInstructions(body, source) {
    return readCapturedClaudeRequest(body, source)?.values ?? null;
  },
  readCaptured: readCapturedClaudeRequest,
  inference: claudeCodeInference,
};
