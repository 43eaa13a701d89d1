// A serializer's wire list carried from one request to the next (design §3 "never quadratic"): in
// a session walk, turn N+1's prepared messages are turn N's objects followed by a few new ones, so
// the wire items made for the shared messages are kept and only the rest are converted. The list
// is built in steps (one message, or a run of tool results that becomes one wire message); the
// step holding the last shared message is made again, since a run can grow with the next turn.
// The head items (a system message) live at the start of the carried list itself, so a request's
// list is one copy of it; that copy records how much it shares with the previous request's list
// (list-lineage.ts), so the prefix analysis need not compare the two again.
import type { AssistantMessage, LlmMessage, UserMessage } from "../model";
import { recordSharedHead } from "../util/list-lineage";
import { AlternatingLists } from "./alternating-lists";
import type { WireCache } from "./wire-cache";

/**
 * One step: converts the message at `start` (and the ones it takes with it) into `wire`, returns
 * the index of the next message to convert. It may read `wire` but only append to it, and must
 * give the same items for the same messages every time. `carried.counter` is a number the steps
 * keep (the Responses shape's message index), restored with the steps that are kept.
 */
type WireStep<W> = (list: readonly LlmMessage[], start: number, wire: W[], carried: CarriedWire<W>) => number;

export interface CarriedBuild<W> {
  /** Items before the messages' (a system message), the same objects while they do not change. */
  head?: readonly W[];
  /** `list` only ever grows at its end (TransformResult.growing). */
  growing?: boolean;
  /**
   * Applies the request's own last touches to the copy (a breakpoint on the final message, a
   * trailing item) and returns how many leading items it left as they were.
   */
  finish?: (list: W[]) => number;
  /**
   * The walk whose reader keeps no request past the turn after (SerializeInput.reuseWalk): the
   * list is one of two handed out in turn (alternating-lists.ts), not a new copy.
   */
  reuseWalk?: object;
}

export class CarriedWire<W> {
  private config: string | null = null;
  private sources: LlmMessage[] = [];
  /** The list last built from when it was a growing one (TransformResult.growing). */
  private growingList: readonly LlmMessage[] | null = null;
  /** The head items, then the messages' items. */
  private wire: W[] = [];
  private headLength = 0;
  /** Per step: the index of its first message and the wire length before it. */
  private stepStarts: number[] = [];
  private stepWire: number[] = [];
  private stepCounter: number[] = [];
  /** The list the previous build returned, and how many of its leading items its finish left alone. */
  private lastBuilt: readonly W[] | null = null;
  private lastUntouched = 0;
  /** The two lists a walk that allows it is handed in turn. */
  private handOut = new AlternatingLists<W>();
  /** A number the steps keep from one to the next (see WireStep). */
  counter = 0;

  /**
   * The head items then the wire items of `list` under `config` (what else the steps read), as a
   * new array that the caller owns (one copy of the carried list, then `finish`), or with
   * `reuseWalk` one of the two lists that walk is handed in turn. `growing`:
   * `list` only ever grows at its end, so when it is the same array as last time, the messages
   * already converted are still its first ones.
   */
  build(config: string, list: readonly LlmMessage[], step: WireStep<W>, options: CarriedBuild<W> = {}): W[] {
    const head = options.head ?? [];
    let shared = 0;
    const sameHead = this.sameHead(head);
    if (this.config !== config || !sameHead) {
      this.config = config;
      this.setHead(head);
    } else if (options.growing === true && list === this.growingList && this.sources.length <= list.length) {
      shared = this.sources.length;
    } else {
      const known = Math.min(this.sources.length, list.length);
      while (shared < known && this.sources[shared] === list[shared]) shared++;
    }
    this.growingList = options.growing === true ? list : null;
    // Keep the steps before the one that holds the last shared message; make that one again.
    let keep = this.stepStarts.length - 1;
    while (keep > 0 && this.stepStarts[keep]! > shared - 1) keep--;
    if (shared === 0 || keep < 0) keep = 0;
    const from = keep < this.stepStarts.length ? this.stepStarts[keep]! : 0;
    if (keep < this.stepStarts.length) {
      this.wire.length = this.stepWire[keep]!;
      this.counter = this.stepCounter[keep]!;
    } else {
      this.wire.length = this.headLength;
      this.counter = 0;
    }
    this.handOut.cut(this.wire.length);
    // The wire items the previous list had as well (a new head is new items).
    const kept = sameHead ? this.wire.length : 0;
    this.stepStarts.length = keep;
    this.stepWire.length = keep;
    this.stepCounter.length = keep;
    this.sources.length = from;
    for (let i = from; i < list.length; ) {
      this.stepStarts.push(i);
      this.stepWire.push(this.wire.length);
      this.stepCounter.push(this.counter);
      const next = step(list, i, this.wire, this);
      for (let j = i; j < next; j++) this.sources.push(list[j]!);
      i = next;
    }
    let built: W[];
    if (options.reuseWalk) {
      built = this.handOut.next(this.wire, options.reuseWalk);
    } else {
      this.handOut.forget();
      built = this.wire.slice();
    }
    const untouched = options.finish ? options.finish(built) : built.length;
    if (options.reuseWalk) this.handOut.touched(untouched);
    this.recordHead(built, untouched, kept, shared > 0);
    return built;
  }

  private sameHead(head: readonly W[]): boolean {
    if (head.length !== this.headLength) return false;
    for (let i = 0; i < head.length; i++) if (head[i] !== this.wire[i]) return false;
    return true;
  }

  /** A new head: nothing after it is kept. */
  private setHead(head: readonly W[]): void {
    this.wire.length = 0;
    this.handOut.cut(0);
    for (const item of head) this.wire.push(item);
    this.headLength = head.length;
    this.stepStarts.length = 0;
    this.stepWire.length = 0;
    this.stepCounter.length = 0;
    this.sources.length = 0;
    this.counter = 0;
  }

  /**
   * `built` begins with the previous list's first items up to the wire kept from the previous
   * build (`kept`), as neither finish touched them; past it, the step made again usually gives
   * the same items, found by comparing that step's few items only (`extend`: some messages were
   * shared, so the comparison stops where the previous list's messages end or differ).
   */
  private recordHead(built: W[], untouched: number, kept: number, extend: boolean): void {
    const previous = this.lastBuilt;
    if (previous) {
      const limit = Math.min(untouched, this.lastUntouched);
      let count = Math.min(kept, limit);
      if (extend) while (count < limit && built[count] === previous[count]) count++;
      recordSharedHead(built, previous, count);
    }
    this.lastBuilt = built;
    this.lastUntouched = untouched;
  }
}

/** How a serializer turns one user or assistant message into (at most) one cached wire message. */
export interface MessageWireForms<W> {
  cache: WireCache<W | null>;
  /** Cache configuration of user messages (what their conversion reads, e.g. image support). */
  userConfig: string;
  user: (message: UserMessage) => W | null;
  assistant: (message: AssistantMessage) => W | null;
}

/**
 * The user/assistant half of a wire step, the same in the shapes that send one wire message per
 * such message: appends its cached wire form (none when it converts to nothing) and returns the
 * index after it, or returns null for a tool result (the caller's run step).
 */
export function messageWireStep<W>(list: readonly LlmMessage[], i: number, wire: W[], forms: MessageWireForms<W>): number | null {
  const message = list[i]!;
  let converted: W | null;
  if (message.role === "user") converted = forms.cache.get(forms.userConfig, message, () => forms.user(message));
  else if (message.role === "assistant") converted = forms.cache.get("assistant", message, () => forms.assistant(message));
  else return null;
  if (converted) wire.push(converted);
  return i + 1;
}
