// Rebuilds the summariser request(s) behind one recorded `compaction` entry of a pi/senpi session
// (PI-R12, §5): the path at the moment of compaction, the boundary and cut, the transcript, the
// previous summary, the file lists and the provider bodies, plus lints about what the recorded
// entry says compared with pi's rules.
import { piProfileOf } from "../profile";
import type {
  AgentMessage,
  ApiId,
  LlmMessage,
  ModelInfo,
  PipelineOptions,
  Session,
  SessionEntry,
} from "../../../model";
import { API_IDS } from "../../../model";
import { resolveModel } from "../../../models/catalogue";
import { convertToLlm } from "../convert";
import { projectPath, type ProjectedMessage } from "../projection";
import { pathToRoot } from "../tree";
import { getPiSessionCache } from "../sessionCache";
import { getSerializer } from "../../../providers";
import { estimateContextTokens, type ContextTokenEstimate } from "./context-tokens";
import type { CutPointResult } from "./cut-point";
import { messageOfEntry } from "./entry-messages";
import type { FileLists } from "./file-operations";
import type { CompactionInstructions } from "./instructions";
import { prepareCompaction, type BoundaryRule, type CompactionPreparation } from "./prepare";
import { historySummaryCap, resolveCompactionSettings, turnPrefixSummaryCap, type CompactionSettings } from "./settings";
import { serializeConversation } from "./serialize-conversation";
import {
  buildReplayTurnPrefixRequest,
  buildStandaloneSummariserRequest,
  type SummariserBodyInput,
  type SummariserRequest,
  type TurnPrefixForm,
} from "./summariser-request";
import { NO_PRIOR_HISTORY } from "./summary";
import { isText } from "../../../text/text";
import { textStartsWith } from "../../../text/textTests";

export interface CompactionRebuildOptions extends PipelineOptions {
  /** Summariser instruction texts (from captured summariser requests); empty slots → markers. */
  instructions?: CompactionInstructions;
  /** reserveTokens / keepRecentTokens in force when the session was recorded (PI-K1 defaults). */
  settings?: Partial<CompactionSettings>;
  /** PI-K15 boundary generation; default G2. [INF: configurable per profile] */
  boundaryRule?: BoundaryRule;
  /**
   * Custom instructions given to `/compact` or RPC `compact`, by compaction entry id. The session
   * does not store them; without this entry the request is rebuilt without a focus line.
   */
  customInstructions?: Record<string, string>;
  /** PI-K27 turn-prefix request form; default "serialized" (pi 0.73.1). */
  turnPrefixForm?: TurnPrefixForm;
}

interface TokensBefore {
  /** As stored on the entry. */
  recorded: number | null;
  /** PI-K16 with the chosen boundary rule (G2: PI-K4 over the projected context). */
  computed: number;
  estimate: ContextTokenEstimate;
}

export interface CompactionRebuild {
  entryId: string;
  /** 1-based line of the compaction entry. */
  line: number;
  /** In the order pi sends them: history first, then turn prefix (PI-K28). */
  requests: SummariserRequest[];
  /** Transcript of the summarised range (PI-K23); "" when the history request was not made. */
  serializedConversation: string;
  turnPrefixConversation?: string;
  previousSummary: string | null;
  /** Only when given in the options (the session does not store it). */
  customInstructions?: string;
  /** The cut in use (the recorded one when it is on the path). */
  firstKeptEntryId: string | null;
  recordedFirstKeptEntryId: string | null;
  computedCut: CutPointResult;
  boundaryRule: BoundaryRule;
  boundaryStartEntryId: string | null;
  isSplitTurn: boolean;
  turnStartEntryId: string | null;
  /** Lists computed with PI-K19 from the path. */
  fileLists: FileLists;
  /** `details` as stored on the entry, when it has them. */
  recordedFileLists: FileLists | null;
  tokensBefore: TokensBefore;
  settings: CompactionSettings;
  model: ModelInfo;
  api: ApiId;
  preparation: Omit<CompactionPreparation, "messagesToSummarize" | "turnPrefixMessages" | "computedCut">;
  /** The path the preparation's indices refer to (root first, up to the compaction's parent). */
  path: readonly SessionEntry[];
  lints: string[];
}

function asStringList(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((v) => typeof v === "string") ? (value as string[]) : null;
}

function recordedFileLists(entry: SessionEntry): FileLists | null {
  const details = entry.raw.details;
  if (typeof details !== "object" || details === null) return null;
  const readFiles = asStringList((details as Record<string, unknown>).readFiles);
  const modifiedFiles = asStringList((details as Record<string, unknown>).modifiedFiles);
  return readFiles && modifiedFiles ? { readFiles, modifiedFiles } : null;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function toProjected(messages: readonly AgentMessage[]): ProjectedMessage[] {
  return messages.map((message) => ({
    message,
    entryId: "",
    line: 0,
    source: "compaction",
    editedBy: null,
    hidden: false,
    original: null,
  }));
}

function convert(messages: readonly AgentMessage[], options: CompactionRebuildOptions): LlmMessage[] {
  return convertToLlm(toProjected(messages), piProfileOf(options)).messages.map((m) => m.message);
}

function lastAssistantApi(path: readonly SessionEntry[]): ApiId | null {
  for (let i = path.length - 1; i >= 0; i--) {
    const message = messageOfEntry(path[i]!, { includeCompactions: false });
    // An api this build has no serializer for (a damaged or future file) says nothing: the model's own is used.
    if (message?.role === "assistant" && (API_IDS as readonly string[]).includes(message.api as string)) return message.api as ApiId;
  }
  return null;
}

/** PI-K16: the context size pi records as `tokensBefore`. */
function computeTokensBefore(path: readonly SessionEntry[], preparation: CompactionPreparation, options: CompactionRebuildOptions): ContextTokenEstimate {
  if (preparation.boundaryRule === "G2") {
    const projected = projectPath(path, piProfileOf(options)).messages.map((m) => m.message);
    return estimateContextTokens(projected, piProfileOf(options));
  }
  // Later G1 revisions: the messages from the previous compaction (its summary included) to the end.
  const from = Math.max(0, preparation.previousCompactionIndex);
  const messages: AgentMessage[] = [];
  for (let i = from; i < path.length; i++) {
    const message = messageOfEntry(path[i]!, { includeCompactions: true });
    if (message) messages.push(message);
  }
  return estimateContextTokens(messages, piProfileOf(options));
}

/** The summariser requests pi sends for one compaction: history, then turn prefix (PI-K28, PI-K29). */
interface RebuiltRequests {
  requests: SummariserRequest[];
  serializedConversation: string;
  turnPrefixConversation?: string;
  /** False for a split turn with an empty history: only the turn-prefix request is made. */
  makeHistory: boolean;
}

function summariserRequestsOf(
  preparation: CompactionPreparation,
  options: CompactionRebuildOptions,
  parts: { bodyInput: (maxTokens: number) => SummariserBodyInput; settings: CompactionSettings; model: ModelInfo; customInstructions: string | null; timestamp: number },
  lints: string[],
): RebuiltRequests {
  const { bodyInput, settings, model, timestamp } = parts;
  const instructions = options.instructions ?? {};
  const historyMessages = convert(preparation.messagesToSummarize, options);
  const prefixMessages = convert(preparation.turnPrefixMessages, options);
  const splitWithPrefix = preparation.isSplitTurn && preparation.turnPrefixMessages.length > 0;
  // PI-K28/PI-K29: the history request is skipped only for a split turn with an empty history.
  const makeHistory = !splitWithPrefix || preparation.messagesToSummarize.length > 0;

  const requests: SummariserRequest[] = [];
  let serializedConversation = "";
  if (makeHistory) {
    serializedConversation = serializeConversation(historyMessages);
    const slot = preparation.previousSummary ? "updatePrompt" : "initialPrompt";
    requests.push(
      buildStandaloneSummariserRequest(
        bodyInput(historySummaryCap(settings.reserveTokens, piProfileOf(options), model)),
        "history",
        slot,
        {
          conversation: serializedConversation,
          previousSummary: preparation.previousSummary,
          instruction: instructions[slot] ?? null,
          customInstructions: parts.customInstructions,
        },
        timestamp,
      ),
    );
  } else if (preparation.previousSummary) {
    lints.push(
      "previous summary discarded (split turn with empty history): the new summary starts with " +
        `"${NO_PRIOR_HISTORY}" and everything the previous summary held is lost from context (PI-K29)`,
    );
  }
  if (!splitWithPrefix) return { requests, serializedConversation, makeHistory };

  const prefixInput = bodyInput(turnPrefixSummaryCap(settings.reserveTokens, piProfileOf(options), model));
  if (options.turnPrefixForm === "replay") {
    requests.push(buildReplayTurnPrefixRequest(prefixInput, prefixMessages, timestamp));
    return { requests, serializedConversation, makeHistory };
  }
  const turnPrefixConversation = serializeConversation(prefixMessages);
  requests.push(
    buildStandaloneSummariserRequest(
      prefixInput,
      "turn-prefix",
      "turnPrefixPrompt",
      { conversation: turnPrefixConversation, previousSummary: null, instruction: instructions.turnPrefixPrompt ?? null, customInstructions: null },
      timestamp,
    ),
  );
  return { requests, serializedConversation, turnPrefixConversation, makeHistory };
}

/** Compares what pi would have stored with what the entry holds, as lints. */
function recordLints(entry: SessionEntry, preparation: CompactionPreparation, rebuilt: RebuiltRequests, recordedLists: FileLists | null, lints: string[]): void {
  if (
    recordedLists &&
    entry.raw.fromHook !== true &&
    (!sameList(recordedLists.readFiles, preparation.fileLists.readFiles) ||
      !sameList(recordedLists.modifiedFiles, preparation.fileLists.modifiedFiles))
  ) {
    lints.push("recorded file lists differ from the ones computed from the path (PI-K19)");
  }
  const summary = isText(entry.raw.summary) ? entry.raw.summary : "";
  if (!rebuilt.makeHistory && !textStartsWith(summary, NO_PRIOR_HISTORY)) {
    lints.push(`recorded summary does not start with "${NO_PRIOR_HISTORY}" although the history request is skipped (PI-K29)`);
  }
  if (entry.raw.fromHook === true) lints.push("compaction made by an extension (fromHook): pi's summariser was not called (PI-K31)");
  for (const request of rebuilt.requests) {
    for (const label of request.notRecorded) lints.push(`${request.role} request: ${label} not recorded`);
  }
}

/**
 * Rebuilds the summariser request(s) of the compaction entry `compactionEntryId`. Throws when the
 * id is not a compaction entry of the session.
 */
export function buildCompactionRequests(
  session: Session,
  options: CompactionRebuildOptions,
  compactionEntryId: string,
): CompactionRebuild {
  // The session's memoised tree: building it walks every entry, which a step onto a compaction row
  // must not pay for again and again.
  const tree = getPiSessionCache(session).tree;
  const entry = tree.byId.get(compactionEntryId);
  if (!entry || entry.type !== "compaction") throw new Error(`No compaction entry with id ${compactionEntryId}`);
  const path = pathToRoot(tree, entry.parentId).entries;
  const settings = resolveCompactionSettings(options.settings);
  const recordedFirstKept = typeof entry.raw.firstKeptEntryId === "string" ? entry.raw.firstKeptEntryId : null;
  const lints: string[] = [];

  const preparation = prepareCompaction(path, settings, {
    profile: piProfileOf(options),
    boundaryRule: options.boundaryRule,
    recordedFirstKeptEntryId: recordedFirstKept,
  });
  if (!preparation) throw new Error(`Compaction ${compactionEntryId} has nothing before it to compact (PI-K13)`);
  lints.push(...preparation.lints);

  // Model and wire shape in force when pi compacted (PI-P3 settings walk over the path).
  const context = projectPath(path, piProfileOf(options));
  const model = resolveModel(context.model, lastAssistantApi(path), options.modelOverrides ?? {});
  const api = options.api ?? model.api;
  const serializer = getSerializer(api);
  const bodyInput = (maxTokens: number): SummariserBodyInput => ({
    serializer,
    model,
    profile: piProfileOf(options),
    thinkingLevel: context.thinkingLevel,
    instructions: options.instructions ?? {},
    maxTokens,
  });
  const customInstructions = options.customInstructions?.[compactionEntryId] ?? null;
  const timestamp = entry.timestamp ? Date.parse(entry.timestamp) : 0;
  const rebuilt = summariserRequestsOf(preparation, options, { bodyInput, settings, model, customInstructions, timestamp }, lints);
  const recordedLists = recordedFileLists(entry);
  recordLints(entry, preparation, rebuilt, recordedLists, lints);

  const estimate = computeTokensBefore(path, preparation, options);
  if (typeof entry.raw.tokensBefore === "number" && entry.raw.tokensBefore !== estimate.tokens) {
    lints.push(`recorded tokensBefore ${entry.raw.tokensBefore} differs from the ${preparation.boundaryRule} estimate ${estimate.tokens} (PI-K16)`);
  }
  const { messagesToSummarize: _m, turnPrefixMessages: _t, computedCut, ...rest } = preparation;
  const rebuild: CompactionRebuild = {
    entryId: entry.id,
    line: entry.line,
    requests: rebuilt.requests,
    serializedConversation: rebuilt.serializedConversation,
    previousSummary: preparation.previousSummary,
    firstKeptEntryId: preparation.firstKeptEntryId,
    recordedFirstKeptEntryId: recordedFirstKept,
    computedCut,
    boundaryRule: preparation.boundaryRule,
    boundaryStartEntryId: path[preparation.boundaryStart]?.id ?? null,
    isSplitTurn: preparation.isSplitTurn,
    turnStartEntryId: preparation.isSplitTurn ? (path[preparation.turnStartIndex]?.id ?? null) : null,
    fileLists: preparation.fileLists,
    recordedFileLists: recordedLists,
    tokensBefore: {
      recorded: typeof entry.raw.tokensBefore === "number" ? entry.raw.tokensBefore : null,
      computed: estimate.tokens,
      estimate,
    },
    settings,
    model,
    api,
    preparation: rest,
    path,
    lints,
  };
  if (rebuilt.turnPrefixConversation !== undefined) rebuild.turnPrefixConversation = rebuilt.turnPrefixConversation;
  if (customInstructions !== null) rebuild.customInstructions = customInstructions;
  return rebuild;
}

/** Ids of the compaction entries on a path (or the whole file when no leaf), in order. */
export function listCompactionEntryIds(session: Session): string[] {
  return session.entries.filter((e) => e.type === "compaction").map((e) => e.id);
}
