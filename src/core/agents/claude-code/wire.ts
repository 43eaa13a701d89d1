// Assembles the Anthropic Messages body Claude Code sends for one main request from its
// api-request record (FM-CC-19 steps 3–6): system and tools from the recorded shape, cache
// markers moved to the recorded paths, one-text-block contents sent as strings, the billing
// header block prepended to `system`, and the top-level keys in Claude Code's wire order.
// Only the parts that change are copied; every other message object is shared with the cache.
// A text kept as bytes (storedTextPlaces.ts) goes into the body as the same StoredText reference.
import { isObject } from "../../util/is-object";
import { isStoredText } from "../../text/storedText";
import { isText } from "../../text/text";
import { billingSuffix } from "./billing";
import { CarriedMap } from "../../util/carried-map";
import { recordUnmarkedForm } from "../../prefix/canonical";

/** Claude Code's top-level key order (FM-CC-19 step 6, PR-3). */
export const CLAUDE_BODY_KEY_ORDER: readonly string[] = [
  "model",
  "messages",
  "system",
  "tools",
  "metadata",
  "max_tokens",
  "thinking",
  "context_management",
  "output_config",
  "stream",
];

/** `params` keys that are not body keys: betas travel in the `anthropic-beta` header. */
const HEADER_PARAMS = new Set(["betas"]);

/** Placeholder text for the parts of a body the transcript does not record (UI highlights it). */
function notRecordedText(what: string): string {
  return `[not recorded: ${what}]`;
}

/**
 * The billing block (FM-CC-19 step 5): its suffix is derived from the wire messages
 * (./billing.ts); without a version or a user text it stays a "not recorded" placeholder.
 */
export function billingHeaderBlock(version: string | null, entrypoint: string | null, messages: readonly unknown[] = []): Record<string, unknown> {
  const versionText = version ?? notRecordedText("Claude Code version");
  const entrypointText = entrypoint ?? notRecordedText("entrypoint");
  const suffix = (version !== null ? billingSuffix(messages, version) : null) ?? notRecordedText("build suffix");
  const text = `x-anthropic-billing-header: cc_version=${versionText}.${suffix}; cc_entrypoint=${entrypointText};`;
  // One block per text: every turn until a compaction sends the same one, and the per-block work
  // downstream (segments, hashes) is kept by object.
  let block = billingBlocks.get(text);
  if (block === undefined) {
    block = { type: "text", text };
    if (billingBlocks.size >= BILLING_BLOCK_LIMIT) billingBlocks.clear();
    billingBlocks.set(text, block);
  }
  return block;
}

const billingBlocks = new Map<string, Record<string, unknown>>();
const BILLING_BLOCK_LIMIT = 64;

/** Device and account ids of `metadata.user_id`, learnt from a capture of the session. */
export interface ClaudeUserIds {
  deviceId: string;
  accountUuid: string;
}

/**
 * `metadata.user_id`: a JSON string with device, account and session ids. The session id is the
 * transcript's; device and account ids are not recorded there and come from a capture when given.
 * Every turn of a session sends the same one: a caller building turn after turn keeps it with the
 * session's other carried state (turns.ts), not here.
 */
export function metadataBlock(sessionId: string | null, ids: ClaudeUserIds | null = null): Record<string, unknown> {
  return {
    user_id: JSON.stringify({
      device_id: ids?.deviceId ?? notRecordedText("device id"),
      account_uuid: ids?.accountUuid ?? notRecordedText("account uuid"),
      session_id: sessionId ?? notRecordedText("session id"),
    }),
  };
}

const strippedCache = new WeakMap<object, unknown>();

/** `value` without any `cache_control` key at any depth; the same object when it has none. */
export function stripCacheControl<T>(value: T): T {
  if (typeof value !== "object" || value === null || isStoredText(value)) return value;
  const cached = strippedCache.get(value as object);
  if (cached !== undefined) return cached as T;
  // Most messages hold no marker: one look through them, no copies and no entry per part.
  if (!holdsCacheControl(value)) {
    strippedCache.set(value as object, value);
    return value;
  }
  let result: unknown = value;
  if (Array.isArray(value)) {
    const items = value.map((item) => stripCacheControl(item));
    if (items.some((item, i) => item !== value[i])) result = items;
  } else {
    const record = value as Record<string, unknown>;
    let changed = "cache_control" in record;
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(record)) {
      if (key === "cache_control") continue;
      const item = stripCacheControl(record[key]);
      if (item !== record[key]) changed = true;
      copy[key] = item;
    }
    if (changed) result = copy;
  }
  strippedCache.set(value as object, result);
  return result as T;
}

/** Whether `value` has a `cache_control` key at any depth (a stored text holds none). */
function holdsCacheControl(value: unknown): boolean {
  if (typeof value !== "object" || value === null || isStoredText(value)) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsCacheControl(item)) return true;
    return false;
  }
  if ("cache_control" in value) return true;
  for (const key of Object.keys(value)) if (holdsCacheControl((value as Record<string, unknown>)[key])) return true;
  return false;
}

const NONE_OWNED: ReadonlySet<object> = new Set();
const NO_HEAD: readonly (string | number)[] = [];

/**
 * Sets `cache_control` at `path` inside `root` (`["messages", 3, "content", 0]`), copying each
 * container on the way so shared objects stay untouched. A string content addressed by index is
 * first turned into its one-text-block form. `head`, when given, is walked before `path` (a
 * relative path resolved from a place). Returns false when the path does not resolve.
 */
export function setCacheControlAt(
  root: Record<string, unknown>,
  path: readonly (string | number)[],
  value: unknown,
  owned: ReadonlySet<object> = NONE_OWNED,
  head: readonly (string | number)[] = NO_HEAD,
): boolean {
  let container: unknown = root;
  const length = head.length + path.length;
  for (let i = 0; i < length; i++) {
    // `head` then `path`, without joining them into one list per call.
    const key = i < head.length ? head[i]! : path[i - head.length]!;
    let child: unknown;
    if (Array.isArray(container) && typeof key === "number") child = container[key];
    else if (isObject(container) && typeof key === "string") child = container[key];
    else return false;
    const nextKey = i + 1 < head.length ? head[i + 1] : path[i + 1 - head.length];
    if (isText(child) && key === "content" && typeof nextKey === "number") {
      child = [{ type: "text", text: child }];
    }
    // A text (a stored one is an object too) holds no marker.
    if (child === undefined || child === null || typeof child !== "object" || isStoredText(child)) return false;
    // A container the caller made for this body alone is changed in place.
    if (owned.has(child)) {
      container = child;
      continue;
    }
    const copy: unknown = Array.isArray(child) ? child.slice() : { ...(child as Record<string, unknown>) };
    if (Array.isArray(container)) container[key as number] = copy;
    else (container as Record<string, unknown>)[key as string] = copy;
    container = copy;
  }
  if (!isObject(container)) return false;
  container.cache_control = value;
  return true;
}

/**
 * FM-CC-19 step 4: a user or system message whose content is exactly one text block without a
 * cache marker goes out with a plain string content.
 */
export function normaliseSingleTextContent(message: Record<string, unknown>): Record<string, unknown> {
  // Made once per message object: the same message goes out with every later turn's request.
  let normalised = normalisedCache.get(message);
  if (normalised === undefined) {
    normalised = normalisedMessage(message);
    normalisedCache.set(message, normalised);
  }
  return normalised;
}

const normalisedCache = new WeakMap<object, Record<string, unknown>>();

function normalisedMessage(message: Record<string, unknown>): Record<string, unknown> {
  if (message.role !== "user" && message.role !== "system") return message;
  const content = message.content;
  if (!Array.isArray(content) || content.length !== 1) return message;
  const block = content[0];
  if (!isObject(block) || block.type !== "text" || !isText(block.text) || "cache_control" in block) return message;
  const keys = Object.keys(block);
  if (keys.some((key) => key !== "type" && key !== "text")) return message;
  return { ...message, content: block.text };
}

export interface WireParts {
  params: Record<string, unknown>;
  system: unknown;
  tools: unknown;
  messages: readonly Record<string, unknown>[];
  cacheControl: readonly { path: readonly (string | number)[]; value: unknown }[];
  billingBlock: Record<string, unknown> | null;
  metadata: Record<string, unknown>;
}

/** Per message, carried from turn to turn (a turn's body repeats the previous turn's messages). */
const strippedMessages = new CarriedMap<Record<string, unknown>, Record<string, unknown>>((message) => stripCacheControl(message));
const normalisedMessages = new CarriedMap(normaliseSingleTextContent);

/**
 * Each message as it goes out without a marker (`sentMessage`), made by a caller that carries them
 * from turn to turn; `firstMarked` is set to the index of the first message a marker changed (the
 * body's messages before it are those of the list), or the length when none did.
 */
export interface SentMessages {
  sent: readonly Record<string, unknown>[];
  firstMarked?: number;
  /**
   * The list the body's messages are set in (the sent forms, markers then set in place), when
   * the caller hands out lists of its own (a walk's two lists in turn); else a copy of `sent`.
   */
  bodyList?: () => Record<string, unknown>[];
  /** Told where the body's list first differs from `sent` (the first marked message). */
  markedFrom?: (index: number) => void;
}

/** A message as the body sends it when no marker is set in it: without cache markers, a lone text block as a string. */
export function sentMessage(message: Record<string, unknown>): Record<string, unknown> {
  return normaliseSingleTextContent(stripCacheControl(message));
}

type Marker = WireParts["cacheControl"][number];

/** What markers did to a part of the body: the marked part and, per marker, whether its path resolved. */
interface Marked<T> {
  /** The markers it was made with (paths relative to the part), compared before it is taken again. */
  markers: readonly Marker[];
  value: T;
  found: boolean[];
}

/**
 * Whether two marker lists mark alike: equal paths, and values that are the same object or render
 * the same JSON. Compared only when a marking is kept, so a turn whose marked message is new (the
 * last one, every turn) renders no key for it.
 */
function sameMarkers(a: readonly Marker[], b: readonly Marker[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.path.length !== y.path.length) return false;
    for (let j = 0; j < x.path.length; j++) if (x.path[j] !== y.path[j]) return false;
    if (x.value !== y.value && JSON.stringify(x.value) !== JSON.stringify(y.value)) return false;
  }
  return true;
}

/**
 * The last marking of each message, by its unmarked form: a message that keeps its markers from
 * one turn to the next goes out as the same object, so the per-message work downstream (segments,
 * hashes, measures, all kept by object) is done once for it.
 */
const markedMessageCache = new WeakMap<object, Marked<Record<string, unknown>>>();

/** `message` (unmarked) with the markers set at the paths relative to it, as it is sent. */
function markedMessage(message: Record<string, unknown>, markers: readonly Marker[]): Marked<Record<string, unknown>> {
  const kept = markedMessageCache.get(message);
  if (kept !== undefined && sameMarkers(kept.markers, markers)) return kept;
  const holder = [message];
  const owned = new Set<object>([holder]);
  const root = { messages: holder };
  const found: boolean[] = [];
  for (const marker of markers) found.push(setCacheControlAt(root, marker.path, marker.value, owned, MESSAGE_PATH_HEAD));
  const copy = holder[0]!;
  // A copy made here is this marking's own: its normal form is not kept by object (no later turn hands it in).
  const marked: Marked<Record<string, unknown>> = { markers, value: copy === message ? normaliseSingleTextContent(message) : normalisedMessage(copy), found };
  recordUnmarkedForms(marked.value, message);
  markedMessageCache.set(message, marked);
  return marked;
}

/** Where a message's relative marker paths are resolved: inside a one-message list (`["messages", 0, ...path]`). */
const MESSAGE_PATH_HEAD: readonly (string | number)[] = ["messages", 0];

/**
 * Tells the segment stage which objects of a marked message copy are the unmarked message's with
 * a marker set (the message as sent unmarked, its changed blocks), so that their facts are measured
 * once for both forms (prefix/canonical.ts).
 */
function recordUnmarkedForms(marked: Record<string, unknown>, message: Record<string, unknown>): void {
  if (marked === message) return;
  if (sameButMarkers(marked, message, "content")) recordUnmarkedForm(marked, sentMessage(message));
  const markedContent = marked.content;
  const content = message.content;
  if (!Array.isArray(markedContent) || !Array.isArray(content) || markedContent.length !== content.length) return;
  for (let i = 0; i < content.length; i++) {
    const block = markedContent[i] as unknown;
    const original = content[i] as unknown;
    // Only a block whose own marker is all that changed: a marker deeper in it changes its value.
    if (block !== original && isObject(block) && isObject(original) && sameButMarkers(block, original, null)) recordUnmarkedForm(block, original);
  }
}

const MARKER_KEY = "cache_control";

/** Whether `a` and `b` have the same keys in the same order with the same values, leaving out the marker and `except`. */
function sameButMarkers(a: Record<string, unknown>, b: Record<string, unknown>, except: string | null): boolean {
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < keysA.length && (keysA[i] === MARKER_KEY || keysA[i] === except)) i++;
    while (j < keysB.length && (keysB[j] === MARKER_KEY || keysB[j] === except)) j++;
    if (i === keysA.length || j === keysB.length) return i === keysA.length && j === keysB.length;
    const key = keysA[i]!;
    if (key !== keysB[j] || a[key] !== b[key]) return false;
    i++;
    j++;
  }
}

/** The last marking of each system and tools pair (a session's turns mostly share both and their markers). */
const markedStagedCache = new WeakMap<object, WeakMap<object, Marked<Record<string, unknown>>>>();

/**
 * System and tools (unmarked) with the markers that are not messages' set: `{ system, tools }`,
 * the same object while both and the markers are the same.
 */
function markedStaged(system: unknown, tools: unknown, markers: readonly Marker[]): Marked<Record<string, unknown>> {
  const cacheable = typeof system === "object" && system !== null && typeof tools === "object" && tools !== null;
  const bySystem = cacheable ? markedStagedCache.get(system) : undefined;
  const kept = cacheable ? bySystem?.get(tools) : undefined;
  if (kept !== undefined && sameMarkers(kept.markers, markers)) return kept;
  const staged: Record<string, unknown> = { system, tools };
  const found: boolean[] = [];
  for (const marker of markers) found.push(setCacheControlAt(staged, marker.path, marker.value));
  const marked: Marked<Record<string, unknown>> = { markers, value: staged, found };
  if (cacheable) {
    const tables = bySystem ?? new WeakMap<object, Marked<Record<string, unknown>>>();
    tables.set(tools, marked);
    if (!bySystem) markedStagedCache.set(system, tables);
  }
  return marked;
}

/** The markers of one message: paths relative to it, and each one's place in the body's marker list. */
interface MessageMarkers {
  at: number;
  markers: Marker[];
  places: number[];
}

/** No markers outside the messages (a record may set none there). */
const NO_MARKERS: readonly Marker[] = [];

/**
 * The body's messages from the sent forms (one copy), each marker set in its own copy of the one
 * message it names; a marker path that names no message is resolved on an empty list, as it
 * would be on the whole one (it is not found there either). Marked copies and the marked system
 * and tools are kept while what they are made of stays (`markedMessage`, `markedStaged`).
 */
function markedMessages(parts: WireParts, carried: SentMessages, warnings: string[]): { messages: Record<string, unknown>[]; staged: Record<string, unknown> } {
  const messages = carried.bodyList ? carried.bodyList() : carried.sent.slice();
  const markers = parts.cacheControl;
  const found: boolean[] = new Array<boolean>(markers.length).fill(false);
  // Markers by message, in the order their messages are first named (a request marks one to a few).
  const byMessage: MessageMarkers[] = [];
  let others: Marker[] | null = null;
  let othersAt: number[] | null = null;
  for (let i = 0; i < markers.length; i++) {
    const marker = markers[i]!;
    const path = marker.path;
    const head = path[0];
    const at = path[1];
    if (head === "messages" && typeof at === "number" && Number.isInteger(at) && at >= 0 && at < messages.length && path.length >= 2) {
      let group: MessageMarkers | undefined;
      for (const candidate of byMessage) if (candidate.at === at) group = candidate;
      if (group === undefined) {
        group = { at, markers: [], places: [] };
        byMessage.push(group);
      }
      group.markers.push({ path: path.slice(2), value: marker.value });
      group.places.push(i);
    } else if (head === "messages") found[i] = setCacheControlAt({ messages: [] }, path, marker.value);
    else {
      (others ??= []).push(marker);
      (othersAt ??= []).push(i);
    }
  }
  const staged = markedStaged(stripCacheControl(parts.system), stripCacheControl(parts.tools), others ?? NO_MARKERS);
  if (othersAt !== null) for (let j = 0; j < othersAt.length; j++) found[othersAt[j]!] = staged.found[j]!;
  let firstMarked = messages.length;
  for (const group of byMessage) {
    const at = group.at;
    const marked = markedMessage(stripCacheControl(parts.messages[at]!), group.markers);
    for (let j = 0; j < group.places.length; j++) found[group.places[j]!] = marked.found[j]!;
    messages[at] = marked.value;
    if (messages[at] !== carried.sent[at]) firstMarked = Math.min(firstMarked, at);
  }
  carried.firstMarked = firstMarked;
  carried.markedFrom?.(firstMarked);
  for (let i = 0; i < markers.length; i++) {
    if (!found[i]) warnings.push(`cache marker path ${JSON.stringify(markers[i]!.path)} not found`);
  }
  return { messages, staged: staged.value };
}

/** The last system list made with a billing block: every turn until a compaction sends the same one. */
let lastSystem: { billingBlock: Record<string, unknown>; system: unknown; list: unknown[] } | null = null;

/** `system` with the billing block first (a list: a lone block or none is one or no item). */
function withBillingBlock(billingBlock: Record<string, unknown>, system: unknown): unknown[] {
  const last = lastSystem;
  if (last !== null && last.billingBlock === billingBlock && last.system === system && typeof system === "object" && system !== null) return last.list;
  const list = [billingBlock, ...(Array.isArray(system) ? system : system === undefined ? [] : [system])];
  lastSystem = { billingBlock, system, list };
  return list;
}

/**
 * The request body in Claude Code's key order; `warnings` collects unresolvable marker paths.
 * With `carried`, the messages are taken from their sent forms (a caller's carried list).
 */
export function assembleClaudeBody(parts: WireParts, warnings: string[], carried?: SentMessages): Record<string, unknown> {
  let messages: Record<string, unknown>[];
  let staged: Record<string, unknown>;
  if (carried) ({ messages, staged } = markedMessages(parts, carried, warnings));
  else {
    // A new array (the map's copy): the markers are set in it without copying it again.
    const stripped = strippedMessages.map(parts.messages);
    staged = { system: stripCacheControl(parts.system), tools: stripCacheControl(parts.tools), messages: stripped };
    const owned = new Set<object>([stripped]);
    for (const marker of parts.cacheControl) {
      if (!setCacheControlAt(staged, marker.path, marker.value, owned)) warnings.push(`cache marker path ${JSON.stringify(marker.path)} not found`);
    }
    messages = normalisedMessages.map(staged.messages as Record<string, unknown>[]);
  }
  let system = staged.system;
  if (parts.billingBlock) system = withBillingBlock(parts.billingBlock, system);

  const values: Record<string, unknown> = {
    model: parts.params.model,
    messages,
    system,
    tools: staged.tools,
    metadata: parts.metadata,
    stream: true,
  };
  for (const key of Object.keys(parts.params)) {
    if (HEADER_PARAMS.has(key) || key === "model") continue;
    values[key] = parts.params[key];
  }
  const body: Record<string, unknown> = {};
  for (const key of CLAUDE_BODY_KEY_ORDER) {
    if (key === "stream") continue;
    if (values[key] !== undefined) body[key] = values[key];
  }
  // Parameters not seen in the recorded version go before `stream`, in record order. [INF]
  for (const key of Object.keys(values)) {
    if (!(key in body) && key !== "stream" && values[key] !== undefined) body[key] = values[key];
  }
  body.stream = values.stream;
  return body;
}
