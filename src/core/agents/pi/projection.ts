// Projection of a pi/senpi entry path to the agent's context messages (spec §2: PI-P1…PI-P6 and
// senpi's SP-P1…SP-P4). Built incrementally: `PathProjector.push(entry)` walks the path root
// first and keeps the projected list current, so the context of every turn on a branch is
// available in one linear pass (design.md §3); a compaction resets the list to its summary plus
// the kept range. `buildSessionContext` is the one-shot form of pi's function of the same name.
// With reply-language notes on (senpi), the newest compaction summary gets its carrier here
// (SP-P5, RL-22) and the user messages the compaction removed are kept for the note step (RL-14).
import type { PiProfileId } from "./profile";
import type {
  AgentMessage,
  CompactionSummaryMessage,
  ModelRef,
  ReaderWarning,
  SessionEntry,
  UserMessage,
} from "../../model";
import type { UserProseMessage } from "../../notes";
import { carrierOf, carrierSources, type NotesSetup } from "./notesSetup";
import { cycleWarning, pathToRoot, type SessionTree } from "./tree";
import { isObject } from "../../util/is-object";
import { isText, textUnits } from "../../text/text";

/** One message of the projected context, with the entry it came from. */
export interface ProjectedMessage {
  message: AgentMessage;
  entryId: string;
  /** 1-based line of the source entry (0 when unknown). */
  line: number;
  /** Entry type that produced it: "message", "custom_message", "branch_summary", "compaction". */
  source: string;
  /** SP-P2: the `context_edit` entry that replaced or hid this message. */
  editedBy: string | null;
  /** SP-P2: `replacement: null` hides the message; it is then shown as dropped. */
  hidden: boolean;
  /** The message as stored, when a context_edit replaced it. */
  original: AgentMessage | null;
}

export interface SessionContext {
  messages: ProjectedMessage[];
  thinkingLevel: string;
  model: ModelRef | null;
  /** The compaction entry in force (the last on the path), if any. */
  compactionId: string | null;
  warnings: ReaderWarning[];
  /**
   * Notes on and a compaction in force: the user `message` entries on the path that the
   * compaction removed from the context, in path order (RL-14's whole-path history).
   */
  priorUserMessages?: UserProseMessage[];
}

/**
 * Cache of the AgentMessage an edited entry became (per profile and context_edit) and of the
 * compaction summaries with a carrier, so that the same object is reused on every turn: later
 * stages cache by object identity (PI-C1). An entry's own message is kept by entry (`baseMessages`).
 */
export type EntryMessageCache = Map<string, AgentMessage | null>;

/**
 * Each entry's own message (PI-P6, before any context_edit) per profile, by entry object: it
 * depends on the entry alone, and a walk of a long branch then makes no key string per entry.
 */
const baseMessages: Record<PiProfileId, WeakMap<SessionEntry, AgentMessage | null>> = { pi: new WeakMap(), senpi: new WeakMap() };

/** What a `push` did to the projected list, so incremental consumers can follow it cheaply. */
export type ProjectionChange = "none" | "append" | "reset";

const DEFAULT_THINKING_LEVEL = "off";

/** Roles whose `content` senpi replaces by `[]` when it is null (SP-P1). */
const CONTENT_ROLES = new Set(["user", "assistant", "toolResult"]);

function entryTime(entry: SessionEntry): number {
  // PI-F11: messages synthesised from entries take Date.parse(entry.timestamp).
  return entry.timestamp === null ? Number.NaN : Date.parse(entry.timestamp);
}

/** PI-P6: the AgentMessage an entry contributes (before context_edit), or null. */
function messageOfEntry(entry: SessionEntry, profile: PiProfileId): AgentMessage | null {
  const raw = entry.raw;
  switch (entry.type) {
    case "message": {
      const stored = storedMessageOf(entry);
      if (stored !== null) return stored;
      // What is left with a role is a content role whose content is null or missing: SP-P1
      // (senpi); pi would fail on such a message, so both profiles normalise it.
      const message = raw.message;
      if (!isObject(message) || typeof message.role !== "string") return null;
      return { ...message, content: [] } as unknown as AgentMessage;
    }
    case "custom_message":
      return {
        role: "custom",
        customType: String(raw.customType ?? ""),
        content: (raw.content ?? "") as string,
        display: raw.display === true,
        details: raw.details,
        timestamp: entryTime(entry),
      };
    case "branch_summary":
      if (!isText(raw.summary) || textUnits(raw.summary) === 0) return null;
      return { role: "branchSummary", summary: raw.summary, fromId: String(raw.fromId ?? ""), timestamp: entryTime(entry) };
    case "compaction": {
      const summary: CompactionSummaryMessage = {
        role: "compactionSummary",
        summary: isText(raw.summary) ? raw.summary : "",
        tokensBefore: typeof raw.tokensBefore === "number" ? raw.tokensBefore : 0,
        timestamp: entryTime(entry),
      };
      // SP-P3: senpi copies the compaction's details onto the summary message.
      if (profile === "senpi" && raw.details !== undefined) summary.details = raw.details;
      return summary;
    }
    default:
      return null;
  }
}

/**
 * A `message` entry's message when messageOfEntry returns it as it is stored (a role, and content
 * where the role has one), else null: the same object on every call, so it needs no cache.
 */
function storedMessageOf(entry: SessionEntry): AgentMessage | null {
  if (entry.type !== "message") return null;
  const message = entry.raw.message;
  if (!isObject(message) || typeof message.role !== "string") return null;
  if ((message.content === null || message.content === undefined) && CONTENT_ROLES.has(message.role)) return null;
  return message as unknown as AgentMessage;
}

function isUserMessageEntry(entry: SessionEntry): boolean {
  const message = entry.raw.message;
  return entry.type === "message" && isObject(message) && message.role === "user";
}

/** SP-P2: the message with its content replaced by a context_edit's replacement. */
function applyReplacement(message: AgentMessage, replacement: unknown): AgentMessage {
  if (message.role === "assistant" || message.role === "toolResult") {
    const content = typeof replacement === "string" ? [{ type: "text", text: replacement }] : replacement;
    return { ...message, content } as AgentMessage;
  }
  if (message.role === "user" || message.role === "custom") return { ...message, content: replacement } as AgentMessage;
  if (message.role === "bashExecution" && typeof replacement === "string") return { ...message, output: replacement };
  if ((message.role === "branchSummary" || message.role === "compactionSummary") && typeof replacement === "string") {
    return { ...message, summary: replacement };
  }
  return message;
}

/** Incremental projection over a path walked root first. */
export class PathProjector {
  readonly profile: PiProfileId;
  /** Projected messages of the path pushed so far (PI-P4 applied). */
  messages: ProjectedMessage[] = [];
  thinkingLevel = DEFAULT_THINKING_LEVEL;
  model: ModelRef | null = null;
  compactionId: string | null = null;
  readonly warnings: ReaderWarning[] = [];
  /** Notes on: the user messages the compaction in force removed (see SessionContext). */
  priorUserMessages: UserProseMessage[] | undefined = undefined;

  private readonly cache: EntryMessageCache;
  private readonly notes: NotesSetup | null;
  /** Indexes in `path` of the user `message` entries (tracked only with notes on). */
  private readonly userIndexes: number[] = [];
  private readonly path: SessionEntry[] = [];
  /**
   * Index in `path` of each entry id, for the first `indexed` entries: made only when a compaction
   * or a context_edit looks an id up (`indexOf`), so a branch without them never builds it.
   */
  private readonly pathIndex = new Map<string, number>();
  private indexed = 0;
  /** SP-P2: last context_edit per target id seen so far on the path. */
  private readonly edits = new Map<string, SessionEntry>();
  /** Position of each entry's message in `messages`, for context_edit. */
  private positions = new Map<string, number>();

  // SP-P4 model-restoration state (senpi).
  private fallbackActive = false;
  private thinkingBeforeFallback: string | null = null;
  private explicitProvider: string | null = null;

  /** `notes`: the session's note setup when notes apply (senpi, notes on), else null. */
  constructor(profile: PiProfileId, cache?: EntryMessageCache, notes?: NotesSetup | null) {
    this.profile = profile;
    this.cache = cache ?? new Map();
    this.notes = notes ?? null;
  }

  /** Entries pushed so far, root first. */
  get pathEntries(): readonly SessionEntry[] {
    return this.path;
  }

  push(entry: SessionEntry): ProjectionChange {
    if (this.notes && isUserMessageEntry(entry)) this.userIndexes.push(this.path.length);
    this.path.push(entry);
    this.walkSettings(entry);
    switch (entry.type) {
      case "compaction":
        this.resetToCompaction(entry);
        return "reset";
      case "context_edit":
        if (this.profile !== "senpi") return "none";
        return this.applyEdit(entry);
      default: {
        const projected = this.project(entry);
        if (!projected) return "none";
        // Positions are read by context_edit alone, which only senpi applies.
        if (this.profile === "senpi") this.positions.set(entry.id, this.messages.length);
        this.messages.push(projected);
        return "append";
      }
    }
  }

  snapshot(): SessionContext {
    return {
      messages: this.messages.slice(),
      thinkingLevel: this.thinkingLevel,
      model: this.model,
      compactionId: this.compactionId,
      warnings: this.warnings.slice(),
      ...(this.priorUserMessages ? { priorUserMessages: this.priorUserMessages } : {}),
    };
  }

  /** The (cached) message of an entry under the current context_edit, as a ProjectedMessage. */
  private project(entry: SessionEntry): ProjectedMessage | null {
    if (entry.type === "compaction") return null; // PI-P5: only the last compaction emits, via reset
    const edit = this.profile === "senpi" ? this.edits.get(entry.id) : undefined;
    const base = this.baseMessage(entry);
    // Unedited, the message is the base one; an edited one is cached by entry and edit.
    const key = edit ? `${this.profile}|${entry.id}|${edit.id}` : null;
    let message = key === null ? base : this.cache.get(key);
    if (message === undefined) {
      message = base === null ? null : edit && edit.raw.replacement !== null ? applyReplacement(base, edit.raw.replacement) : base;
      this.cache.set(key!, message);
    }
    if (message === null) return null;
    return {
      message,
      entryId: entry.id,
      line: entry.line,
      source: entry.type,
      editedBy: edit ? edit.id : null,
      hidden: edit !== undefined && edit.raw.replacement === null,
      original: edit ? base : null,
    };
  }

  private baseMessage(entry: SessionEntry): AgentMessage | null {
    // A message entry's own message object (the most common entry) needs no cache: it is itself.
    const own = storedMessageOf(entry);
    if (own !== null) return own;
    const cache = baseMessages[this.profile];
    let base = cache.get(entry);
    if (base === undefined) {
      base = messageOfEntry(entry, this.profile);
      cache.set(entry, base);
    }
    return base;
  }

  /** PI-P4, PI-P5: summary, then the kept range before the compaction (no compactions). */
  private resetToCompaction(compaction: SessionEntry): void {
    this.compactionId = compaction.id;
    const summary = this.notes ? this.summaryWithCarrier(compaction, this.notes) : this.baseMessage(compaction);
    const messages: ProjectedMessage[] = [];
    if (summary) {
      messages.push({
        message: summary,
        entryId: compaction.id,
        line: compaction.line,
        source: "compaction",
        editedBy: null,
        hidden: false,
        original: null,
      });
    }
    const positions = new Map<string, number>();
    const compactionIndex = this.path.length - 1;
    const firstKept = compaction.raw.firstKeptEntryId;
    const keptIndex = typeof firstKept === "string" ? this.indexOf(firstKept) : undefined;
    if (this.notes) {
      // RL-14: what the compaction removed (all of the path before it when nothing is kept).
      const removedEnd = keptIndex !== undefined && keptIndex < compactionIndex ? keptIndex : compactionIndex;
      this.priorUserMessages = this.userMessagesBefore(removedEnd);
    }
    if (keptIndex !== undefined && keptIndex < compactionIndex) {
      for (let i = keptIndex; i < compactionIndex; i++) {
        const entry = this.path[i] as SessionEntry;
        const projected = this.project(entry);
        if (!projected) continue;
        if (this.profile === "senpi") positions.set(entry.id, messages.length);
        messages.push(projected);
      }
    }
    this.messages = messages;
    this.positions = positions;
    const details = compaction.raw.details;
    if (this.profile === "senpi" && isObject(details) && details.retainedMessagePolicy === "omit-unsafe-v1") {
      this.warnings.push({
        line: compaction.line,
        reason: `compaction ${compaction.id} asks for senpi's retained-message repair (omit-unsafe-v1), which is not reproduced (SP-P3)`,
      });
    }
  }

  /** Where `id` is on the path pushed so far (its last place), indexing the entries pushed since the last look-up. */
  private indexOf(id: string): number | undefined {
    for (; this.indexed < this.path.length; this.indexed++) this.pathIndex.set(this.path[this.indexed]!.id, this.indexed);
    return this.pathIndex.get(id);
  }

  /** The user messages (as projected now) of the user entries at path indexes below `end`. */
  private userMessagesBefore(end: number): UserProseMessage[] {
    const users: UserProseMessage[] = [];
    for (const index of this.userIndexes) {
      if (index >= end) break;
      const entry = this.path[index] as SessionEntry;
      const projected = this.project(entry);
      if (!projected || projected.hidden || projected.message.role !== "user") continue;
      users.push({ entryId: entry.id, message: projected.message as UserMessage });
    }
    return users;
  }

  /**
   * SP-P5, RL-22: the summary message of the compaction in force, carrying the reply language in
   * effect at the compaction. A distinct object per note setup (cached like every entry message),
   * so the plain summary stays untouched for notes off.
   */
  private summaryWithCarrier(compaction: SessionEntry, notes: NotesSetup): AgentMessage | null {
    const base = this.baseMessage(compaction);
    if (!base || base.role !== "compactionSummary") return base;
    const compactionIndex = this.path.length - 1;
    const carrier = carrierOf(notes, compaction.id, () => this.userMessagesBefore(compactionIndex));
    if (!carrier) return base;
    const key = `${this.profile}|${compaction.id}|notes:${notes.key}`;
    let message = this.cache.get(key);
    if (message === undefined) {
      const carried: CompactionSummaryMessage = {
        ...base,
        userLanguage: carrier.userLanguage,
        userLanguageRequested: carrier.userLanguageRequested,
      };
      carrierSources.set(carried, { options: notes.options, fromEntryId: carrier.fromEntryId });
      message = carried;
      this.cache.set(key, message);
    }
    return message;
  }

  /** SP-P2: the last edit for a target wins; re-project the target if it is in the list. */
  private applyEdit(edit: SessionEntry): ProjectionChange {
    const targetId = edit.raw.targetId;
    if (typeof targetId !== "string") {
      this.warnings.push({ line: edit.line, reason: "context_edit without a targetId ignored" });
      return "none";
    }
    this.edits.set(targetId, edit);
    const position = this.positions.get(targetId);
    const targetIndex = this.indexOf(targetId);
    const target = targetIndex === undefined ? undefined : this.path[targetIndex];
    if (position === undefined || !target) return "none";
    const projected = this.project(target);
    if (!projected) return "none";
    this.messages = this.messages.slice();
    this.messages[position] = projected;
    return "reset";
  }

  /** PI-P3 settings walk; senpi's model restoration SP-P4. */
  private walkSettings(entry: SessionEntry): void {
    const raw = entry.raw;
    if (entry.type === "thinking_level_change") {
      if (typeof raw.thinkingLevel === "string") this.thinkingLevel = raw.thinkingLevel;
      return;
    }
    if (entry.type === "model_change") {
      const ref = { provider: String(raw.provider ?? ""), modelId: String(raw.modelId ?? "") };
      if (this.profile !== "senpi") {
        this.model = ref;
        return;
      }
      if (raw.reason === "fallback") {
        // Inside a fallback window the restored model does not change.
        if (!this.fallbackActive) {
          this.fallbackActive = true;
          this.thinkingBeforeFallback = this.thinkingLevel;
        }
        return;
      }
      if (raw.reason === "fallback-revert") {
        if (this.fallbackActive && this.thinkingBeforeFallback !== null) this.thinkingLevel = this.thinkingBeforeFallback;
        this.fallbackActive = false;
        this.thinkingBeforeFallback = null;
      }
      // A manual change, or the primary restored from a fallback, is explicit.
      this.model = ref;
      this.explicitProvider = ref.provider;
      return;
    }
    if (entry.type === "message" && isObject(raw.message) && raw.message.role === "assistant") {
      const message = raw.message;
      const provider = String(message.provider ?? "");
      const modelId = String(message.model ?? "");
      if (this.profile === "senpi") {
        if (this.fallbackActive) return;
        if (this.explicitProvider !== null && provider === this.explicitProvider) return;
        this.explicitProvider = null;
      }
      // The same model answering again keeps its object: one per change, not one per answer.
      if (this.model === null || this.model.provider !== provider || this.model.modelId !== modelId) this.model = { provider, modelId };
    }
  }
}

/** Projects a whole path (root first). */
export function projectPath(
  path: readonly SessionEntry[],
  profile: PiProfileId,
  cache?: EntryMessageCache,
  notes?: NotesSetup | null,
): SessionContext {
  const projector = new PathProjector(profile, cache, notes);
  for (const entry of path) projector.push(entry);
  return projector.snapshot();
}

/**
 * pi's `buildSessionContext(entries, leafId)` (PI-P1): `null` → empty context; an existing id →
 * that leaf; otherwise (undefined or unknown) → the last entry in file order.
 */
export function buildSessionContext(
  tree: SessionTree,
  leafId: string | null | undefined,
  profile: PiProfileId,
  cache?: EntryMessageCache,
): SessionContext {
  if (leafId === null) {
    return { messages: [], thinkingLevel: DEFAULT_THINKING_LEVEL, model: null, compactionId: null, warnings: [] };
  }
  const leaf = leafId !== undefined && tree.byId.has(leafId) ? leafId : tree.defaultLeafId;
  const path = pathToRoot(tree, leaf);
  const context = projectPath(path.entries, profile, cache);
  const cycle = cycleWarning(path, tree);
  if (cycle) context.warnings.unshift(cycle);
  return context;
}
