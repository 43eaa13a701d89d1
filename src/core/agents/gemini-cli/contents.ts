// From the folded message list to the `contents` Gemini CLI sends (docs/formats/gemini-cli.md),
// each step after the CLI's own (google-gemini/gemini-cli, commit in the docs):
//  1. messages → contents: `user` content is Gemini parts (a string becomes one text part);
//     a `gemini` message whose content holds functionCall or thought parts is sent as it is,
//     otherwise it is rebuilt from its text and `toolCalls` (functionCall {id, name, args});
//     when no recorded functionResponse message follows such a message (the older files), its
//     `toolCalls[].result` become the user content after it, as a resume rebuilds them
//     (`convertSessionToClientHistory`, packages/core/src/utils/sessionUtils.ts); `info`, `error`
//     and `warning` records are never sent;
//  2. the curated history: a run of model contents with an invalid one (no parts, an empty part,
//     an empty text) is left out (`extractCuratedHistory`, packages/core/src/core/geminiChat.ts);
//  3. thought parts are dropped, the first functionCall of such a model content getting the
//     synthetic signature (`stripThoughts`); consecutive contents of one role are merged into one
//     (`coalesceConsecutiveRoles`);
//  4. main requests only: the first functionCall of each model content after the last user
//     prompt gets `thoughtSignature: "skip_thought_signature_validator"`
//     (`ensureActiveLoopHasThoughtSignatures`), and tool-call ids lose their `<tool>__` prefix
//     (`stripToolCallIdPrefixes`). Compression requests send the curated history with the stored ids.
// Every content remembers the messages it came from and why parts were added, for the Messages tab.
import { isObject } from "../../util/is-object";
import { isText } from "../../text/text";
import { historyLineage, type HistoryMessage } from "./history";

export type Part = Record<string, unknown>;

/** One wire content with where it came from. */
export interface SourcedContent {
  role: "user" | "model";
  parts: Part[];
  /** The messages merged into it, in order (an id ending in `_response`: results rebuilt from tool calls). */
  sources: HistoryMessage[];
  /** The session entries of those messages. */
  entryIds: string[];
  /** What the CLI added or changed on the way, for the provenance shown to the user. */
  notes: string[];
}

const SYNTHETIC_THOUGHT_SIGNATURE = "skip_thought_signature_validator";

function toPartArray(content: unknown): Part[] {
  // A large text may be kept as bytes (storedTextPlaces.ts): it is carried as it is.
  if (isText(content)) return [{ text: content }];
  if (Array.isArray(content)) return content.map((part) => (typeof part === "string" ? { text: part } : isObject(part) ? part : { text: String(part) }));
  return isObject(content) ? [content] : [];
}

function hasFunctionResponse(message: HistoryMessage | undefined): boolean {
  return message !== undefined && message.type === "user" && toPartArray(message.record.content).some((part) => isObject(part.functionResponse));
}

function toolCallsOf(record: Record<string, unknown>): Record<string, unknown>[] {
  return Array.isArray(record.toolCalls) ? record.toolCalls.filter(isObject) : [];
}

/** The parts of the results recorded on a message's tool calls (a resume's synthetic response). */
function toolResultParts(record: Record<string, unknown>): Part[] {
  const parts: Part[] = [];
  for (const call of toolCallsOf(record)) {
    const result = call.result;
    if (result === undefined || result === null || result === "") continue;
    if (isText(result)) parts.push({ functionResponse: { id: call.id, name: call.name, response: { output: result } } });
    else if (Array.isArray(result)) parts.push(...toPartArray(result));
    else if (isObject(result)) parts.push(result);
  }
  return parts;
}

function modelParts(record: Record<string, unknown>): Part[] {
  const contentParts = record.content ? toPartArray(record.content) : [];
  if (contentParts.some((part) => isObject(part.functionCall) || part.thought === true)) return contentParts;
  const parts = [...contentParts];
  for (const call of toolCallsOf(record)) parts.push({ functionCall: { id: call.id, name: call.name, args: call.args } });
  return parts;
}

/** The parts one message is sent as (before merging), or [] for a message never sent. */
export function messageParts(message: HistoryMessage): Part[] {
  if (message.type === "user") return toPartArray(message.record.content);
  return message.type === "gemini" ? modelParts(message.record) : [];
}

/** The results message rebuilt from an answer's tool calls, made once per answer record (null: it records none). */
const syntheticByRecord = new WeakMap<Record<string, unknown>, HistoryMessage | null>();

function syntheticResults(message: HistoryMessage): HistoryMessage | null {
  let synthetic = syntheticByRecord.get(message.record);
  if (synthetic === undefined) {
    const results = toolResultParts(message.record);
    synthetic = results.length > 0 ? { id: `${message.id}_response`, type: "user", record: { id: `${message.id}_response`, type: "user", content: results }, entryId: message.entryId } : null;
    syntheticByRecord.set(message.record, synthetic);
  }
  return synthetic;
}

/**
 * Step 1: one content per sent message, in order. `lastCallsPending`: the list ends with an answer
 * whose tool calls have not been answered yet (the history a compression reads before sending the
 * results), so no results are rebuilt for it.
 */
function messageContents(messages: readonly HistoryMessage[], lastCallsPending: boolean): SourcedContent[] {
  const out: SourcedContent[] = [];
  const sent = messages.filter((m) => m.type === "user" || m.type === "gemini");
  sent.forEach((message, i) => {
    if (message.type === "user") {
      out.push({ role: "user", parts: toPartArray(message.record.content), sources: [message], entryIds: [message.entryId], notes: [] });
      return;
    }
    const parts = modelParts(message.record);
    if (parts.length === 0) return;
    out.push({ role: "model", parts, sources: [message], entryIds: [message.entryId], notes: [] });
    const pending = lastCallsPending && i === sent.length - 1;
    if (!pending && toolCallsOf(message.record).length > 0 && !hasFunctionResponse(sent[i + 1])) {
      const synthetic = syntheticResults(message);
      if (synthetic) {
        const results = synthetic.record.content as Part[];
        out.push({ role: "user", parts: results, sources: [synthetic], entryIds: [message.entryId], notes: ["tool results rebuilt from the answer's toolCalls (no recorded functionResponse message follows it)"] });
      }
    }
  });
  return out;
}

function isValidContent(content: SourcedContent): boolean {
  if (content.role === "model" && content.parts.length === 0) return true;
  if (content.parts.length === 0) return false;
  for (const part of content.parts) {
    if (Object.keys(part).length === 0) return false;
    const payload = Object.keys(part).some((key) => key !== "text" && key !== "thought" && key !== "callIndex");
    if (part.thought !== true && part.text === "" && !payload) return false;
  }
  return true;
}

/** Step 2: model runs holding an invalid content are left out. */
function curated(contents: readonly SourcedContent[]): SourcedContent[] {
  const out: SourcedContent[] = [];
  let i = 0;
  while (i < contents.length) {
    if (contents[i]!.role === "user") {
      out.push(contents[i]!);
      i++;
      continue;
    }
    const run: SourcedContent[] = [];
    while (i < contents.length && contents[i]!.role === "model") run.push(contents[i++]!);
    if (run.every(isValidContent)) out.push(...run);
  }
  return out;
}

/** Step 3a: thought parts out; the first call of such a model content signed. */
function withoutThoughts(content: SourcedContent): SourcedContent | null {
  if (!content.parts.some((part) => part.thought === true)) return content;
  let signed = false;
  const parts = content.parts
    .filter((part) => part.thought !== true)
    .map((part) => {
      if (content.role !== "model" || signed || !isObject(part.functionCall)) return part;
      signed = true;
      return part.thoughtSignature ? part : { ...part, thoughtSignature: SYNTHETIC_THOUGHT_SIGNATURE };
    });
  if (parts.length === 0) return null;
  return { ...content, parts, notes: [...content.notes, "thought parts are not sent again"] };
}

/** Step 3b: consecutive contents of one role become one. */
function coalesced(contents: readonly SourcedContent[]): SourcedContent[] {
  const out: SourcedContent[] = [];
  for (const content of contents) {
    const last = out[out.length - 1];
    if (last && last.role === content.role) {
      out[out.length - 1] = {
        role: last.role,
        parts: [...last.parts, ...content.parts],
        sources: [...last.sources, ...content.sources],
        entryIds: [...last.entryIds, ...content.entryIds],
        notes: [...last.notes, ...content.notes, "consecutive messages of one role merged into one content"],
      };
    } else out.push(content);
  }
  return out;
}

/** The curated, coalesced history: what a compression request sends (stored ids). */
export function curatedContents(messages: readonly HistoryMessage[], lastCallsPending = false): SourcedContent[] {
  return coalesced(
    curated(messageContents(messages, lastCallsPending))
      .map(withoutThoughts)
      .filter((c): c is SourcedContent => c !== null),
  );
}

/** A tool-call id without its `<tool>__` prefix, or null when it has none. */
function strippedId(id: unknown, name: unknown): string | null {
  if (typeof id !== "string") return null;
  const tool = (typeof name === "string" ? name.trim() : "") || "generic_tool";
  return id.startsWith(`${tool}__`) ? id.slice(tool.length + 2) : null;
}

/** Step 4b on one part; the SDK writes functionCall as {id, args, name}. */
function wirePart(part: Part, stripIds: boolean): Part {
  // A part with neither (a text, inline data) is sent as the file holds it: the same object, not
  // a copy of every part of the chat kept beside the file's.
  if (!("functionCall" in part) && !("functionResponse" in part)) return part;
  const out: Part = {};
  for (const [key, value] of Object.entries(part)) {
    if (key === "functionCall" && isObject(value)) {
      const id = (stripIds ? strippedId(value.id, value.name) : null) ?? value.id;
      const call: Part = {};
      if (id !== undefined) call.id = id;
      if (value.args !== undefined) call.args = value.args;
      if (value.name !== undefined) call.name = value.name;
      for (const [k, v] of Object.entries(value)) if (!(k in call)) call[k] = v;
      out.functionCall = call;
    } else if (key === "functionResponse" && isObject(value) && stripIds && strippedId(value.id, value.name) !== null) {
      out.functionResponse = { name: value.name, response: value.response, id: strippedId(value.id, value.name) };
    } else out[key] = value;
  }
  return out;
}

/** A user content with text and no function response: a prompt, where a turn's active loop starts. */
function isPrompt(content: { role: string; parts: Part[] }): boolean {
  return content.role === "user" && content.parts.some((part) => isText(part.text) && part.text !== "") && !content.parts.some((part) => isObject(part.functionResponse));
}

/** Index of the last user content with text and no function response: where the current turn starts. */
function activeLoopStart(contents: readonly { role: string; parts: Part[] }[]): number {
  for (let i = contents.length - 1; i >= 0; i--) if (isPrompt(contents[i]!)) return i;
  return -1;
}

/**
 * A content made for a history's requests, found again by what it is made of (`sameMaking`):
 * turn N+1's request is made of turn N's content objects and a few new ones, so the work
 * downstream (segments, hashes, views, sizes, all cached per object) is done once per content.
 */
interface InternedContent {
  wire: { parts: Part[]; role: string };
  sourced: SourcedContent;
  /** Whether step 4 signed its first function call (in the active loop, and unsigned in the file). */
  signed: boolean;
}

/**
 * The interned contents of a history, by the first message each was made of: a message is the
 * same object in every turn's history (a rewritten one is a new object), so a content is looked
 * up among the few made from its first message and compared by identity, with no key to build.
 */
type InternedContents = Map<HistoryMessage, InternedContent[]>;

/**
 * Whether `known` is made of what `content` is: the same role, the same messages (by identity,
 * with their records) and the same notes. Two such contents have the same parts before step 4
 * (and the same wire contents when signed alike).
 */
function sameMaking(known: InternedContent, content: SourcedContent): boolean {
  const made = known.sourced;
  if (made.role !== content.role) return false;
  if (made.sources.length !== content.sources.length || made.notes.length !== content.notes.length) return false;
  for (let i = 0; i < content.sources.length; i++) {
    const message = content.sources[i]!;
    if (made.sources[i] !== message || made.sources[i]!.record !== message.record) return false;
  }
  for (let i = 0; i < content.notes.length; i++) if (made.notes[i] !== content.notes[i]) return false;
  return true;
}

type WireContent = { parts: Part[]; role: string };

/** The `contents` of a main request (step 4 applied), with the sources of each content. */
export function mainRequestContents(messages: readonly HistoryMessage[]): { wire: WireContent[]; sourced: SourcedContent[] } {
  const sourced = curatedContents(messages);
  const wire: WireContent[] = [];
  signedContents(sourced, 0, activeLoopStart(sourced), undefined, wire);
  return { wire, sourced };
}

/**
 * Where the contents of a history list's requests stop changing. Checkpoint `k`: the list's first
 * `ends[k]` messages make its first `counts[k]` contents (`sourced`, `wire`) in every longer
 * request — those messages end with a user message and are followed by the model content of
 * message `ends[k]`, all before the last user prompt (so never signed as part of the active loop).
 * Each checkpoint's contents extend the one before, so one pair of lists holds them all.
 */
interface ContentsCheckpoints {
  ends: number[];
  counts: number[];
  sourced: SourcedContent[];
  wire: WireContent[];
  /**
   * How many checkpoints are this list's: the arrays may hold more, another list's (a copied
   * history shares its parent's arrays, and whichever grows first extends them in place; the other
   * then copies its part before it grows).
   */
  size: number;
}


/** Index of the last checkpoint at or before `length`, or -1. */
function checkpointBefore(checkpoints: ContentsCheckpoints, length: number): number {
  let low = 0;
  let high = checkpoints.size - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (checkpoints.ends[middle]! <= length) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/**
 * The contents of the last request made for one history list, kept and brought to the next
 * request's: its first `fromCheckpoints` items are the checkpoints' (the same objects), so a
 * request that starts from a checkpoint at or after them keeps them as they are.
 */
interface RequestCarry {
  wire: WireContent[];
  sourced: SourcedContent[];
  fromCheckpoints: number;
  /** The checkpoints `fromCheckpoints` counts (the carry serves every list copied from one another). */
  owner: ContentsCheckpoints | null;
  /** Requests made from the carry so far: a caller keeping lists beside it knows whether it saw the previous one. */
  calls: number;
  /** Where the next request of the same messages and more may go on from the lists as they are (`LoopHead`), or null. */
  loop: LoopHead | null;
}

/**
 * The lists of the carry's last request (number `call`) as the head of the next one's: they are
 * the contents of the first `end` messages of `history`, which end with a user message, made with
 * the active loop starting at content `start`. A request of those messages and more, a model
 * content first, sends the same head (steps 1 to 3 treat the two sides on their own, as at a
 * checkpoint, and step 4 signs from the same prompt): only its new messages go through the steps,
 * not the whole loop since the prompt again, turn after turn. When the more hold a new prompt,
 * only the head's model contents from `start` change: they leave the active loop, unsigned.
 */
interface LoopHead {
  history: readonly HistoryMessage[];
  end: number;
  count: number;
  start: number;
  call: number;
}


/** A request's contents as the carry's own lists (valid until the next request of the same history: read them or copy them). */
export interface HistoryContents {
  wire: readonly WireContent[];
  sourced: readonly SourcedContent[];
  /** How many leading items are the ones the previous request of this history had (the same objects). */
  kept: number;
  /** The carry's request number (`kept` is against request `call - 1`). */
  call: number;
  /** The carry these lists belong to (it moves to a list copied from this one): what a caller keeps beside the lists is keyed by it. */
  carry: object;
}

/** What is kept for one history list: its interned contents, checkpoints and request carry. */
interface HistoryState {
  interned: InternedContents;
  checkpoints: ContentsCheckpoints;
  carry: RequestCarry;
  /** The checkpoints of the list this one was copied from, and how many leading contents of theirs this list's has too. */
  parent: ContentsCheckpoints | null;
  fromParent: number;
}

const statesByHistory = new WeakMap<object, HistoryState>();

/**
 * The state of a history list. A list the fold copied from another (a message replaced in place,
 * a rewind: history.ts `historyLineage`) starts from that list's: the contents are interned by
 * what they are made of, so the same map serves both; the checkpoints within the messages they
 * share hold as they are (the same arrays until one of them grows); the request carry is the
 * same object, so a request of the copy is compared with the parent's last one. Without that, a
 * chat whose answers are rewritten every turn would fold its whole history again for every request.
 */
function historyState(history: readonly HistoryMessage[]): HistoryState {
  let state = statesByHistory.get(history);
  if (state) return state;
  const lineage = historyLineage(history);
  const from = lineage ? statesByHistory.get(lineage.parent) : undefined;
  if (lineage && from) {
    const old = from.checkpoints;
    let keep = old.size;
    while (keep > 0 && old.ends[keep - 1]! > lineage.shared) keep--;
    const count = keep > 0 ? old.counts[keep - 1]! : 0;
    const checkpoints = { ends: old.ends, counts: old.counts, sourced: old.sourced, wire: old.wire, size: keep };
    state = { interned: from.interned, checkpoints, carry: from.carry, parent: old, fromParent: count };
  } else {
    const checkpoints = { ends: [], counts: [], sourced: [], wire: [], size: 0 };
    state = { interned: new Map(), checkpoints, carry: { wire: [], sourced: [], fromCheckpoints: 0, owner: checkpoints, calls: 0, loop: null }, parent: null, fromParent: 0 };
  }
  statesByHistory.set(history, state);
  return state;
}

/**
 * How many of the carry's leading items are sure to be `state`'s checkpoints' (the same objects):
 * all it counts when they are its own checkpoints, those the two lists share when the carry's
 * last request was the parent's or a direct copy's, else none.
 */
function carriedCheckpoints(state: HistoryState, carry: RequestCarry): number {
  const owner = carry.owner;
  if (owner === state.checkpoints) return carry.fromCheckpoints;
  if (owner !== null && owner === state.parent) return Math.min(carry.fromCheckpoints, state.fromParent);
  return 0;
}

/**
 * `mainRequestContents` of the first `length` messages of `history` (a list that only grows past
 * what earlier turns read), computed from the last checkpoint before `length`: the contents before
 * it are taken as they are and only the messages after it go through the steps, so a chat's
 * requests cost their new messages, not their whole history. The lists are the ones the previous
 * request of the same history was given, cut back to what stays and extended: nothing is copied.
 *
 * Why the split holds: with the checkpoint's messages ending with a user message, steps 1 and 2
 * treat the messages after it on their own (no answer there waits for the message after it, no
 * model run spans it); step 3's merge cannot join the two sides while the first content after it
 * is a model content (checked on every call; the whole list is folded again when it is not).
 */
export function historyRequestContents(history: readonly HistoryMessage[], length: number): HistoryContents {
  const state = historyState(history);
  const { interned, checkpoints, carry } = state;
  const fromLoop = loopRequestContents(state, history, length);
  if (fromLoop) return fromLoop;
  let at = checkpointBefore(checkpoints, length);
  const end = at >= 0 ? checkpoints.ends[at]! : 0;
  let count = at >= 0 ? checkpoints.counts[at]! : 0;
  let tail: SourcedContent[] | null = curatedContents(history.slice(end, length));
  let start = -1;
  if (at >= 0 && tail.length > 0 && tail[0]!.role !== "model") tail = null;
  else {
    // The last prompt, in the tail or else the checkpoint's last content: the checkpoint's contents
    // are taken unsigned, so none may come after this request's last prompt.
    const inTail = activeLoopStart(tail);
    if (inTail >= 0) start = count + inTail;
    else if (count > 0) {
      if (isPrompt(checkpoints.sourced[count - 1]!)) start = count - 1;
      else tail = null;
    }
  }
  if (tail === null) {
    at = -1;
    count = 0;
    tail = curatedContents(history.slice(0, length));
    start = activeLoopStart(tail);
  }
  const signed: WireContent[] = [];
  signedContents(tail, count, start, interned, signed);
  const wire = carry.wire;
  const sourced = carry.sourced;
  const before = wire.length;
  // The carry's first `fromCheckpoints` items are the checkpoints' (which only grow): they stay.
  let kept = Math.min(count, carriedCheckpoints(state, carry), before);
  const place = (i: number, made: WireContent, source: SourcedContent) => {
    if (i === kept && i < before && wire[i] === made && sourced[i] === source) {
      kept++;
      return;
    }
    wire[i] = made;
    sourced[i] = source;
  };
  for (let i = kept; i < count; i++) place(i, checkpoints.wire[i]!, checkpoints.sourced[i]!);
  for (let i = 0; i < tail.length; i++) place(count + i, signed[i]!, tail[i]!);
  // Cut only: growing an array through its length gives it no room to grow, so every request
  // would copy the whole list again (place() appends at the end instead).
  if (wire.length > count + tail.length) wire.length = count + tail.length;
  if (sourced.length > count + tail.length) sourced.length = count + tail.length;
  carry.fromCheckpoints = count;
  carry.owner = checkpoints;
  // Only the newest checkpoint moves on (an earlier one's successors are already known).
  if (at === checkpoints.size - 1) {
    const advanced = advance(checkpoints, history, at >= 0 ? end : 0, count, sourced, wire, start, length);
    if (advanced > count) carry.fromCheckpoints = advanced;
  }
  carry.calls += 1;
  carry.loop = loopHead(history, length, sourced, start, carry.calls);
  return { wire, sourced, kept, call: carry.calls, carry };
}

/** Whether the first `end` messages of `history` are those of `other` (the same list, or a copy of it that kept them). */
function sharesHead(history: readonly HistoryMessage[], other: readonly HistoryMessage[], end: number): boolean {
  if (history === other) return true;
  const lineage = historyLineage(history);
  return lineage !== undefined && lineage.parent === other && lineage.shared >= end;
}

/** The carry's lists of a request of `history`'s first `length` messages as the head of the next request, when they can be one. */
function loopHead(history: readonly HistoryMessage[], length: number, sourced: readonly SourcedContent[], start: number, call: number): LoopHead | null {
  const count = sourced.length;
  if (start < 0 || count === 0 || sourced[count - 1]!.role !== "user" || history[length - 1]?.type !== "user") return null;
  return { history, end: length, count, start, call };
}

/**
 * `historyRequestContents` from the carry's last request (`RequestCarry.loop`) when this request
 * goes on from its messages: its head kept as it is (its active loop unsigned when a new prompt
 * ends it), its new messages through the steps; null when it cannot (another request came
 * between, the head's messages changed, the new messages do not start with a model content).
 */
function loopRequestContents(state: HistoryState, history: readonly HistoryMessage[], length: number): HistoryContents | null {
  const { carry, interned } = state;
  const loop = carry.loop;
  if (!loop || loop.call !== carry.calls || length <= loop.end || !sharesHead(history, loop.history, loop.end)) return null;
  const tail = curatedContents(history.slice(loop.end, length));
  if (tail.length === 0 || tail[0]!.role !== "model") return null;
  const { wire, sourced } = carry;
  let kept = loop.count;
  // A new prompt among the new messages ends the loop: its model contents leave the active loop
  // and are sent unsigned (the same content when signing changed nothing, as in a chat of prompts
  // and answers); the new loop starts at the prompt.
  const prompt = activeLoopStart(tail);
  const start = prompt >= 0 ? loop.count + prompt : loop.start;
  if (prompt >= 0) {
    const unsigned: WireContent[] = [];
    for (let at = loop.start; at < loop.count; at++) {
      if (sourced[at]!.role !== "model") continue;
      unsigned.length = 0;
      signedContents([sourced[at]!], at, -1, interned, unsigned);
      if (wire[at] === unsigned[0]) continue;
      wire[at] = unsigned[0]!;
      kept = Math.min(kept, at);
    }
  }
  const signed: WireContent[] = [];
  signedContents(tail, loop.count, start, interned, signed);
  const before = wire.length;
  for (let i = 0; i < tail.length; i++) {
    const at = loop.count + i;
    if (at === kept && at < before && wire[at] === signed[i] && sourced[at] === tail[i]) {
      kept++;
      continue;
    }
    wire[at] = signed[i]!;
    sourced[at] = tail[i]!;
  }
  if (wire.length > loop.count + tail.length) wire.length = loop.count + tail.length;
  if (sourced.length > loop.count + tail.length) sourced.length = loop.count + tail.length;
  carry.calls += 1;
  carry.loop = loopHead(history, length, sourced, start, carry.calls);
  return { wire, sourced, kept, call: carry.calls, carry };
}

/**
 * Adds the checkpoint at the last model content after a user message, up to the content after the
 * last prompt; returns its content count (the lists' items before it are now the checkpoints'), or -1.
 */
function advance(checkpoints: ContentsCheckpoints, history: readonly HistoryMessage[], end: number, count: number, sourced: readonly SourcedContent[], wire: readonly WireContent[], start: number, length: number): number {
  for (let j = Math.min(start + 1, sourced.length - 1); j > count && j >= 1; j--) {
    const content = sourced[j]!;
    if (content.role !== "model" || sourced[j - 1]!.role !== "user") continue;
    const first = content.sources[0];
    let at = end;
    while (at < length && history[at] !== first) at++;
    if (at >= length || at === 0 || history[at - 1]!.type !== "user") continue;
    if (checkpoints.ends.length !== checkpoints.size || checkpoints.sourced.length !== count) {
      // Another list grew the shared arrays past this list's part: this list copies its part.
      checkpoints.ends = checkpoints.ends.slice(0, checkpoints.size);
      checkpoints.counts = checkpoints.counts.slice(0, checkpoints.size);
      checkpoints.sourced = checkpoints.sourced.slice(0, count);
      checkpoints.wire = checkpoints.wire.slice(0, count);
    }
    for (let i = count; i < j; i++) {
      checkpoints.sourced.push(sourced[i]!);
      checkpoints.wire.push(wire[i]!);
    }
    checkpoints.ends.push(at);
    checkpoints.counts.push(j);
    checkpoints.size += 1;
    return j;
  }
  return -1;
}

/**
 * Step 4 on `sourced`, the request's contents from index `offset` on: each content signed when in
 * the active loop (from content `start` of the request), interned by what it is made of, pushed to `wire`.
 */
function signedContents(sourced: SourcedContent[], offset: number, start: number, interned: InternedContents | undefined, wire: WireContent[]): void {
  for (let i = 0; i < sourced.length; i++) {
    const content = sourced[i]!;
    const activeLoop = start >= 0 && offset + i >= start && content.role === "model";
    // Signing changes only a content whose first function call has no signature of its own: any
    // other is the same wire content in the active loop and after it.
    const signs = activeLoop && firstCallUnsigned(content.parts);
    const first = content.sources[0];
    const candidates = interned && first ? interned.get(first) : undefined;
    let known: InternedContent | undefined;
    // The same content signed the other way: its sourced content (and so its context message) is this one's too.
    let sibling: InternedContent | undefined;
    if (candidates) {
      for (const candidate of candidates) {
        if (!sameMaking(candidate, content)) continue;
        if (candidate.signed === signs) {
          known = candidate;
          break;
        }
        sibling ??= candidate;
      }
    }
    if (known) {
      sourced[i] = known.sourced;
      wire.push(known.wire);
      continue;
    }
    if (sibling) sourced[i] = sibling.sourced;
    let signed = !signs;
    const parts = content.parts.map((part) => {
      const sent = wirePart(part, true);
      if (signed || !isObject(part.functionCall)) return sent;
      signed = true;
      return sent.thoughtSignature ? sent : { ...sent, thoughtSignature: SYNTHETIC_THOUGHT_SIGNATURE };
    });
    const made = { parts, role: content.role };
    if (interned && first) {
      const entry = { wire: made, sourced: sourced[i]!, signed: signs };
      if (candidates) candidates.push(entry);
      else interned.set(first, [entry]);
    }
    wire.push(made);
  }
}

/** Whether the first function call among `parts` has no `thoughtSignature` (step 4 would sign it). */
function firstCallUnsigned(parts: readonly Part[]): boolean {
  for (const part of parts) if (isObject(part.functionCall)) return !part.thoughtSignature;
  return false;
}

/** The `contents` of a compression request's history: the curated history with the stored ids. */
export function compressionContents(messages: readonly HistoryMessage[], lastCallsPending: boolean): { parts: Part[]; role: string }[] {
  return curatedContents(messages, lastCallsPending).map((content) => ({ parts: content.parts.map((part) => wirePart(part, false)), role: content.role }));
}
