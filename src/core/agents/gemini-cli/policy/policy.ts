// Gemini CLI's chat compression as a simulator policy (docs/compaction-policies/gemini-cli.md,
// after `ChatCompressionService.compress`, packages/core/src/context/chatCompressionService.ts).
// Before every request of the main chat the CLI compares the last prompt token count with
// threshold × the model's token limit (CP-GM-1); when it is reached, the curated history is split
// at the first user prompt after 70 % of its characters (CP-GM-3), the part before is summarised
// into a <state_snapshot> by one request and checked by a second that resends the summary
// (CP-GM-4, CP-GM-5), and the new history is the session context, the snapshot, the model's
// acknowledgement and the part after the split (CP-GM-6).
import type { Session } from "../../../model";
import { checkSummariserRequests } from "../../../simulate/findings";
import { cacheEffect } from "../../../simulate/prefix";
import { afterCompaction, compactOrSkipVerdict, entryRange } from "../../../simulate/single-call-parts";
import { fillSlot } from "../../../simulate/instruction-slots";
import { resolveSummary } from "../../../simulate/summary-text";
import { estimateJsonTokens } from "../../../simulate/text-tokens";
import { jsonLength } from "../../../simulate/json-length";
import { isText, textString } from "../../../text/text";
import { makeVerdict } from "../../../simulate/verdict";
import { simulationResult, tokenSummary } from "../../../simulate/result";
import type {
  AfterCompaction,
  CompactionPolicy,
  Partition,
  SimulatedSummary,
  Finding,
  PolicyParameterSpec,
  SimulatedSummariserRequest,
  SimulationContext,
  SimulationInput,
  SimulationResult,
  TriggerDecision,
  Verdict,
} from "../../../simulate/types";
import { canonicalJson } from "../../../util/canonical-json";
import { fnv1aHex } from "../../../util/fnv1a";
import { compressionContents, curatedContents, mainRequestContents, messageParts, type Part, type SourcedContent } from "../contents";
import { contentMessage } from "../context";
import { contentText, getGeminiIndex, turnHistory, type GeminiIndex, type HistoryMessage } from "../history";
import { GEMINI_CLI_FORMAT_ID } from "../reader";
import { geminiInference } from "./inference";
import { promptTokens } from "../turns";
import {
  ACKNOWLEDGEMENT_SLOT,
  COMPRESSION_PROMPT_SLOT,
  GEMINI_SLOTS,
  NEW_SNAPSHOT_SLOT,
  UPDATE_SNAPSHOT_SLOT,
  VERIFICATION_SLOT,
  holdsSnapshot,
  readCapturedCompression,
} from "./slots";

export const GEMINI_POLICY_ID = "gemini-cli";

const PARAMETERS: readonly PolicyParameterSpec[] = [
  { name: "compressionThreshold", label: "compression threshold (fraction of the token limit)", type: "number", default: 0.5, ruleId: "CP-GM-1", description: "Compress when the last prompt token count reaches this fraction of the model's token limit (settings.json model.compressionThreshold; default 0.5)." },
  { name: "tokenLimit", label: "model token limit", type: "number", default: null, ruleId: "CP-GM-1", description: "The model's token limit (tokenLimit(model): 1,048,576 for the Gemini 2.5 and 3 models). null: the context window of the model catalogue." },
  { name: "preserveFraction", label: "fraction of the history kept", type: "number", default: 0.3, ruleId: "CP-GM-3", description: "The split point is the first user prompt after (1 − this) of the history's characters; the part before it is summarised." },
];

const CHECKED: readonly Verdict[] = ["not-triggered", "nothing-to-compact", "compacted"];

type Content = { parts: Part[]; role: string };

/** CP-GM-3: the index of the first content kept (contents.length: everything is summarised). */
export function compressSplitPoint(contents: readonly Content[], fraction: number): number {
  // Large texts kept as bytes count as the texts they hold.
  const counts = contents.map((content) => jsonLength({ role: content.role, parts: content.parts }) ?? 0);
  const total = counts.reduce((a, b) => a + b, 0);
  const target = total * fraction;
  let lastSplit = 0;
  let cumulative = 0;
  for (let i = 0; i < contents.length; i++) {
    const content = contents[i]!;
    if (content.role === "user" && !content.parts.some((part) => part.functionResponse !== undefined)) {
      if (cumulative >= target) return i;
      lastSplit = i;
    }
    cumulative += counts[i]!;
  }
  const last = contents[contents.length - 1];
  if (last && last.role === "model" && !last.parts.some((part) => part.functionCall !== undefined)) return contents.length;
  return lastSplit;
}

/** A message's identity across a compression, which gives kept messages new ids: its type and parts. */
export function messageFingerprint(message: HistoryMessage): string {
  return `${message.type}:${fnv1aHex(canonicalJson(messageParts(message)))}`;
}

/** The history the compression check sees after turn N: the turn's history and its answer. */
function historyAfterTurn(index: GeminiIndex, turnNumber: number, recordedEntryId: string | undefined): HistoryMessage[] {
  const recorded = recordedEntryId ? index.compressions.find((c) => c.entry.id === recordedEntryId) : undefined;
  if (recorded) return recorded.before;
  const turn = index.turns[turnNumber - 1]!;
  const answer: HistoryMessage = { id: String(turn.answer.raw.id), type: "gemini", record: turn.answerRecord, entryId: turn.answer.id };
  return [...turnHistory(turn), answer];
}

function trigger(input: SimulationInput, context: SimulationContext, index: GeminiIndex): TriggerDecision {
  const p = context.parameters;
  const turn = index.turns[input.turn - 1]!;
  const next = index.turns[input.turn];
  const recorded = promptTokens(turn) ?? 0;
  const threshold = typeof p.compressionThreshold === "number" ? p.compressionThreshold : 0.5;
  const limit = typeof p.tokenLimit === "number" ? p.tokenLimit : context.limits.contextWindow;
  const right = threshold * limit;
  const manual = input.manual === true;
  const result = recorded >= right;
  const resumed = next?.firstOfProcess === true && next.process > turn.process;
  return {
    evaluated: !manual,
    manual,
    operands: [
      { name: "lastPromptTokenCount", value: recorded, source: resumed ? "turn N's recorded promptTokenCount; the CLI resumed before the next request and checks a local estimate of the resumed history instead (CP-GM-2)" : "turn N's recorded promptTokenCount (tokens.input)" },
      { name: "tokenLimit", value: limit, source: typeof p.tokenLimit === "number" ? "parameter tokenLimit" : `${context.limits.contextWindowSource} context window` },
    ],
    operator: ">=",
    left: recorded,
    right,
    result,
    expression: `${recorded} ≥ ${threshold} × ${limit} = ${right} → ${result ? "compress" : "no"}${manual ? " (/compress: trigger skipped)" : ""}`,
    ruleId: "CP-GM-1",
    estimator: "recorded promptTokenCount of the last response (CP-GM-1)",
  };
}

/** The session context message the compressed history starts with (the newest one in the history). */
function sessionContext(history: readonly HistoryMessage[]): HistoryMessage | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i]!;
    if (message.type === "user" && contentText(message.record.content).trimStart().startsWith("<session_context>")) return message;
  }
  return null;
}

/** The acknowledgement the session's own compressions recorded, else null. */
function recordedAcknowledgement(index: GeminiIndex): string | null {
  for (const compression of index.compressions) {
    const ack = compression.after[compression.keptFrom - 1];
    if (ack && ack.type === "gemini") return contentText(ack.record.content);
  }
  return null;
}

/** Turn N's history split at the preserve fraction (CP-GM-3): what is compressed and what is kept. */
interface GeminiScene {
  history: HistoryMessage[];
  curated: SourcedContent[];
  stored: Content[];
  preserve: number;
  split: number;
  toCompress: Content[];
  keptContents: SourcedContent[];
  keptMessages: HistoryMessage[];
}

function geminiScene(input: SimulationInput, context: SimulationContext, index: GeminiIndex): GeminiScene {
  const p = context.parameters;
  const history = historyAfterTurn(index, input.turn, input.recordedCompactionEntryId);
  // The check runs before the answer's tool results are sent: its calls are still pending.
  const curated = curatedContents(history, true);
  const stored = compressionContents(history, true);
  const preserve = typeof p.preserveFraction === "number" ? p.preserveFraction : 0.3;
  const split = compressSplitPoint(stored, 1 - preserve);
  const keptContents = curated.slice(split);
  return { history, curated, stored, preserve, split, toCompress: stored.slice(0, split), keptContents, keptMessages: keptContents.flatMap((content) => content.sources) };
}

/** The slots the two compression requests fill. */
interface GeminiSlots {
  system: ReturnType<typeof fillSlot>;
  ask: ReturnType<typeof fillSlot>;
  verify: ReturnType<typeof fillSlot>;
}

/** (3) The two compression requests (CP-GM-4, CP-GM-5): the summary, then its verification. */
function geminiSummariser(input: SimulationInput, context: SimulationContext, scene: GeminiScene, slots: GeminiSlots, summary: SimulatedSummary): SimulatedSummariserRequest[] {
  const { toCompress } = scene;
  const { system, ask, verify } = slots;
  const systemInstruction = { parts: [{ text: system.text }], role: "user" };
  const summaryBody: Record<string, unknown> = {
    contents: [...toCompress, { parts: [{ text: ask.text }], role: "user" }],
    systemInstruction,
    generationConfig: {},
  };
  const verifyData = [...toCompress, { parts: [{ text: summary.text }], role: "model" }];
  const verifyBody: Record<string, unknown> = {
    contents: [...verifyData, { parts: [{ text: verify.text }], role: "user" }],
    systemInstruction,
    generationConfig: {},
  };
  const mainBody = context.turnRequest.body;
  const turnTexts = toCompress.flatMap((c) => c.parts.map((part) => (isText(part.text) ? textString(part.text) : ""))).filter((t) => t.length > 0);
  return [
    {
      role: "summary",
      api: "google-generative-ai",
      form: "replay",
      body: summaryBody,
      maxTokens: null,
      dataPart: toCompress,
      instructionSlots: [system.use, ask.use],
      cache: cacheEffect(`turn ${input.turn} main request`, mainBody, summaryBody),
      focusPlacement: input.focus ? "none: the CLI's compression takes no focus text (not used)" : null,
      redaction: "none",
      notes: [
        "the curated history up to the split point with the stored tool-call ids, then the instruction as a user content; the compression prompt as system instruction; no tools; generationConfig {} (CP-GM-4)",
        "a different system prompt and no tools: the main request's cached prefix is not reused",
      ],
      findingInputs: { instructionTexts: [system.text, ask.text], turnTexts, userControlledTexts: [], checkpointInstruction: false },
    },
    {
      role: "verification",
      api: "google-generative-ai",
      form: "replay",
      body: verifyBody,
      maxTokens: null,
      dataPart: verifyData,
      instructionSlots: [system.use, verify.use],
      cache: cacheEffect("the summary request", summaryBody, verifyBody),
      focusPlacement: null,
      redaction: "none",
      notes: [
        "the summary request's history, the summary as a model content and the verification instruction (CP-GM-5); its answer, when not empty, is the snapshot kept",
        summary.source === "recorded" ? "the summary shown is the verified snapshot the chat file recorded; the first answer is not recorded" : "the summary is not model output",
      ],
      findingInputs: { instructionTexts: [system.text, verify.text], turnTexts: [...turnTexts, summary.text], userControlledTexts: [], checkpointInstruction: false },
    },
  ];
}

/** (2) Partition by the curated contents (CP-GM-3). */
function geminiPartition(scene: GeminiScene): Partition {
  const { curated, stored, split, toCompress, keptContents, keptMessages } = scene;
  const entryIdsOf = (contents: typeof curated) => [...new Set(contents.flatMap((c) => c.entryIds))];
  return {
    kept: keptContents.length > 0 ? [entryRange("kept", split, curated.length, entryIdsOf(keptContents), estimateJsonTokens(stored.slice(split)), "from the first user prompt after the split fraction", "CP-GM-3")] : [],
    summarised: split > 0 ? [entryRange("summarised", 0, split, entryIdsOf(curated.slice(0, split)), estimateJsonTokens(toCompress), "summarised into the <state_snapshot>", "CP-GM-3")] : [],
    pruned: [],
    droppedWithoutSummary: [],
    keptIds: keptMessages.map(messageFingerprint),
    details: { splitPoint: split, contents: curated.length, preserveFraction: scene.preserve },
  };
}

/** (4) After: session context, snapshot, acknowledgement, kept history (CP-GM-6). */
function geminiAfter(input: SimulationInput, context: SimulationContext, index: GeminiIndex, scene: GeminiScene, summary: SimulatedSummary): AfterCompaction {
  const mainBody = context.turnRequest.body;
  const acknowledgementText = input.instructions?.slots[ACKNOWLEDGEMENT_SLOT] ?? recordedAcknowledgement(index) ?? fillSlot(GEMINI_SLOTS[4]!, input.instructions).text;
  const contextMessage = sessionContext(scene.history);
  const snapshotMessage: HistoryMessage = { id: "[simulated snapshot]", type: "user", record: { id: "[simulated snapshot]", type: "user", content: [{ text: summary.text }] }, entryId: "" };
  const ackMessage: HistoryMessage = { id: "[simulated acknowledgement]", type: "gemini", record: { id: "[simulated acknowledgement]", type: "gemini", content: [{ text: acknowledgementText }] }, entryId: "" };
  const newHistory = [...(contextMessage ? [contextMessage] : []), snapshotMessage, ackMessage, ...scene.keptMessages];
  const after = mainRequestContents(newHistory);
  const afterBody: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(mainBody)) afterBody[key] = key === "contents" ? after.wire : value;
  return afterCompaction({
    summary,
    messages: after.sourced.map(contentMessage),
    api: "google-generative-ai",
    turnBody: mainBody,
    body: afterBody,
    breakReason: "Gemini CLI chat compression: the snapshot replaces the history before the split point",
    storedRecord: { $set: { messages: newHistory.map((m) => m.record) } },
  });
}

function simulateGemini(input: SimulationInput, context: SimulationContext): SimulationResult {
  if (input.session.formatId !== GEMINI_CLI_FORMAT_ID) throw new Error(`the Gemini CLI policy needs a Gemini CLI chat (got ${input.session.formatLabel})`);
  const session: Session = input.session;
  const index = getGeminiIndex(session);
  if (!index.turns[input.turn - 1]) throw new RangeError(`turn ${input.turn} does not exist: the chat has ${index.turns.length} requests`);
  const decision = trigger(input, context, index);
  const scene = geminiScene(input, context, index);
  const askSlot = holdsSnapshot(scene.toCompress) ? GEMINI_SLOTS[2]! : GEMINI_SLOTS[1]!;
  const slots = { system: fillSlot(GEMINI_SLOTS[0]!, input.instructions), ask: fillSlot(askSlot, input.instructions), verify: fillSlot(GEMINI_SLOTS[3]!, input.instructions) };
  const recordedCompression = input.recordedCompactionEntryId ? index.compressions.find((c) => c.entry.id === input.recordedCompactionEntryId) : undefined;
  const summary = resolveSummary({
    session,
    source: input.summary,
    recorded: recordedCompression ? textString(recordedCompression.summary) : null,
    headings: ["<state_snapshot>", "<overall_goal>", "<active_constraints>", "<key_knowledge>", "<artifact_trail>", "<file_system_state>", "<recent_actions>", "<task_state>", "</state_snapshot>"],
  });
  const requests = geminiSummariser(input, context, scene, slots, summary);
  const partition = geminiPartition(scene);
  const after = geminiAfter(input, context, index, scene, summary);

  const findings: Finding[] = [...checkSummariserRequests(requests)];
  for (const slot of [slots.system, slots.ask, slots.verify]) {
    if (!slot.captured) findings.push({ id: "instruction-slot-described", severity: "info", message: `slot "${slot.use.slot}" holds Contextscope's description, not the CLI's text`, location: { request: slot === slots.verify ? 1 : 0 }, ruleId: "CP-GM-4" });
  }
  const { verdict, ruleId } = compactOrSkipVerdict(scene.split === 0, input.manual === true, decision, { compacted: "CP-GM-6", nothingToCompact: "CP-GM-3" });
  const summariserInput = requests.reduce((sum, request) => sum + estimateJsonTokens(request.body), 0);
  return simulationResult(geminiCompressionPolicy, input, context, {
    trigger: decision,
    partition,
    summariserRequests: requests,
    after,
    verdict: makeVerdict(geminiCompressionPolicy, verdict, ruleId, verdict === "not-triggered" ? decision.expression : null),
    tokens: tokenSummary("chars/4 of the contents (JSON)", estimateJsonTokens(context.turnRequest.body.contents), estimateJsonTokens(after.request?.body.contents), summariserInput),
    findings,
    inferred: ["CP-0-1", "CP-0-2", "CP-0-3", "CP-GM-2"],
  });
}

export const geminiCompressionPolicy: CompactionPolicy = {
  id: GEMINI_POLICY_ID,
  label: "Gemini CLI chat compression",
  rulePrefix: "CP-GM",
  parameters: PARAMETERS,
  notApplicable: (session) =>
    session.formatId === GEMINI_CLI_FORMAT_ID
      ? null
      : `Gemini CLI's chat compression works on a Gemini CLI chat (its answers' recorded prompt counts and the history its chat file folds into); this ${session.formatLabel} has none of them. The opencode, hermes and deepseek-harness policies run on any session.`,
  checkedVerdicts: CHECKED,
  instructionSlots: GEMINI_SLOTS,
  simulate: simulateGemini,
  inference: geminiInference,
  extractInstructions(body, source) {
    return readCapturedCompression(body, source)?.values ?? null;
  },
  readCaptured: readCapturedCompression,
};

