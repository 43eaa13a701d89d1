// The fold of a Copilot CLI event log into its calls (docs/formats/copilot-cli.md): the main
// thread's conversation as it grows — the user's messages (as the CLI sent them, with what it
// added), each model call's answer (an `assistant.message`, one per call) with its tool requests,
// each tool's result — and, for every call, the conversation before it. A recorded compaction
// replaces the conversation by its summary and the messages it kept; a truncation drops the
// oldest. Sub-agents' events (they carry an `agentId` or a `parentToolCallId`) are not main
// calls. The CLI's request builder is not public: what it adds on the way (its system prompt, tool
// list, reminders) is not in the log, which is why every request is an approximation.
import type { ContextMessage, ModelRef, ReaderWarning, RecordedUsage, Session, SessionEntry } from "../../model";
import type { SessionEvent } from "../../pipeline/types";
import { isObject } from "../../util/is-object";
import { markResumed } from "./request";
import { copilotModelRef, copilotUsage } from "./usage";

export interface CopilotTurn {
  turn: number;
  /** The `assistant.message` event that answered the call. */
  answer: SessionEntry;
  /** The system prompt the CLI recorded last before the call (`system.message`), null when none. */
  system: ContextMessage | null;
  /** The conversation the call was sent: `history.slice(0, historyLength)`. */
  history: readonly ContextMessage[];
  historyLength: number;
  model: ModelRef | null;
  /** The model id as Copilot records it ("claude-sonnet-4.5"), the one its request names. */
  copilotModel: string | null;
  usage: RecordedUsage | null;
  /** The ids the answer names the call by (api call, request, message), for matching usage records. */
  callIds: string[];
  afterCompaction: boolean;
}

interface CopilotCompaction {
  entry: SessionEntry;
  /** Turns answered before it. */
  turnsBefore: number;
  success: boolean;
  failure: string | null;
  summaryChars: number;
  tokensBefore: number | null;
  usage: RecordedUsage | null;
  model: ModelRef | null;
  /** The first message kept after the summary, null when none was kept. */
  firstKeptEntryId: string | null;
}

export interface CopilotIndex {
  turns: CopilotTurn[];
  compactions: CopilotCompaction[];
  events: SessionEvent[];
  warnings: ReaderWarning[];
  /**
   * The usage each `session.shutdown` records per model, in file order; `cumulative` when it counts
   * the runs before it too (1.0.102 restores them on resume), not only its own run's calls.
   */
  shutdowns: { entry: SessionEntry; perModel: { model: ModelRef | null; usage: RecordedUsage }[]; cumulative: boolean }[];
}

function data(entry: SessionEntry): Record<string, unknown> {
  return isObject(entry.raw.data) ? entry.raw.data : {};
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** True for an event of a sub-agent, not of the main thread. */
function isSubAgent(entry: SessionEntry): boolean {
  return typeof entry.raw.agentId === "string" || typeof data(entry).parentToolCallId === "string";
}

function toolArguments(value: unknown): Record<string, unknown> {
  if (isObject(value)) return value;
  return value === undefined ? {} : { value };
}

/** The text a tool result sends: the result's content, else the error's message. */
function resultText(d: Record<string, unknown>): string {
  if (isObject(d.result) && typeof d.result.content === "string") return d.result.content;
  if (isObject(d.error) && typeof d.error.message === "string") return d.error.message;
  if (typeof d.error === "string") return d.error;
  return "";
}

class CopilotFold {
  private history: ContextMessage[] = [];
  private readonly turns: CopilotTurn[] = [];
  private readonly compactions: CopilotCompaction[] = [];
  private readonly events: SessionEvent[] = [];
  private readonly warnings: ReaderWarning[] = [];
  private readonly shutdowns: CopilotIndex["shutdowns"] = [];
  /** Usage records written before the call they are of (Copilot CLI 1.0.102 writes them first). */
  private readonly pendingUsage: { entry: SessionEntry; usage: RecordedUsage }[] = [];
  private readonly toolNames = new Map<string, string>();
  /** The intent the answer gave each tool call (`intentionSummary`), by call id. */
  private readonly toolSummaries = new Map<string, string>();
  private currentModel: string | null = null;
  private system: ContextMessage | null = null;
  private pendingCompaction = false;
  /** A compaction replaced the conversation since the last call: the next call is after it. */
  private pendingCompactionDone = false;
  private lastAnswerMessageId: string | null = null;
  /** Model calls (sub-agents' too) since the last shutdown, and the requests the shutdowns counted so far. */
  private answersSinceShutdown = 0;
  private shutdownRequests = 0;
  private lastShutdownUsage = new Map<string, number>();

  push(entry: SessionEntry): void {
    const d = data(entry);
    if (entry.type === "assistant.message") this.answersSinceShutdown += 1;
    if (isSubAgent(entry)) return;
    switch (entry.type) {
      case "session.start":
      case "session.resume":
        if (typeof d.selectedModel === "string" && d.selectedModel !== "") this.currentModel = d.selectedModel;
        if (entry.type === "session.resume") {
          this.resume();
          this.event(entry, `Session resumed${typeof d.selectedModel === "string" ? ` with ${d.selectedModel}` : ""}`);
        }
        return;
      case "session.model_change":
        if (typeof d.newModel === "string" && d.newModel !== "") this.currentModel = d.newModel;
        this.event(entry, `Model changed${typeof d.previousModel === "string" ? ` from ${d.previousModel}` : ""} to ${text(d.newModel) || "an unnamed model"}`);
        return;
      case "system.message":
        // The CLI writes the system prompt it sends (a later one replaces it: a model change rewrites it).
        if (typeof d.content === "string" && d.content !== "") {
          this.system = {
            message: { role: "user", content: [{ type: "text", text: d.content }] },
            provenance: { rule: "copilot-cli:system-message", entryId: entry.id, ruleId: "FM-CP-4", sentAsSystem: true, explanation: `The system prompt the CLI recorded (system.message, role ${text(d.role) || "system"}), sent first.` },
          };
        }
        return;
      case "user.message":
        this.userMessage(entry, d);
        return;
      case "assistant.message":
        this.answer(entry, d);
        return;
      case "tool.execution_start":
        if (typeof d.toolCallId === "string" && typeof d.toolName === "string") this.toolNames.set(d.toolCallId, d.toolName);
        return;
      case "tool.execution_complete":
        this.toolResult(entry, d);
        return;
      case "session.usage_record":
        this.usageRecord(entry, d);
        return;
      case "session.compaction_start":
        this.pendingCompaction = true;
        return;
      case "session.compaction_complete":
        this.compaction(entry, d);
        return;
      case "session.truncation":
        this.truncation(entry, d);
        return;
      case "session.shutdown":
        this.shutdown(entry, d);
        return;
      case "session.info":
      case "session.warning":
      case "session.error":
        this.event(entry, `${entry.type.slice("session.".length)}: ${text(d.message) || text(d.infoType) || text(d.errorType) || "(no message)"}`);
        return;
      case "abort":
        this.event(entry, `The user stopped the agent${typeof d.reason === "string" ? ` (${d.reason})` : ""}`);
        return;
      default:
        return;
    }
  }

  private event(entry: SessionEntry, label: string): void {
    this.events.push({ entryId: entry.id, line: entry.line, kind: entry.type, label, afterTurn: this.turns.length > 0 ? this.turns.length : null, timestamp: entry.timestamp });
  }

  private add(message: ContextMessage): void {
    this.history.push(message);
  }

  private userMessage(entry: SessionEntry, d: Record<string, unknown>): void {
    const content = text(d.content);
    const transformed = typeof d.transformedContent === "string" ? d.transformedContent : null;
    const sent = transformed ?? content;
    this.add({
      message: { role: "user", content: [{ type: "text", text: sent }] },
      provenance:
        transformed !== null && transformed !== content
          ? { rule: "copilot-cli:transformed-content", entryId: entry.id, ruleId: "FM-CP-3", explanation: "The message as the CLI sent it (transformedContent): what the user typed with what the CLI added, such as the current date and time." }
          : { rule: "entry", entryId: entry.id },
    });
  }

  private answer(entry: SessionEntry, d: Record<string, unknown>): void {
    const requests = Array.isArray(d.toolRequests) ? d.toolRequests.filter(isObject) : [];
    for (const request of requests) {
      if (typeof request.toolCallId !== "string") continue;
      if (typeof request.name === "string") this.toolNames.set(request.toolCallId, request.name);
      if (typeof request.intentionSummary === "string") this.toolSummaries.set(request.toolCallId, request.intentionSummary);
    }
    const blocks = [
      ...(text(d.content) !== "" ? [{ type: "text" as const, text: text(d.content) }] : []),
      ...requests.map((request) => ({ type: "toolCall" as const, id: text(request.toolCallId), name: text(request.name), arguments: toolArguments(request.arguments) })),
    ];
    const messageId = typeof d.messageId === "string" ? d.messageId : null;
    const copilotModel = typeof d.model === "string" && d.model !== "" ? d.model : this.currentModel;
    const model = copilotModelRef(copilotModel);
    const message: ContextMessage = { message: { role: "assistant", api: "openai-completions", content: blocks, ...(model ? { model: model.modelId } : {}) }, provenance: { rule: "entry", entryId: entry.id } };
    const last = this.turns[this.turns.length - 1];
    // A long answer may be written in chunks with the same message id: one call, one message.
    if (last && messageId !== null && messageId === this.lastAnswerMessageId && typeof d.chunkIndex === "number" && d.chunkIndex > 0) {
      const at = this.history.length - 1;
      const previous = this.history[at]!.message;
      if (previous.role === "assistant") this.history[at] = { message: { ...previous, content: [...previous.content, ...blocks] }, provenance: this.history[at]!.provenance };
      return;
    }
    this.lastAnswerMessageId = messageId;
    const callIds = [d.apiCallId, d.requestId, d.serviceRequestId, d.clientRequestId].filter((id): id is string => typeof id === "string");
    const afterCompaction = this.pendingCompactionDone;
    this.pendingCompactionDone = false;
    const usage = this.pendingUsage.shift()?.usage ?? null;
    this.turns.push({ turn: this.turns.length + 1, answer: entry, system: this.system, history: this.history, historyLength: this.history.length, model, copilotModel, usage, callIds, afterCompaction });
    this.add(message);
  }

  /**
   * A resumed CLI reads the conversation back from its log: every message written before is sent
   * in the form it rebuilds (request.ts, markResumed), the newer ones as the running CLI sends them.
   */
  private resume(): void {
    this.history = this.history.map((context) => {
      const message = context.message;
      if (message.role === "user") return context;
      const copy: ContextMessage = {
        message,
        provenance: { ...context.provenance, rule: "copilot-cli:resumed", ruleId: "FM-CP-10", explanation: "Read back from the log by the resumed CLI, which sends it in the form it rebuilds (a tool result names its tool and intent)." },
      };
      const tool = message.role === "toolResult" ? { name: message.toolName, summary: this.toolSummaries.get(message.toolCallId) ?? null } : null;
      markResumed(copy, tool);
      return copy;
    });
  }

  private toolResult(entry: SessionEntry, d: Record<string, unknown>): void {
    const id = text(d.toolCallId);
    this.add({
      message: { role: "toolResult", toolCallId: id, toolName: this.toolNames.get(id) ?? "", content: [{ type: "text", text: resultText(d) }], isError: d.success === false },
      provenance: { rule: "entry", entryId: entry.id },
    });
  }

  private compaction(entry: SessionEntry, d: Record<string, unknown>): void {
    this.pendingCompaction = false;
    const success = d.success !== false;
    const summary = text(d.summaryContent);
    let firstKept: string | null = null;
    if (success && summary !== "") {
      // What the CLI keeps besides its summary is not recorded message by message: the count it
      // removed says how many of the newest it kept [INF].
      const before = typeof d.preCompactionMessagesLength === "number" ? d.preCompactionMessagesLength : null;
      const removed = typeof d.messagesRemoved === "number" ? d.messagesRemoved : null;
      const keep = before !== null && removed !== null ? Math.min(this.history.length, Math.max(0, before - removed)) : 0;
      const kept = keep > 0 ? this.history.slice(this.history.length - keep) : [];
      firstKept = kept[0]?.provenance.entryId ?? null;
      this.history = [
        {
          message: { role: "user", content: [{ type: "text", text: summary }] },
          provenance: { rule: "summary:copilot-compaction", entryId: entry.id, ruleId: "FM-CP-6", inferred: "FM-CP-6", explanation: "The compaction's summary (summaryContent) standing for the conversation before it; where the CLI places it in the request is not recorded." },
        },
        ...kept,
      ];
      this.pendingCompactionDone = true;
    }
    this.compactions.push({
      entry,
      turnsBefore: this.turns.length,
      success: success && summary !== "",
      failure: success ? (summary === "" ? "the compaction recorded no summary" : null) : text(d.error) || text(d.failureReason) || "the compaction failed",
      summaryChars: summary.length,
      tokensBefore: typeof d.preCompactionTokens === "number" ? d.preCompactionTokens : null,
      usage: copilotUsage(d.compactionTokensUsed),
      model: copilotModelRef(isObject(d.compactionTokensUsed) ? d.compactionTokensUsed.model : d.model),
      firstKeptEntryId: firstKept,
    });
  }

  private truncation(entry: SessionEntry, d: Record<string, unknown>): void {
    const removed = typeof d.messagesRemovedDuringTruncation === "number" ? d.messagesRemovedDuringTruncation : 0;
    // The oldest messages go first [INF]; a compaction summary in front stays.
    const start = this.history[0]?.provenance.rule === "summary:copilot-compaction" ? 1 : 0;
    const drop = Math.min(removed, this.history.length - start);
    if (drop > 0) this.history = [...this.history.slice(0, start), ...this.history.slice(start + drop)];
    this.event(entry, `Truncated to fit ${typeof d.tokenLimit === "number" ? `${d.tokenLimit} tokens` : "the context window"}: ${removed} message(s) removed`);
  }

  private shutdown(entry: SessionEntry, d: Record<string, unknown>): void {
    const perModel: CopilotIndex["shutdowns"][number]["perModel"] = [];
    let requests = 0;
    const inputs = new Map<string, number>();
    if (isObject(d.modelMetrics)) {
      for (const [model, metric] of Object.entries(d.modelMetrics)) {
        if (!isObject(metric)) continue;
        if (isObject(metric.requests) && typeof metric.requests.count === "number") requests += metric.requests.count;
        const usage = copilotUsage(metric.usage);
        if (!usage) continue;
        perModel.push({ model: copilotModelRef(model), usage });
        inputs.set(model, usage.totalTokens);
      }
    }
    this.shutdowns.push({ entry, perModel, cumulative: this.countsEarlierRuns(requests, inputs) });
    this.shutdownRequests = requests;
    this.lastShutdownUsage = inputs;
    this.answersSinceShutdown = 0;
    this.event(entry, `Session ended (${text(d.shutdownType) || "shutdown"})`);
  }

  /**
   * Whether a shutdown after an earlier one counts the earlier run's calls too [INF]: its request
   * count is the earlier count plus this run's answers (1.0.102 restores the totals on resume), not
   * this run's answers alone (older CLIs start again); when the counts say neither, totals that
   * never went down are taken as running totals.
   */
  private countsEarlierRuns(requests: number, tokens: Map<string, number>): boolean {
    if (this.shutdowns.length === 0) return false;
    if (requests === this.shutdownRequests + this.answersSinceShutdown && requests !== this.answersSinceShutdown) return true;
    if (requests === this.answersSinceShutdown) return false;
    return [...this.lastShutdownUsage].every(([model, total]) => (tokens.get(model) ?? 0) >= total);
  }

  /**
   * A call's usage record: written just before its answer (1.0.102), it waits for the next answer;
   * written after it, it names the answer's call id and goes to it.
   */
  private usageRecord(entry: SessionEntry, d: Record<string, unknown>): void {
    const usage = copilotUsage(d.usage);
    if (!usage) return;
    const u = isObject(d.usage) ? d.usage : {};
    const ids = [u.apiCallId, u.providerCallId, u.serviceRequestId].filter((id): id is string => typeof id === "string");
    const last = this.turns[this.turns.length - 1];
    if (last && last.usage === null && ids.some((id) => last.callIds.includes(id))) last.usage = usage;
    else this.pendingUsage.push({ entry, usage });
  }

  index(): CopilotIndex {
    for (const record of this.pendingUsage) this.warnings.push({ line: record.entry.line, reason: "session.usage_record after the last model call of the main thread matches none: not counted" });
    if (this.pendingCompaction) this.warnings.push({ line: 0, reason: "a compaction started and recorded no result" });
    return { turns: this.turns.slice(), compactions: this.compactions.slice(), events: this.events.slice(), warnings: this.warnings.slice(), shutdowns: this.shutdowns.slice() };
  }
}

const indexes = new WeakMap<Session, CopilotIndex>();

export function getCopilotIndex(session: Session): CopilotIndex {
  let index = indexes.get(session);
  if (!index) {
    const fold = new CopilotFold();
    for (const entry of session.entries) fold.push(entry);
    index = fold.index();
    indexes.set(session, index);
  }
  return index;
}

/** The conversation sent with a call. */
export function turnHistory(turn: CopilotTurn): readonly ContextMessage[] {
  return turn.history.slice(0, turn.historyLength);
}
